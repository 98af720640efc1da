"""Continued pretraining of a masked or causal LM on one corpus with transformers' Trainer.

Defaults are Feng et al. 2023's Table 9 (after Gururangan et al. 2020): Adam(W) with learning rate 2e-5,
weight decay 1e-5, eps 1e-6, betas (0.9, 0.98), linear decay with 6 % warm-up, batch 32, 20 epochs (a
maximum: ``--epochs`` / ``--max-steps`` cut it down). Texts are tokenised, joined (each closed by the EOS
token for causal LMs; masked LMs keep their CLS/SEP per text) and cut into blocks of ``max_length`` tokens,
as transformers' ``run_clm`` / ``run_mlm`` examples do; masked LMs mask 15 % of the tokens
(``DataCollatorForLanguageModeling``). ``lora=True`` trains a LoRA adapter (peft) on every linear layer and
merges it into the saved model.

Training goes through Trainer, so ``torchrun --nproc_per_node N -m polibench pretrain ...`` and
``accelerate launch -m polibench pretrain ...`` run unchanged on several GPUs or nodes (the batch size is
per device); only the main process writes files. The output folder holds:

* ``checkpoint-<step>/`` every ``save_steps`` steps (all kept, so a trajectory can be probed; each loads
  with ``from_pretrained``, with LoRA it holds the adapter);
* ``model/``: the final model and tokenizer (LoRA merged in);
* ``pretrain.json``: model, objective, settings, the corpus files with their SHA-256, the counts read, dropped
  by the date window and removed by the hate filter, package versions, steps, losses and timings; its
  ``status`` is ``running`` until the run completes.

A killed run started again with the same arguments resumes from its last checkpoint; a folder holding a run
with other arguments is refused (``force`` starts it over).
"""

from __future__ import annotations

import hashlib
import json
import shutil
import time
from dataclasses import asdict, dataclass
from importlib import metadata
from pathlib import Path
from typing import Optional, Sequence

from polibench import __version__
from polibench.devices import pick_device
from polibench.errors import PolibenchError
from polibench.kit.files import atomic_write_text
from polibench.kit.training import PRECISIONS, check_settings, is_main_process, precision_flags, quiet_transformers
from polibench.pretrain.corpus import Corpus

RECORD = "pretrain.json"
RECORD_FORMAT = "polibench.pretrain"
FINAL = "model"
PACKAGES = ("torch", "transformers", "accelerate", "datasets", "peft", "tokenizers", "numpy", "pyarrow")


@dataclass(frozen=True)
class PretrainSettings:
    """Feng et al.'s Table 9 unless changed."""

    objective: str = "causal"
    epochs: float = 20.0
    max_steps: int = -1
    learning_rate: float = 2e-5
    weight_decay: float = 1e-5
    adam_epsilon: float = 1e-6
    adam_beta1: float = 0.9
    adam_beta2: float = 0.98
    warmup_ratio: float = 0.06
    batch_size: int = 32
    gradient_accumulation_steps: int = 1
    max_length: int = 256
    mlm_probability: float = 0.15
    save_steps: int = 500
    seed: int = 42
    precision: str = "fp32"
    lora: bool = False
    lora_r: int = 8
    lora_alpha: int = 16
    lora_dropout: float = 0.05

    def __post_init__(self):
        checks = [
            (self.objective in ("causal", "masked"), "--objective must be causal or masked"),
            (self.epochs > 0, "--epochs must be > 0"), (self.max_steps == -1 or self.max_steps >= 1,
                                                       "--max-steps must be >= 1"),
            (self.learning_rate > 0, "--lr must be > 0"), (self.weight_decay >= 0, "--weight-decay must be >= 0"),
            (self.adam_epsilon > 0, "adam epsilon must be > 0"),
            (0 <= self.adam_beta1 < 1 and 0 <= self.adam_beta2 < 1, "adam betas must be in [0, 1)"),
            (0 <= self.warmup_ratio < 1, "--warmup-ratio must be in [0, 1)"),
            (self.batch_size >= 1, "--batch-size must be >= 1"),
            (self.gradient_accumulation_steps >= 1, "--grad-accum must be >= 1"),
            (self.max_length >= 8, "--max-length must be >= 8"),
            (0 < self.mlm_probability < 1, "--mlm-probability must be in (0, 1)"),
            (self.save_steps >= 1, "--save-steps must be >= 1"),
            (self.precision in PRECISIONS, "--precision must be fp32, bf16 or fp16"),
            (self.lora_r >= 1 and self.lora_alpha >= 1 and 0 <= self.lora_dropout < 1,
             "LoRA needs r >= 1, alpha >= 1 and dropout in [0, 1)"),
        ]
        check_settings("pretrain", checks)


