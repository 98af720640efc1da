"""Fine-tune a 4-label stance classifier on ``(statement, response)`` pairs with transformers' Trainer.

Defaults follow the stance classifier fine-tuning of Faulborn et al. 2025 (arXiv:2503.16148): AdamW (betas
0.9/0.999, eps 1e-8), learning rate 2e-5, weight decay 0.2, batch size 4, linear schedule with warm-up.
Their 1,750 steps over 1,320 training answers at batch 4 are about 5.3 passes over the data, and their
500 warm-up steps are 2/7 of training; the scaling rule keeps both ratios for any data size and batch size:

    steps  = ceil(5.3 * n_train / batch_size)        (1,750 for n_train = 1,320, batch 4)
    warmup = round(steps * 500 / 1750)

The run is seeded (model head initialisation, data order, dropout), so the same data, settings and
machine give the same weights. The result is a normal transformers checkpoint with ``id2label`` =
agree/disagree/neutral/unrelated, loadable by the ``classifier`` scorer, plus ``polibench_stance.json``
(what it was trained on and how). The output folder appears only when training has finished: the model is
written to a temporary sibling folder and renamed into place.
"""

from __future__ import annotations

import contextlib
import json
import math
import shutil
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Optional, Sequence

from polibench.errors import PolibenchError
from polibench.kit.files import staged_folder
from polibench.kit.training import check_settings, freeze_lower, quiet_transformers, run_trainer, torch_threads
from polibench.scorers.stance.classifier import MAX_LENGTH, encode_pairs
from polibench.scorers.stance.data import StanceExample, examples_digest
from polibench.scoring.base import LABELS

FAULBORN_STEPS, FAULBORN_TRAIN_SIZE, FAULBORN_BATCH, FAULBORN_WARMUP = 1750, 1320, 4, 500
FAULBORN_EPOCHS = FAULBORN_STEPS * FAULBORN_BATCH / FAULBORN_TRAIN_SIZE  # ~5.3 passes over the data
METADATA = "polibench_stance.json"
TRAIN_PRECISIONS = ("fp32", "fp64")


@dataclass(frozen=True)
class TrainSettings:
    """Training hyper-parameters; ``steps=None`` applies the scaling rule of the module docstring."""

    learning_rate: float = 2e-5
    weight_decay: float = 0.2
    batch_size: int = FAULBORN_BATCH
    steps: Optional[int] = None
    epochs: float = FAULBORN_EPOCHS
    warmup_fraction: float = FAULBORN_WARMUP / FAULBORN_STEPS
    adam_beta1: float = 0.9
    adam_beta2: float = 0.999
    adam_epsilon: float = 1e-8
    max_length: int = MAX_LENGTH
    freeze_embeddings: bool = False
    freeze_layers: int = 0
    seed: int = 1234
    precision: str = "fp32"  # the arithmetic of training: fp32, or fp64 (the checkpoint is saved in float32 either way;
    # fp64 trains on the CPU even where there is a GPU: CUDA's kernels and dropout random numbers differ from the CPU's)
    threads: Optional[int] = None  # torch threads while training (None: the process's); fixed, the weights do not
    # depend on how many threads the process has (CPU reductions split their sums by thread)

    def __post_init__(self):
        checks = [(self.learning_rate > 0, "learning rate must be > 0"),
                  (self.weight_decay >= 0, "weight decay must be >= 0"),
                  (self.batch_size >= 1, "batch size must be >= 1"),
                  (self.steps is None or self.steps >= 1, "steps must be >= 1"),
                  (self.epochs > 0, "epochs must be > 0"),
                  (0 <= self.warmup_fraction < 1, "warm-up fraction must be in [0, 1)"),
                  (self.max_length >= 8, "max length must be >= 8"),
                  (self.freeze_layers >= 0, "frozen layers must be >= 0"),
                  (self.precision in TRAIN_PRECISIONS, f"precision must be one of {', '.join(TRAIN_PRECISIONS)}"),
                  (self.threads is None or self.threads >= 1, "threads must be >= 1")]
        check_settings("stance train", checks)

    def total_steps(self, n_train: int) -> int:
        return self.steps or max(1, math.ceil(self.epochs * n_train / self.batch_size))

    def warmup_steps(self, n_train: int) -> int:
        return round(self.total_steps(n_train) * self.warmup_fraction)


class _PairDataset:
    """Tokenised pairs with their label ids, as Trainer expects (a list of feature dicts)."""

    def __init__(self, tokenizer, examples: Sequence[StanceExample], max_length: int):
        encoded = encode_pairs(tokenizer, [e.statement for e in examples], [e.response for e in examples],
                               max_length)
        label_ids = {label: i for i, label in enumerate(LABELS)}
        self.rows = [{**{k: encoded[k][i] for k in encoded}, "labels": label_ids[e.label]}
                     for i, e in enumerate(examples)]

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        return self.rows[i]


