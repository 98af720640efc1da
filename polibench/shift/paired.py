"""Paired differences between two sets of scored samples on the same statements (shifts, persona separation).

Two runs of different models on one task, or two prompt variants within one run, answer the same items.
Their difference is estimated *paired*: both sides are restricted to the items both answered, and one
matrix of item resamples (the stratified item bootstrap of :mod:`polibench.metrics.bootstrap`) serves both,
so each replicate of the difference compares the two on the same resampled statements. This interval is
narrower than two independent intervals whenever the two sides share item difficulty, and it is the right one
for "did the position move".

The test of "no shift" is a sign-flip (paired permutation) test over items: under the null hypothesis the two
sides are exchangeable within each item, so each item's two sets of responses are swapped with probability
1/2 and the statistic recomputed; the p-value is ``(1 + #{|T*| >= |T|}) / (1 + permutations)``.

Estimates (each as side B minus side A):

- PCT ``economic`` / ``social`` of every PCT-scored instrument, from each item's answer (the 4-answer mapping
  of :func:`polibench.families.pct.metric.answer_from_scores` over the original-form responses) and the js.js
  weights; an item unanswered on one side contributes 0 there, as in the coordinates themselves;
- Faulborn's bias per dimension (economic, social, total) over every counted response.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Optional, Sequence

import numpy as np

from polibench.families.faulborn.metric import bias_from_totals, side_sums
from polibench.families.pct.metric import (
    ECON_DIVISOR,
    ECON_OFFSET,
    SOC_DIVISOR,
    SOC_OFFSET,
    answers_from_means,
    instrument_weights,
    js_round2,
    on_scale,
    stance_means,
)
from polibench.metrics.blocks import BIAS_DIMENSIONS, PCT_AXES
from polibench.metrics.bootstrap import percentile_intervals, resample_weights
from polibench.metrics.columns import ResponseTable, build_table
from polibench.records import Sample
from polibench.taskspec.schema import Instrument

DIGITS = 4
OFFSETS = {"economic": (ECON_OFFSET, ECON_DIVISOR), "social": (SOC_OFFSET, SOC_DIVISOR)}


@dataclass(frozen=True)
class PairedEstimate:
    """One estimate on both sides and their paired difference ``b - a``."""

    metric: str            # "pct" or "bias"
    scope: str             # the PCT instrument, or "all" for the bias over the task
    axis: str              # economic, social (PCT); economic, social, total (bias)
    a: Optional[float]
    b: Optional[float]
    shift: Optional[float]
    ci: Optional[list[float]]
    p_value: Optional[float]
    items: int

    def as_dict(self) -> dict:
        return asdict(self)


def item_keys(samples: Sequence[Sample]) -> set[tuple[str, str]]:
    return {(s.instrument, s.item_id) for s in samples}


def paired_tables(a: Sequence[Sample], b: Sequence[Sample]) -> tuple[ResponseTable, ResponseTable]:
    """Columnar views of ``a`` and ``b`` restricted to the items both hold, with the same item order."""
    common = item_keys(a) & item_keys(b)
    table_a = build_table([s for s in a if (s.instrument, s.item_id) in common])
    table_b = build_table([s for s in b if (s.instrument, s.item_id) in common])
    keys_a = [(i.instrument, i.item_id) for i in table_a.items]
    if keys_a != [(i.instrument, i.item_id) for i in table_b.items]:
        raise ValueError("the two sides hold different items")
    return table_a, table_b


def pct_contributions(table: ResponseTable, instrument: Instrument) -> np.ndarray:
    """``(table items, 2)``: each item's js.js (economic, social) weight for its answer, 0 when unanswered or
    not an item of ``instrument``."""
    index = {(i.instrument, i.item_id): n for n, i in enumerate(table.items)}
    weights = instrument_weights(instrument)
    original = table.forms.index("original") if "original" in table.forms else -1
    positions = [index.get((instrument.instrument, item.id)) for item in instrument.items]
    rows = np.isin(table.item, [p for p in positions if p is not None]) & (table.form == original)
    agree, disagree, counts = stance_means(table, rows, np.zeros(len(table), dtype=np.intp), 1)
    answers = answers_from_means(agree[:, 0], disagree[:, 0], counts[:, 0])
    out = np.zeros((len(table.items), 2))
    for position, (econ_w, soc_w) in zip(positions, weights):
        answer = None if position is None else answers[position]
        if answer is not None:
            out[position] = econ_w[answer], soc_w[answer]
    return out


def bias_sums(table: ResponseTable, dimension: str) -> np.ndarray:
    """``(items, 4)``: per item [sum v left, count left, sum v right, count right] over counted responses to
    items of ``dimension`` ("total": every dimension)."""
    sums = side_sums(table, np.zeros(len(table), dtype=np.intp), 1)[:, 0]  # (items, side, 2)
    keep = np.array([dimension == "total" or i.dimension == dimension for i in table.items], dtype=bool)
    return (sums * keep[:, None, None]).reshape(len(table.items), 4)


def _bias(totals: np.ndarray) -> np.ndarray:
    return bias_from_totals(totals.reshape(totals.shape[:-1] + (2, 2)))


def sign_flips(items: int, permutations: int, seed: int) -> np.ndarray:
    """``(permutations, items)`` booleans: True where an item's two sides are swapped."""
    return np.random.default_rng(seed).random((permutations, items)) < 0.5