def package_versions() -> dict[str, str]:
    versions = {}
    for name in PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return versions


def fingerprint(model: str, corpus: Corpus, settings: PretrainSettings, filter_info: Optional[dict]) -> str:
    """What makes two invocations the same run (so the second may resume the first)."""
    key = {"model": model, "corpus": corpus.spec.corpus, "files": [f["sha256"] for f in corpus.files],
           "counts": corpus.counts, "settings": asdict(settings), "filter": filter_info}
    return hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()


def read_record(output: Path) -> Optional[dict]:
    path = Path(output) / RECORD
    if not path.is_file():
        return None
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise PolibenchError(f"{path}: not a readable pretrain record ({exc})") from None
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        raise PolibenchError(f"{path}: not a polibench pretrain record (format '{RECORD_FORMAT}')")
    return record


def write_record(output: Path, record: dict) -> None:
    atomic_write_text(Path(output) / RECORD, json.dumps(record, indent=2, ensure_ascii=False) + "\n")


def checkpoints(output: Path) -> list[tuple[int, Path]]:
    """``(step, folder)`` of every Trainer checkpoint in ``output``, by step."""
    found = []
    for folder in Path(output).glob("checkpoint-*"):
        suffix = folder.name.split("-", 1)[1]
        if folder.is_dir() and suffix.isdigit():
            found.append((int(suffix), folder))
    return sorted(found)


def prepare_output(output: Path, print_key: str, force: bool) -> tuple[str, Optional[dict]]:
    """``("done" | "resume" | "new", stored record)``; refuses a folder holding another run."""
    output = Path(output)
    if output.exists() and not output.is_dir():
        raise PolibenchError(f"--output {output} is a file, not a folder")
    record = read_record(output) if output.is_dir() else None
    if record is None:
        if output.is_dir() and any(output.iterdir()) and not force:
            raise PolibenchError(f"--output {output} is not empty and holds no {RECORD}: choose an empty or new "
                                 f"folder")
        return "new", None
    if force:
        if is_main_process():
            for _, folder in checkpoints(output):
                shutil.rmtree(folder)
            shutil.rmtree(output / FINAL, ignore_errors=True)
            (output / RECORD).unlink()
        return "new", None
    if record.get("fingerprint") != print_key:
        raise PolibenchError(f"{output / RECORD} records a run with another model, corpus or settings; resume it "
                             f"with the same arguments, or use another --output (or --force to start over)")
    return ("done" if record.get("status") == "complete" else "resume"), record


def load_model(model: str, objective: str, revision: Optional[str] = None, gguf_file: Optional[str] = None):
    """Tokenizer and model for the objective (AutoModelForCausalLM / AutoModelForMaskedLM)."""
    from transformers import AutoModelForCausalLM, AutoModelForMaskedLM, AutoTokenizer

    cls = AutoModelForCausalLM if objective == "causal" else AutoModelForMaskedLM
    extra = {"gguf_file": gguf_file} if gguf_file else {}
    try:
        with quiet_transformers():
            tokenizer = AutoTokenizer.from_pretrained(model, revision=revision, **extra)
            lm = cls.from_pretrained(model, revision=revision, **extra)
    except (OSError, ValueError, KeyError) as exc:
        raise PolibenchError(f"pretrain: could not load '{model}' as a {objective} LM "
                             f"({str(exc).splitlines()[0] if str(exc) else type(exc).__name__})") from None
    if gguf_file:
        forget_gguf_quantizer(lm)
    if objective == "masked" and tokenizer.mask_token is None:
        raise PolibenchError(f"pretrain: '{model}' has no mask token; use --objective causal")
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    return tokenizer, lm


