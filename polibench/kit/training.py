"""The training kit shared by the fine-tuning recipes (stance, fairness, pretrain, ideology, debias): settings
checks, the main-process check, precision flags and quiet transformers.

transformers is imported only inside :func:`quiet_transformers`, so importing the kit stays cheap.
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
