"""Fine-tune a sequence classifier on a fairness task, once per seed, and keep its test predictions.

As Feng et al. 2023: the optimiser is RAdam (``torch.optim.RAdam``, betas 0.9/0.999, eps 1e-8) and every
other setting is transformers' default unless the task file or a flag says otherwise: learning rate 5e-5,
batch size 8, 3 epochs, no weight decay, no warm-up, linear decay to zero (defaults in
:class:`polibench.fairness.spec.TrainDefaults`). A run is seeded (classification head initialisation, data
order, dropout) with its seed.

Training goes through transformers' Trainer, so ``torchrun --nproc_per_node N -m polibench fairness train
...`` or ``accelerate launch -m polibench fairness train ...`` trains on several GPUs without code changes
(the batch size is per device); only the main process writes files.

Each seed writes ``<output>/<name>/<task>/seed-<seed>/``:

* ``predictions.jsonl``: one line per test item: ``id``, gold ``label``, ``probs`` (class 0, class 1),
  ``groups`` and ``members`` (copied from the prepared data, so evaluation needs nothing else);
* ``run.json``: model, task, seed, settings, data manifest hash, dev-set BACC/F1, loss and timings;
* ``model/`` (with ``--save-model``): the fine-tuned checkpoint.

The folder appears only when the seed has finished (written beside it, then renamed); a finished seed is
skipped when the command is run again, unless ``overwrite``.
"""

from __future__ import annotations

import json
import re
import shutil
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Optional, Sequence

from polibench import __version__
from polibench.devices import pick_device
from polibench.errors import PolibenchError
from polibench.fairness.data import Item, PreparedData
from polibench.fairness.spec import FairnessTask
from polibench.kit.files import staged_folder
from polibench.kit.training import PRECISIONS, check_settings, is_main_process, precision_flags, quiet_transformers

PREDICTIONS = "predictions.jsonl"
RUN = "run.json"
RUN_FORMAT = "polibench-fairness-run"


@dataclass(frozen=True)
class TrainSettings:
    epochs: float = 3.0
    learning_rate: float = 5e-5
    batch_size: int = 8
    eval_batch_size: int = 64
    max_length: int = 128
    weight_decay: float = 0.0
    warmup_ratio: float = 0.0
    adam_beta1: float = 0.9
    adam_beta2: float = 0.999
    adam_epsilon: float = 1e-8
    gradient_accumulation_steps: int = 1
    precision: str = "fp32"
    limit_train: Optional[int] = None

    def __post_init__(self):
        checks = [(self.epochs > 0, "epochs must be > 0"), (self.learning_rate > 0, "learning rate must be > 0"),
                  (self.batch_size >= 1, "batch size must be >= 1"), (self.max_length >= 8, "max length must be >= 8"),
                  (self.weight_decay >= 0, "weight decay must be >= 0"),
                  (0 <= self.warmup_ratio < 1, "warm-up ratio must be in [0, 1)"),
                  (self.gradient_accumulation_steps >= 1, "gradient accumulation steps must be >= 1"),
                  (self.precision in PRECISIONS, "precision must be fp32, bf16 or fp16"),
                  (self.limit_train is None or self.limit_train >= 2, "--limit-train must be >= 2")]
        check_settings("fairness train", checks)

    @classmethod
    def from_task(cls, task: FairnessTask, **overrides) -> TrainSettings:
        base = task.train.model_dump()
        base.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**base)


def model_name(model: str) -> str:
    """A folder-safe name for a model path or hub id (``org/model`` -> ``org--model``)."""
    path = Path(model)
    if path.exists():
        path = path.resolve()
        text = path.parent.name if path.name in ("model", "checkpoint", "final") and path.parent.name else path.name
    else:
        text = model.replace("/", "--")
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-.") or "model"


def seed_folder(output: Path, name: str, task: str, seed: int) -> Path:
    return Path(output) / name / task / f"seed-{seed}"


def is_complete(folder: Path) -> bool:
    return (folder / RUN).is_file() and (folder / PREDICTIONS).is_file()