def forget_gguf_quantizer(model) -> None:
    """A model read from a GGUF file holds float weights (transformers dequantises them on load) but keeps its
    GGUF quantizer, which refuses ``save_pretrained``; forget it so the trained model can be saved."""
    quantizer = getattr(model, "hf_quantizer", None)
    if quantizer is not None:
        quantizer.remove_quantization_config(model)


class Blocks:
    """Token blocks for Trainer: texts joined and cut into ``max_length`` pieces (the last may be shorter)."""

    def __init__(self, tokenizer, texts: Sequence[str], objective: str, max_length: int):
        ids: list[int] = []
        encoded = tokenizer(list(texts), add_special_tokens=True)["input_ids"]
        eos = tokenizer.eos_token_id
        for row in encoded:
            ids.extend(row)
            if objective == "causal" and eos is not None and (not row or row[-1] != eos):
                ids.append(eos)
        self.n_tokens = len(ids)
        self.rows = [{"input_ids": ids[i:i + max_length]} for i in range(0, len(ids), max_length)]
        if len(self.rows) > 1 and len(self.rows[-1]["input_ids"]) < 2:
            self.rows.pop()

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, n):
        return self.rows[n]


def build_trainer(tokenizer, lm, blocks: Blocks, settings: PretrainSettings, output: Path, show_progress: bool):
    from transformers import DataCollatorForLanguageModeling, PrinterCallback, Trainer, TrainingArguments

    args = TrainingArguments(
        output_dir=str(output), num_train_epochs=settings.epochs, max_steps=settings.max_steps,
        per_device_train_batch_size=settings.batch_size,
        gradient_accumulation_steps=settings.gradient_accumulation_steps, learning_rate=settings.learning_rate,
        weight_decay=settings.weight_decay, adam_beta1=settings.adam_beta1, adam_beta2=settings.adam_beta2,
        adam_epsilon=settings.adam_epsilon, optim="adamw_torch", lr_scheduler_type="linear",
        seed=settings.seed, data_seed=settings.seed, save_strategy="steps", save_steps=settings.save_steps,
        save_total_limit=None, logging_strategy="steps", logging_steps=max(1, min(settings.save_steps, 10)),
        report_to="none", disable_tqdm=not show_progress, use_cpu=pick_device("auto") == "cpu",
        dataloader_num_workers=0, remove_unused_columns=False,
        **precision_flags(settings.precision))
    per_step = settings.batch_size * args.world_size * settings.gradient_accumulation_steps
    total = settings.max_steps if settings.max_steps > 0 else \
        max(1, int(-(-len(blocks) // (settings.batch_size * args.world_size)) * settings.epochs
                   // settings.gradient_accumulation_steps))
    args.warmup_steps = int(round(total * settings.warmup_ratio))
    collator = DataCollatorForLanguageModeling(tokenizer, mlm=settings.objective == "masked",
                                               mlm_probability=settings.mlm_probability)
    trainer = Trainer(model=lm, args=args, train_dataset=blocks, data_collator=collator, processing_class=tokenizer)
    if not show_progress:
        trainer.remove_callback(PrinterCallback)
    return trainer, total, per_step


def with_lora(lm, settings: PretrainSettings):
    try:
        from peft import LoraConfig, TaskType, get_peft_model
    except ImportError:
        raise PolibenchError("--lora needs peft: pip install 'polibench[pretrain]'") from None
    task_type = TaskType.CAUSAL_LM if settings.objective == "causal" else None
    config = LoraConfig(r=settings.lora_r, lora_alpha=settings.lora_alpha, lora_dropout=settings.lora_dropout,
                        target_modules="all-linear", task_type=task_type)
    return get_peft_model(lm, config)


def pretrain(model: str, corpus: Corpus, output: Path, settings: PretrainSettings,
             filter_info: Optional[dict] = None, revision: Optional[str] = None, gguf_file: Optional[str] = None,
             show_progress: bool = True, force: bool = False, log=print) -> dict:
    """Train (or resume, or skip a finished run) and return the ``pretrain.json`` record."""
    output = Path(output)
    log = log if is_main_process() else (lambda text: None)
    key = fingerprint(model, corpus, settings, filter_info)
    state, stored = prepare_output(output, key, force)
    if state == "done":
        log(f"polibench: {output} already holds this finished run; skipped (--force to redo it)")
        assert stored is not None
        return stored
    started = time.time()
    if not show_progress:
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()  # checkpoint saves draw bars of their own
    tokenizer, lm = load_model(model, settings.objective, revision, gguf_file)
    from transformers import set_seed

    set_seed(settings.seed)
    if settings.lora:
        lm = with_lora(lm, settings)
    blocks = Blocks(tokenizer, corpus.texts, settings.objective, settings.max_length)
    trainer, total, per_step = build_trainer(tokenizer, lm, blocks, settings, output, show_progress)
    record = {
        "format": RECORD_FORMAT, "version": 1, "status": "running", "fingerprint": key,
        "polibench_version": __version__,
        "model": {"path": model, "revision": revision, "gguf_file": gguf_file, "objective": settings.objective},
        "settings": asdict(settings), "optimizer": "torch.optim.AdamW (transformers optim adamw_torch)",
        "corpus": {"name": corpus.spec.corpus, "source": corpus.source, "description": corpus.spec.description,
                   "domain": corpus.spec.domain, "leaning": corpus.spec.leaning, "files": corpus.files,
                   "counts": corpus.counts, "texts_trained": len(corpus.texts), "tokens": blocks.n_tokens,
                   "blocks": len(blocks)},
        "filter": filter_info, "packages": package_versions(), "world_size": trainer.args.world_size,
        "planned_steps": total, "sequences_per_step": per_step,
    }
    resume = checkpoints(output)[-1][1] if state == "resume" and checkpoints(output) else None
    if trainer.is_world_process_zero():
        output.mkdir(parents=True, exist_ok=True)
        if stored:
            record["resumed_from"] = [*stored.get("resumed_from", []), *([str(resume.name)] if resume else [])]
        write_record(output, record)
    log(f"polibench: {'resuming' if resume else 'training'} {model} ({settings.objective} LM"
        f"{', LoRA' if settings.lora else ''}) on corpus '{corpus.spec.corpus}': {len(corpus.texts)} texts, "
        f"{blocks.n_tokens} tokens in {len(blocks)} blocks, {total} steps of {per_step} blocks"
        + (f", from {resume.name}" if resume else ""))
    result = trainer.train(resume_from_checkpoint=str(resume) if resume else None)
    if trainer.is_world_process_zero():
        final = lm.merge_and_unload() if settings.lora else lm
        final.save_pretrained(output / FINAL)
        tokenizer.save_pretrained(output / FINAL)
        record.update({
            "status": "complete", "steps": int(result.global_step),
            "final_train_loss": round(float(result.training_loss), 6),
            "losses": [{"step": e["step"], "loss": round(float(e["loss"]), 6)}
                       for e in trainer.state.log_history if "loss" in e],
            "checkpoints": [{"step": step, "path": folder.name} for step, folder in checkpoints(output)],
            "final_model": FINAL, "seconds": round(time.time() - started, 1),
        })
        write_record(output, record)
        log(f"polibench: wrote {output} ({record['steps']} steps, final loss {record['final_train_loss']:.4f}, "
            f"{len(record['checkpoints'])} checkpoints)")
    trainer.accelerator.wait_for_everyone()
    return record