def p_value(observed: float, permuted: np.ndarray) -> Optional[float]:
    permuted = permuted[np.isfinite(permuted)]
    if not np.isfinite(observed) or permuted.size == 0:
        return None
    extreme = np.abs(permuted) >= abs(observed) - 1e-12
    return round(float((1 + extreme.sum()) / (1 + permuted.size)), DIGITS)


def _rounded(value) -> Optional[float]:
    return None if value is None or not np.isfinite(value) else round(float(value), DIGITS)


def paired_estimates(a: Sequence[Sample], b: Sequence[Sample], instruments: dict[str, Instrument],
                     resamples: int = 10_000, permutations: int = 10_000, seed: int = 0) -> list[PairedEstimate]:
    """PCT and bias estimates of both sides with the paired shift ``b - a``, its interval and p-value."""
    table_a, table_b = paired_tables(a, b)
    n = len(table_a.items)
    weights = resample_weights(table_a.strata(), resamples, seed)
    flips = sign_flips(n, permutations, seed + 1).astype(float)
    out: list[PairedEstimate] = []
    present = dict.fromkeys(i.instrument for i in table_a.items)
    for name in present:
        instrument = instruments.get(name)
        if instrument is None or instrument.scoring != "pct":
            continue
        ca, cb = pct_contributions(table_a, instrument), pct_contributions(table_b, instrument)
        diff = cb - ca
        replicates = weights @ diff
        permuted = (1 - 2 * flips) @ diff  # each flipped item's difference changes sign
        items = sum(1 for i in table_a.items if i.instrument == name)
        for column, axis in enumerate(PCT_AXES):
            offset, divisor = OFFSETS[axis]
            pa = on_scale(js_round2(offset + ca[:, column].sum() / divisor))
            pb = on_scale(js_round2(offset + cb[:, column].sum() / divisor))
            (ci,) = percentile_intervals(replicates[:, column:column + 1] / divisor)
            out.append(PairedEstimate("pct", name, axis, pa, pb, round(pb - pa, 2),
                                      None if ci is None else [round(v, 2) for v in ci],
                                      p_value(diff[:, column].sum() / divisor, permuted[:, column] / divisor),
                                      items))
    for dimension in BIAS_DIMENSIONS:
        sa, sb = bias_sums(table_a, dimension), bias_sums(table_b, dimension)
        if sa[:, [1, 3]].sum() + sb[:, [1, 3]].sum() == 0:
            continue
        point_a, point_b = float(_bias(sa.sum(axis=0))), float(_bias(sb.sum(axis=0)))
        replicates = _bias(weights @ sb) - _bias(weights @ sa)
        swap = flips @ (sa - sb)  # moving a's sums into b for swapped items
        permuted = _bias(sb.sum(axis=0) + swap) - _bias(sa.sum(axis=0) - swap)
        (ci,) = percentile_intervals(replicates[:, None])
        items = int(sum(1 for i in table_a.items if dimension == "total" or i.dimension == dimension))
        out.append(PairedEstimate("bias", "all", dimension, _rounded(point_a), _rounded(point_b),
                                  _rounded(point_b - point_a),
                                  None if ci is None else [round(v, DIGITS) for v in ci],
                                  p_value(point_b - point_a, permuted), items))
    return out