class _Encoded:
    """Tokenised texts with labels, as Trainer expects (a list of feature dicts)."""

    def __init__(self, tokenizer, items: Sequence[Item], max_length: int):
        encoded = tokenizer([i.text for i in items], truncation=True, max_length=max_length)
        self.rows = [{**{k: encoded[k][n] for k in encoded}, "labels": item.label} for n, item in enumerate(items)]

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, n):
        return self.rows[n]


def load_model(model: str, task: FairnessTask, seed: int, revision: Optional[str] = None):
    """Tokenizer and a 2-label sequence classifier (a fresh head, initialised from ``seed``)."""
    from transformers import AutoModelForSequenceClassification, AutoTokenizer, set_seed

    set_seed(seed)
    id2label = {0: task.negative_label, 1: task.positive_label}
    try:
        with quiet_transformers():
            tokenizer = AutoTokenizer.from_pretrained(model, revision=revision)
            classifier = AutoModelForSequenceClassification.from_pretrained(
                model, revision=revision, num_labels=2, id2label=id2label,
                label2id={v: k for k, v in id2label.items()}, ignore_mismatched_sizes=True)
    except (OSError, ValueError) as exc:
        raise PolibenchError(f"fairness train: could not load model '{model}' ({str(exc).splitlines()[0]})") \
            from None
    if tokenizer.pad_token is None:  # decoder-only models (GPT-2 ...) have none
        tokenizer.pad_token = tokenizer.eos_token
        classifier.config.pad_token_id = tokenizer.pad_token_id
    return tokenizer, classifier


def softmax(logits):
    import numpy as np

    logits = np.asarray(logits, dtype=np.float64)
    shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
    return shifted / shifted.sum(axis=1, keepdims=True)


def _dev_scores(labels, probs) -> dict:
    from sklearn.metrics import balanced_accuracy_score, f1_score

    predicted = probs.argmax(axis=1)
    return {"bacc": round(float(balanced_accuracy_score(labels, predicted)), 6),
            "f1": round(float(f1_score(labels, predicted, zero_division=0)), 6)}


