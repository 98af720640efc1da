"""The training kit shared by the fine-tuning recipes (stance, fairness, pretrain, ideology, debias): settings
checks, the main-process check, precision flags, quiet transformers, and the Trainer loop with layer freezing that
the sequence-classifier recipes (the stance scorer, the ideology judge) share.

transformers and torch are imported only inside the functions, so importing the kit stays cheap.
"""

from __future__ import annotations

import contextlib
import os
from typing import Iterable

from polibench.errors import PolibenchError

PRECISIONS = ("fp32", "bf16", "fp16")


def check_settings(who: str, checks: Iterable[tuple[bool, str]]) -> None:
    """Raise one user error (``WHO: MESSAGE``) for the first ``(ok, message)`` check that fails."""
    for ok, message in checks:
        if not ok:
            raise PolibenchError(f"{who}: {message}")


def precision_flags(precision: str) -> dict[str, bool]:
    """The ``bf16`` / ``fp16`` arguments of a transformers ``TrainingArguments`` for a precision name."""
    if precision not in PRECISIONS:
        raise PolibenchError(f"precision must be one of {', '.join(PRECISIONS)} (got '{precision}')")
    return {"bf16": precision == "bf16", "fp16": precision == "fp16"}


def is_main_process() -> bool:
    """False on the other ranks of a torchrun / accelerate launch (only the main one reports and writes)."""
    return int(os.environ.get("RANK", "0")) == 0


@contextlib.contextmanager
def quiet_transformers():
    """Silence transformers' load/save reports and progress bars (expected noise for polibench's users)."""
    from transformers.utils import logging as hf_logging

    verbosity, bars = hf_logging.get_verbosity(), hf_logging.is_progress_bar_enabled()
    hf_logging.set_verbosity_error()
    hf_logging.disable_progress_bar()
    try:
        yield
    finally:
        hf_logging.set_verbosity(verbosity)
        if bars:
            hf_logging.enable_progress_bar()


def freeze_lower(model, who: str, embeddings: bool, layers: int) -> None:
    """Stop training the word embeddings, and with ``layers`` > 0 the whole embedding block and the lowest
    ``layers`` transformer layers too (backward then stops below the lowest trained layer, which is where
    the time goes on CPU)."""
    modules = [model.get_input_embeddings()] if embeddings else []
    if layers:
        encoder = getattr(model.base_model, "encoder", None)
        blocks = getattr(encoder, "layer", None) or getattr(encoder, "layers", None)
        block_embeddings = getattr(model.base_model, "embeddings", None)
        if blocks is None or block_embeddings is None or layers > len(blocks):
            raise PolibenchError(f"{who}: cannot freeze {layers} layers of {type(model).__name__}")
        modules += [block_embeddings, *blocks[:layers]]
    for module in modules:
        for parameter in module.parameters():
            parameter.requires_grad_(False)


def run_trainer(model, tokenizer, rows, workdir: str, *, steps: int, warmup: int, batch_size: int,
                learning_rate: float, weight_decay: float, seed: int, adam: tuple = (0.9, 0.999, 1e-8),
                show_progress: bool = True, callbacks=(), use_cpu: bool | None = None) -> float:
    """Fine-tune ``model`` on ``rows`` (tokenised feature dicts with ``labels``) with transformers' Trainer:
    AdamW, a linear schedule with ``warmup`` steps, length-grouped batches, seeded data order, nothing saved
    (``workdir`` holds the Trainer's scratch files). Returns the mean training loss. ``use_cpu``: train on the CPU
    even when an accelerator is there (None: on the accelerator when there is one)."""
    from transformers import DataCollatorWithPadding, PrinterCallback, Trainer, TrainingArguments

    args = TrainingArguments(
        output_dir=workdir, max_steps=steps, per_device_train_batch_size=batch_size,
        learning_rate=learning_rate, weight_decay=weight_decay, warmup_steps=warmup,
        lr_scheduler_type="linear", optim="adamw_torch", adam_beta1=adam[0], adam_beta2=adam[1],
        adam_epsilon=adam[2], seed=seed, data_seed=seed, save_strategy="no", logging_strategy="no", report_to=[],
        disable_tqdm=not show_progress, use_cpu=(not has_accelerator()) if use_cpu is None else use_cpu,
        dataloader_num_workers=0,
        **length_grouping(TrainingArguments))
    trainer = Trainer(model=model, args=args, train_dataset=rows, data_collator=DataCollatorWithPadding(tokenizer),
                      processing_class=tokenizer, callbacks=list(callbacks) or None)
    if not show_progress:
        trainer.remove_callback(PrinterCallback)  # it prints the final loss dict
    return float(trainer.train().training_loss)


def length_grouping(arguments_class) -> dict:
    """Batch examples of similar length together (less padding); the option's name changed in transformers 5."""
    import dataclasses

    names = {f.name for f in dataclasses.fields(arguments_class)}
    return {"train_sampling_strategy": "group_by_length"} if "train_sampling_strategy" in names else \
        {"group_by_length": True}


def has_accelerator() -> bool:
    import torch

    return torch.cuda.is_available() or bool(getattr(torch.backends, "mps", None) and torch.backends.mps.is_available())


def torch_threads() -> int:
    import torch

    return torch.get_num_threads()
