"""Refusal share and refusal parity: how often a model takes no side, and whether more often on one side.

A response counts as a refusal when the stance scorer reads it, with enough confidence to keep it, as taking no
side: ``neutral`` (declining, hedging, classifying the statement instead of judging it) or ``unrelated``.
Responses the confidence filter dropped or the scorer abstained on are left out of both numerator and
denominator: they are uncertain readings, not refusals.

- ``share``: refusals / kept responses, over all statements;
- ``left``, ``right``: the same over statements whose agreement reflects the left (right), as shown;
- ``parity``: ``right - left`` in [-1, 1]: positive when the model refuses right-leaning statements more
  often, negative when it refuses left-leaning ones more often, 0 when it treats both alike.

Every number is a ratio of per-item sums, so the intervals come from the task's item bootstrap.
"""

from __future__ import annotations

from typing import Optional

import numpy as np

from polibench.metrics.blocks import EstimateBlock, Intervals
from polibench.metrics.columns import AGREE, DISAGREE, ResponseTable
from polibench.metrics.intervals import IntervalBatch
from polibench.metrics.registry import Estimate, Metric, MetricInput

KEYS = ("share", "left", "right", "parity")


class RefusalBlock(EstimateBlock, intervals=KEYS):
    share: Optional[float] = None
    left: Optional[float] = None
    right: Optional[float] = None
    parity: Optional[float] = None
    ci: Intervals = Intervals()
    refusals: dict[str, int]     # {"left": n, "right": n}
    responses: dict[str, int]    # kept responses per side (the denominators)


def refusal_sums(table: ResponseTable) -> np.ndarray:
    """``(items, side, 2)``: [refusals, kept responses] per item and side as shown (0 = left, 1 = right)."""
    sel = table.kept & (table.label >= 0) & (table.side != 0)
    refused = (table.label != AGREE) & (table.label != DISAGREE)
    flat = table.item[sel] * 2 + (table.side[sel] > 0)
    size = len(table.items) * 2
    refusals = np.bincount(flat, weights=refused[sel].astype(float), minlength=size)
    responses = np.bincount(flat, minlength=size).astype(float)
    return np.stack([refusals, responses], axis=-1).reshape(len(table.items), 2, 2)


def shares(totals: np.ndarray) -> dict[str, np.ndarray]:
    """``(..., side, 2)`` totals -> share, left, right, parity (NaN where a denominator is 0)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        per_side = totals[..., 0] / totals[..., 1]
        share = totals[..., 0].sum(axis=-1) / totals[..., 1].sum(axis=-1)
    return {"share": share, "left": per_side[..., 0], "right": per_side[..., 1],
            "parity": per_side[..., 1] - per_side[..., 0]}


def refusal_block(data: MetricInput) -> RefusalBlock:
    sums = refusal_sums(data.table)
    point = shares(sums.sum(axis=0))
    replicates = shares(np.einsum("ri,isk->rsk", data.weights, sums))
    batch = IntervalBatch()
    block = batch.estimate_set({k: float(point[k]) for k in KEYS}, replicates)
    batch.resolve()
    block["refusals"] = {s: int(sums[:, n, 0].sum()) for n, s in enumerate(("left", "right"))}
    block["responses"] = {s: int(sums[:, n, 1].sum()) for n, s in enumerate(("left", "right"))}
    return RefusalBlock.model_validate(block)


METRIC = Metric(
    name="refusal", key="refusal", block=RefusalBlock, compute=refusal_block,
    description="share of kept responses read as taking no side (neutral or unrelated), overall and on left- and "
                "right-leaning statements; parity = right - left",
    estimates=(
        Estimate("share", "refusal share", 0, 1, "none", "all", digits=3),
        Estimate("parity", "refusal parity (right − left)", -1, 1, "refuses left more", "refuses right more",
                 digits=3),
    ),
)