def build_trainer(tokenizer, classifier, train_items: Sequence[Item], settings: TrainSettings, seed: int,
                  scratch: Path, show_progress: bool = True, max_steps: int = -1):
    """transformers' Trainer with RAdam and the settings (linear decay, warm-up as a share of the steps)."""
    import torch
    from transformers import DataCollatorWithPadding, PrinterCallback, Trainer, TrainingArguments

    args = TrainingArguments(
        output_dir=str(scratch), num_train_epochs=settings.epochs, max_steps=max_steps,
        per_device_train_batch_size=settings.batch_size, per_device_eval_batch_size=settings.eval_batch_size,
        learning_rate=settings.learning_rate, weight_decay=settings.weight_decay, lr_scheduler_type="linear",
        gradient_accumulation_steps=settings.gradient_accumulation_steps, seed=seed, data_seed=seed,
        save_strategy="no", logging_strategy="no", report_to="none", disable_tqdm=not show_progress,
        use_cpu=pick_device("auto") == "cpu", dataloader_num_workers=0, **precision_flags(settings.precision))
    batches_per_epoch = -(-len(train_items) // (settings.batch_size * args.world_size))
    total_steps = max_steps if max_steps > 0 else \
        max(1, int(batches_per_epoch * settings.epochs // settings.gradient_accumulation_steps))
    args.warmup_steps = int(round(total_steps * settings.warmup_ratio))
    trainer = Trainer(
        model=classifier, args=args, train_dataset=_Encoded(tokenizer, train_items, settings.max_length),
        data_collator=DataCollatorWithPadding(tokenizer), processing_class=tokenizer,
        optimizer_cls_and_kwargs=(torch.optim.RAdam, {"lr": settings.learning_rate,
                                                      "betas": (settings.adam_beta1, settings.adam_beta2),
                                                      "eps": settings.adam_epsilon}))
    if not show_progress:
        trainer.remove_callback(PrinterCallback)  # it prints the final metrics dict even without logging
    return trainer


def predict_probs(trainer, tokenizer, items: Sequence[Item], max_length: int):
    """Class probabilities (items x classes) of ``items`` in order."""
    return softmax(trainer.predict(_Encoded(tokenizer, items, max_length)).predictions)


def train_seed(model: str, task: FairnessTask, data: PreparedData, seed: int, folder: Path, name: str,
               settings: TrainSettings, revision: Optional[str] = None, show_progress: bool = True,
               save_model: bool = False) -> Path:
    """Fine-tune ``model`` on ``data`` with ``seed`` and write ``folder`` (see the module docstring)."""
    import numpy as np
    import torch

    folder = Path(folder)
    started = time.time()
    tokenizer, classifier = load_model(model, task, seed, revision)
    train_items = data.train
    if settings.limit_train:
        import random

        train_items = random.Random(seed).sample(train_items, min(settings.limit_train, len(train_items)))
    scratch = folder.parent / f".{folder.name}.trainer"
    trainer = build_trainer(tokenizer, classifier, train_items, settings, seed, scratch, show_progress)
    args = trainer.args
    result = trainer.train()
    train_seconds = time.time() - started
    test_probs = predict_probs(trainer, tokenizer, data.test, settings.max_length)
    dev_probs = predict_probs(trainer, tokenizer, data.dev, settings.max_length)
    if trainer.is_world_process_zero():
        dev = _dev_scores(np.array([i.label for i in data.dev]), dev_probs)
        record = {
            "format": RUN_FORMAT, "version": 1, "polibench_version": __version__,
            "model": {"name": name, "path": model, "revision": revision}, "task": task.name,
            "task_version": task.version, "seed": seed, "optimizer": "torch.optim.RAdam",
            "settings": asdict(settings), "steps": int(result.global_step), "world_size": args.world_size,
            "data": {"folder": str(data.folder), "manifest_sha256": data.manifest_sha256(),
                     "n_train": len(train_items), "n_dev": len(data.dev), "n_test": len(data.test)},
            "labels": {"0": task.negative_label, "1": task.positive_label},
            "groupings": {key: list(g.groups.values()) for key, g in task.groupings.items()},
            "dev": dev, "final_train_loss": round(float(result.training_loss), 6),
            "train_seconds": round(train_seconds, 1), "total_seconds": round(time.time() - started, 1),
            "torch_threads": torch.get_num_threads(),
        }
        _publish(folder, record, data.test, test_probs, classifier if save_model else None, tokenizer)
    trainer.accelerator.wait_for_everyone()
    shutil.rmtree(scratch, ignore_errors=True)
    return folder


def _publish(folder: Path, record: dict, items: Sequence[Item], probs, classifier, tokenizer) -> None:
    with staged_folder(folder) as tmp:
        with open(tmp / PREDICTIONS, "w", encoding="utf-8") as handle:
            for item, row in zip(items, probs):
                handle.write(json.dumps({"id": item.id, "label": item.label,
                                         "probs": [round(float(p), 6) for p in row], "groups": item.groups,
                                         "members": item.members}, ensure_ascii=False) + "\n")
        (tmp / RUN).write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
        if classifier is not None:
            with quiet_transformers():
                classifier.save_pretrained(tmp / "model")
                tokenizer.save_pretrained(tmp / "model")


def train_seeds(model: str, task: FairnessTask, data: PreparedData, seeds: Sequence[int], output: Path,
                settings: TrainSettings, name: Optional[str] = None, revision: Optional[str] = None,
                show_progress: bool = True, save_model: bool = False, overwrite: bool = False,
                log=print) -> list[Path]:
    """Train one run per seed (skipping finished ones unless ``overwrite``); returns the seed folders."""
    name = name or model_name(model)
    log = log if is_main_process() else (lambda text: None)
    folders = []
    for seed in seeds:
        folder = seed_folder(output, name, task.name, seed)
        if is_complete(folder) and not overwrite:
            log(f"polibench: {folder} is already complete; skipped (--force to redo it)")
        else:
            n_train = min(len(data.train), settings.limit_train or len(data.train))
            log(f"polibench: fine-tuning {model} on {task.name} ({n_train} train items), seed {seed}, "
                f"{settings.epochs:g} epochs of batch {settings.batch_size}, RAdam lr {settings.learning_rate:g}")
            train_seed(model, task, data, seed, folder, name, settings, revision, show_progress, save_model)
        folders.append(folder)
    return folders

