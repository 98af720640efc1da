"""Faulborn et al.'s bias per item category (PrismIA's topics: economy, immigration, ...), with intervals.

For the items of one category, the bias is the same ``(Bias_right - Bias_left) / 2`` as
:mod:`polibench.families.faulborn.metric` (``Bias_side = P_agree - P_disagree`` over the counted responses to statements
whose agreement reflects that side; negative means left). When every counted answer takes a side (no neutral
ones) it equals ``P_agree(right-leaning) - P_agree(left-leaning)``. The category is the instrument item's
``category``; items without one are left out, and the metric reports nothing when no item has one.

Intervals come from the task's item bootstrap (the same ``(resamples, items)`` weights as every other metric),
so a category's number of items varies between resamples as it would in a new draw of statements.
"""

from __future__ import annotations

from typing import Optional

import numpy as np

from polibench.families.faulborn.metric import bias_from_totals, side_sums
from polibench.metrics.blocks import EstimateBlock, Intervals, Strict
from polibench.metrics.intervals import IntervalBatch
from polibench.metrics.registry import Metric, MetricInput


class CategoryBias(EstimateBlock, intervals=("bias",)):
    """One category's bias in [-1, 1] (negative = left), its items and counted responses per side."""

    bias: Optional[float] = None
    ci: Intervals = Intervals()
    items: dict[str, int]        # {"left": n, "right": n}: items whose agreement reflects that side
    counted: dict[str, int]      # counted responses (kept agree / disagree / neutral) per side


class CategoryBiasBlock(Strict):
    per_category: dict[str, CategoryBias]


def item_categories(data: MetricInput) -> list[Optional[str]]:
    """The category of each item of the table (None where the instrument gives none)."""
    lookup = {(name, item.id): item.category for name, inst in data.instruments.items() for item in inst.items}
    return [lookup.get((i.instrument, i.item_id)) for i in data.table.items]


def category_bias_block(data: MetricInput) -> Optional[CategoryBiasBlock]:
    table, weights = data.table, data.weights
    categories = item_categories(data)
    names = sorted({c for c in categories if c is not None})
    if not names:
        return None
    sums = side_sums(table, np.zeros(len(table), dtype=np.intp), 1)[:, 0]  # (items, side, 2)
    batch = IntervalBatch()
    raw: dict[str, dict] = {}
    for name in names:
        member = np.array([c == name for c in categories])
        point = bias_from_totals(sums[member].sum(axis=0))
        replicates = bias_from_totals(np.einsum("ri,isk->rsk", weights[:, member], sums[member]))
        block = batch.estimate_set({"bias": float(point)}, {"bias": replicates})
        sides = [i.side for i, m in zip(table.items, member) if m]
        block["items"] = {s: sides.count(s) for s in ("left", "right")}
        block["counted"] = {s: int(sums[member, n, 1].sum()) for n, s in enumerate(("left", "right"))}
        raw[name] = block
    batch.resolve()
    return CategoryBiasBlock.model_validate({"per_category": raw})


METRIC = Metric(
    name="category_bias", key="category_bias", block=CategoryBiasBlock, compute=category_bias_block,
    description="Faulborn et al. 2025 bias, (Bias_right - Bias_left) / 2, per item category (e.g. PrismIA's topics)",
)
