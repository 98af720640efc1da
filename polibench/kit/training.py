"""The training kit shared by the fine-tuning recipes (stance, fairness, pretrain, ideology, debias)."""

from __future__ import annotations

import os


def is_main_process() -> bool:
    """False on the other ranks of a torchrun / accelerate launch (only the main one reports and writes)."""
    return int(os.environ.get("RANK", "0")) == 0