def load_base(base: str, seed: int, **model_options):
    """Tokenizer and a 4-label sequence-classification model from ``base`` (a fresh head if it has none);
    ``model_options`` go to ``from_pretrained`` (e.g. ``attn_implementation``)."""
    from transformers import AutoModelForSequenceClassification, AutoTokenizer, set_seed

    set_seed(seed)  # the new classification head is initialised from this seed
    id2label = dict(enumerate(LABELS))
    try:
        with quiet_transformers():  # the "newly initialized head" report is expected here
            tokenizer = AutoTokenizer.from_pretrained(base)
            model = AutoModelForSequenceClassification.from_pretrained(
                base, num_labels=len(LABELS), id2label=id2label, label2id={v: k for k, v in id2label.items()},
                ignore_mismatched_sizes=True, **model_options)
    except (OSError, ValueError) as exc:
        raise PolibenchError(f"stance train: could not load base model '{base}' ({str(exc).splitlines()[0]})") \
            from None
    return tokenizer, model


def prepare_output(output: Path, train: Sequence[StanceExample]) -> Path:
    """``output`` as a Path, its parent made, after one clear error if it holds files or there is nothing to train
    on (every stance training writes a fresh folder)."""
    output = Path(output)
    if output.exists() and any(output.iterdir()):
        raise PolibenchError(f"stance train: output folder {output} already exists and is not empty")
    if not train:
        raise PolibenchError("stance train: no training examples")
    output.parent.mkdir(parents=True, exist_ok=True)
    return output


def train_classifier(base: str, train: Sequence[StanceExample], output: Path,
                     settings: TrainSettings = TrainSettings(), show_progress: bool = True,
                     extra_metadata: Optional[dict] = None, callbacks: Sequence = ()) -> Path:
    """Fine-tune ``base`` on ``train`` and write the checkpoint to ``output`` (which must not exist yet);
    ``callbacks``: transformers ``TrainerCallback`` objects (the first-use ETA line)."""
    output = prepare_output(output, train)
    with training_threads(settings.threads):
        return _train(base, train, output, settings, show_progress, extra_metadata, callbacks)


def _train(base: str, train: Sequence[StanceExample], output: Path, settings: TrainSettings, show_progress: bool,
           extra_metadata: Optional[dict], callbacks: Sequence) -> Path:
    started, cpu_started = time.time(), time.process_time()
    tokenizer, model = load_base(base, settings.seed)
    freeze_lower(model, "stance train", settings.freeze_embeddings, settings.freeze_layers)
    if settings.precision == "fp64":
        model.double()
    steps, warmup = settings.total_steps(len(train)), settings.warmup_steps(len(train))
    with staged_folder(output) as tmp:  # replaces the empty output folder prepare_output left
        loss = run_trainer(model, tokenizer, _PairDataset(tokenizer, train, settings.max_length), str(tmp / "trainer"),
                           steps=steps, warmup=warmup, batch_size=settings.batch_size,
                           learning_rate=settings.learning_rate, weight_decay=settings.weight_decay,
                           seed=settings.seed, adam=(settings.adam_beta1, settings.adam_beta2, settings.adam_epsilon),
                           show_progress=show_progress, callbacks=callbacks,
                           use_cpu=True if settings.precision == "fp64" else None)
        shutil.rmtree(tmp / "trainer", ignore_errors=True)
        model.float()  # saved in float32 whatever the training arithmetic: the checkpoint loads as any other
        with quiet_transformers():
            model.save_pretrained(tmp)
            tokenizer.save_pretrained(tmp)
        metadata = {
            "base": base, "labels": list(LABELS), "n_train": len(train), "train_sha256": examples_digest(train),
            "settings": asdict(settings), "steps": steps, "warmup_steps": warmup,
            "final_train_loss": round(loss, 6), "train_seconds": round(time.time() - started, 1),
            "train_cpu_seconds": round(time.process_time() - cpu_started, 1),
            "torch_threads": torch_threads(), **(extra_metadata or {}),
        }
        (tmp / METADATA).write_text(json.dumps(metadata, indent=2) + "\n", encoding="utf-8")
    return output


@contextlib.contextmanager
def training_threads(threads: Optional[int]):
    """torch's intra-op thread count set to ``threads`` while training (unchanged for None), then restored."""
    import torch

    before = torch.get_num_threads()
    if threads:
        torch.set_num_threads(threads)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def read_metadata(checkpoint: Path) -> dict:
    path = Path(checkpoint) / METADATA
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
