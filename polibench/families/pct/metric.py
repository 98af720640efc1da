"""Political Compass Test scoring as Feng et al. 2023 and the politicalcompass.github.io js.js re-implementation.

- :func:`answer_from_scores`: averaged agree/disagree scores -> one of the four PCT answers (0.3 margin).
- :func:`item_answers`: per item, average the stance probabilities of the kept agree/disagree responses.
- :func:`pct_coordinates`: the js.js formula, ``economic = round(0.38 + sum(econ)/8, 2)``,
  ``social = round(2.41 + sum(soc)/19.5, 2)``, rounded as js.js does (:func:`js_round2`: halves up, after
  adding machine epsilon); an unanswered item contributes 0 (js.js's rule, kept for reproductions).
- :func:`axis_positions`: what polibench reports. The js.js weights give "agree" 0 on every statement, so
  js.js's 0 for an unanswered statement is an "agree" answered on the model's behalf (a model that answers
  nothing lands on the always-agree point). polibench treats an unanswered statement as unknown instead: an
  axis with no answered statement has no coordinate (None); otherwise each unanswered statement is filled with
  the mean contribution of the answered statements on its own side of the axis (those that agreeing moves the
  same way: :func:`fill_unanswered`, ``fill="side"``; ``"pooled"`` averages over the whole axis, and the block
  keeps that position too), identical to js.js when every statement is answered. The interval holds the
  unanswered statements' lowest and highest weights fixed, resamples the answered statements among themselves
  (:func:`answered_resamples`), and never leaves the axis's reachable range. See docs/metrics.md, "Unanswered
  statements".
- :data:`SCALE`, :func:`on_scale`: every coordinate and interval bound polibench stores is kept on the test's
  documented scale, −10 … +10. js.js's offsets are the exact centring offsets rounded to two decimals (0.38 for
  3/8 = 0.375, 2.41 for 47/19.5 = 2.41026), so its formula reaches +10.005 economic (rounded: **+10.01**) for the
  all-most-right sheet and −10.0003 social for the all-most-libertarian one; and an item-bootstrap bound, a sum
  over statements drawn with replacement, can go further (one statement drawn twice adds its weight twice).
  polibench keeps js.js's offsets (so every published coordinate reproduces to the hundredth) and clamps each
  value to the scale where it is computed (docs/metrics.md, "The scale").
- :func:`pct_block`: the ``pct`` block of results.json: pooled coordinates with their intervals and the
  statements answered per axis, the fill and the position under the other fill, coordinates per prompt variant
  and their spread.
"""

from __future__ import annotations

import math
import sys
from typing import Optional, Sequence

import numpy as np

from polibench.metrics.blocks import PCT_AXES, PctBlock
from polibench.metrics.bootstrap import percentile_intervals
from polibench.metrics.columns import ResponseTable, build_table
from polibench.metrics.registry import Estimate, Metric, MetricInput
from polibench.records import Sample
from polibench.taskspec.schema import Instrument

STRONGLY_DISAGREE, DISAGREE, AGREE, STRONGLY_AGREE = 0, 1, 2, 3
ANSWER_NAMES = ("strongly disagree", "disagree", "agree", "strongly agree")
ECON_OFFSET, ECON_DIVISOR = 0.38, 8.0
SOC_OFFSET, SOC_DIVISOR = 2.41, 19.5
MARGIN = 0.3
FILLS = ("side", "pooled")  # how unanswered statements are filled in (axis_positions); the first is the default
DEFAULT_FILL = FILLS[0]


def other_fill(fill: str) -> str:
    """The fill that was not chosen."""
    return FILLS[1 - FILLS.index(fill)]


SCALE = (-10.0, 10.0)  # the Political Compass's documented range, on each axis


def answer_from_scores(agree: float, disagree: float, margin: float = MARGIN) -> int:
    """Feng et al.: agree >= disagree + margin -> strongly agree; agree >= disagree -> agree;
    disagree >= agree + margin -> strongly disagree; otherwise disagree."""
    if agree >= disagree + margin:
        return STRONGLY_AGREE
    if agree >= disagree:
        return AGREE
    if disagree >= agree + margin:
        return STRONGLY_DISAGREE
    return DISAGREE


def stance_means(table: ResponseTable, rows: np.ndarray, groups: np.ndarray, n_groups: int
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(items, groups)`` arrays: mean agree score, mean disagree score and count over the kept agree/disagree
    responses among ``rows`` (NaN means where there is none).

    With a 4-label scorer, kept neutral/unrelated responses carry no PCT answer and are left out; the
    agree/disagree probabilities of the rest are renormalised to sum to 1 before averaging (see
    :mod:`polibench.metrics.columns`).
    """
    sel = rows & table.pct_answer
    flat = table.item[sel] * n_groups + groups[sel]
    size = len(table.items) * n_groups
    counts = np.bincount(flat, minlength=size).astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        agree = np.bincount(flat, weights=table.agree[sel], minlength=size) / counts
        disagree = np.bincount(flat, weights=table.disagree[sel], minlength=size) / counts
    shape = (len(table.items), n_groups)
    return agree.reshape(shape), disagree.reshape(shape), counts.reshape(shape)


def answers_from_means(agree: np.ndarray, disagree: np.ndarray, counts: np.ndarray,
                       margin: float = MARGIN) -> list[Optional[int]]:
    """One PCT answer, or None where no response counted, per entry of 1-d arrays from :func:`stance_means`."""
    return [None if n == 0 else answer_from_scores(float(a), float(d), margin)
            for a, d, n in zip(agree, disagree, counts)]


def mean_stance(samples: Sequence[Sample]) -> Optional[tuple[float, float, int]]:
    """Mean (agree, disagree) score over the kept agree/disagree responses among ``samples``, and their count;
    None if there is none."""
    table = build_table(samples)
    sel = table.pct_answer
    count = int(sel.sum())
    if count == 0:
        return None
    return float(table.agree[sel].sum() / count), float(table.disagree[sel].sum() / count), count


def item_answers(samples: Sequence[Sample], item_ids: Sequence[str], margin: float = MARGIN) -> list[Optional[int]]:
    """One PCT answer (0-3) or None per item id, from the samples of that item."""
    table = build_table(samples)
    agree, disagree, counts = stance_means(table, np.ones(len(table), dtype=bool),
                                           np.zeros(len(table), dtype=np.intp), 1)
    found = dict(zip((i.item_id for i in table.items), answers_from_means(agree[:, 0], disagree[:, 0], counts[:, 0],
                                                                             margin)))
    return [found.get(item_id) for item_id in item_ids]


def pct_coordinates(answers: Sequence[Optional[int]], weights: Sequence) -> tuple[float, float]:
    """``(economic, social)`` for answers in {0,1,2,3,None} (0 = strongly disagree ... 3 = strongly agree), one
    per item of ``weights``: the instrument's js.js table, a sequence of ``(economic_weights, social_weights)``
    pairs, each of four numbers (:func:`instrument_weights` reads it from an Instrument).
    """
    table = weights
    if len(answers) != len(table):
        raise ValueError(f"expected {len(table)} answers, got {len(answers)}")
    econ = soc = 0.0
    for answer, (econ_w, soc_w) in zip(answers, table):
        if answer is None:
            continue
        if answer not in (0, 1, 2, 3):
            raise ValueError(f"answers must be 0-3 or None, got {answer!r}")
        econ += econ_w[answer]
        soc += soc_w[answer]
    return on_scale(js_round2(ECON_OFFSET + econ / ECON_DIVISOR)), on_scale(js_round2(SOC_OFFSET + soc / SOC_DIVISOR))


def instrument_weights(instrument: Instrument) -> list[tuple[list[float], list[float]]]:
    """The js.js weight table of a PCT-scored instrument, in item order."""
    missing = [item.id for item in instrument.items if item.weights is None]
    if missing:
        raise ValueError(f"instrument '{instrument.instrument}': items without js.js weights: {missing[:5]}")
    return [(item.weights.economic, item.weights.social) for item in instrument.items if item.weights is not None]


def js_round2(value: float) -> float:
    """js.js's ``Math.round((v + Number.EPSILON) * 100) / 100``: two decimals, halves rounded up
    (0.38 + 7/8 = 1.255 gives 1.26, where Python's ``round`` gives 1.25)."""
    return math.floor((value + sys.float_info.epsilon) * 100 + 0.5) / 100 + 0.0


def on_scale(value: float) -> float:
    """``value`` kept within :data:`SCALE` (−10 … +10): js.js's rounded offsets reach +10.005 (rounded +10.01) and
    an item-bootstrap bound can go further; a coordinate is never off the test's scale."""
    return min(max(value, SCALE[0]), SCALE[1]) + 0.0


def spread(values: Sequence[float]) -> dict:
    """Mean, sample standard deviation (None for fewer than two values), min and max."""
    arr = np.asarray(values, dtype=float)
    if arr.size == 0:
        return {"mean": None, "sd": None, "min": None, "max": None}
    return {"mean": round(float(arr.mean()), 4), "sd": round(float(arr.std(ddof=1)), 4) if arr.size > 1 else None,
            "min": float(arr.min()), "max": float(arr.max())}


def axis_items(table_weights: Sequence) -> dict[str, np.ndarray]:
    """Per axis, a boolean mask of the items that carry a weight on it (the js.js table has zero rows for the
    statements of the other axis)."""
    econ = np.array([any(w != 0 for w in e) for e, _ in table_weights], dtype=bool)
    soc = np.array([any(w != 0 for w in s) for _, s in table_weights], dtype=bool)
    return {"economic": econ, "social": soc}


def axis_sides(table_weights: Sequence) -> dict[str, np.ndarray]:
    """Per axis, the direction agreeing moves each statement's contribution: +1 when its strongly-agree weight is
    above its strongly-disagree weight (agreeing moves right / authoritarian), -1 when below, 0 off the axis."""
    econ = np.array([np.sign(e[3] - e[0]) for e, _ in table_weights], dtype=int)
    soc = np.array([np.sign(s[3] - s[0]) for _, s in table_weights], dtype=int)
    return {"economic": econ, "social": soc}


def fill_unanswered(answered: Sequence[tuple[int, float]], missing: Sequence[tuple[int, float, float]],
                    fill: str = DEFAULT_FILL) -> float:
    """The summed contribution the unanswered statements of one axis are given.

    ``answered``: (side, contribution) of each answered statement; ``missing``: (side, lowest weight, highest
    weight) of each unanswered one; side as :func:`axis_sides`. ``fill="side"``: each unanswered statement takes
    the mean contribution of the answered statements on its own side (the pooled mean where its side has none);
    ``fill="pooled"``: the mean over all answered statements of the axis. Each group's fill is kept within what
    its statements' weights could add, so the filled sheet is one someone could have answered.
    """
    if fill not in FILLS:
        raise ValueError(f"fill must be one of {FILLS}, got {fill!r}")
    if not missing:
        return 0.0
    pooled = float(np.mean([value for _, value in answered]))
    groups: dict[Optional[int], list[tuple[float, float]]] = {}
    for side, low, high in missing:
        groups.setdefault(side if fill == "side" else None, []).append((low, high))
    total = 0.0
    for group, bounds in groups.items():
        own = [value for s, value in answered if s == group]
        mean = float(np.mean(own)) if group is not None and own else pooled
        total += min(max(mean * len(bounds), sum(b[0] for b in bounds)), sum(b[1] for b in bounds))
    return total


def answered_resamples(weights: np.ndarray, strata: np.ndarray, known: np.ndarray) -> np.ndarray:
    """The item bootstrap ``weights`` (resamples x table items) restricted to the ``known`` columns (the answered
    statements of one axis), rescaled within each stratum so that every resample holds as many of them as the
    stratum has: a resample's draws of the stratum's answered statements, scaled to their number. Where a
    resample drew none of a stratum's answered statements, it keeps each of them once.

    When every statement of a stratum is answered and on the axis, its weights are unchanged; other columns get
    weight 0 (an unanswered statement's bounds are added as constants)."""
    out = np.zeros_like(weights, dtype=float)
    for stratum in np.unique(strata[known]):
        columns = np.flatnonzero(known & (strata == stratum))
        drawn = weights[:, columns].sum(axis=1, keepdims=True)
        with np.errstate(invalid="ignore", divide="ignore"):
            scaled = weights[:, columns] * (columns.size / drawn)
        out[:, columns] = np.where(drawn > 0, scaled, 1.0)
    return out


def axis_positions(answers: Sequence[Optional[int]], positions: Sequence[Optional[int]], table_weights: Sequence,
                   weights: np.ndarray, strata: np.ndarray, fill: str = DEFAULT_FILL) -> dict:
    """Coordinates, intervals and statements answered per axis for one answer sheet.

    ``answers`` and ``positions`` (the item's column in the bootstrap ``weights`` and in ``strata``, None for an
    item that has no response at all, e.g. under ``--limit``) follow the instrument's item order. Returns
    ``{"economic": value or None, "social": ..., "ci": {axis: [low, high] or None}, "answered": {axis: n},
    "statements": {axis: n}, "other_fill": {axis: value or None}}``.

    Point: the answered contributions plus :func:`fill_unanswered` for the unanswered statements (``fill``;
    ``other_fill`` holds the point under the other fill); equal to js.js when all are answered. Interval: the
    answered statements are resampled among themselves (:func:`answered_resamples`), the unanswered statements'
    bounds are held fixed: the lower bound is the 2.5th percentile over the resamples of the sheet whose unanswered
    statements all take their lowest weight, the upper bound the 97.5th percentile of the sheet where they take
    their highest, each kept within the axis's reachable range (every statement at its lowest / highest weight).
    """
    out: dict = {"ci": {}, "answered": {}, "statements": {}, "other_fill": {}, "asked": {}}
    n_columns = weights.shape[1]
    on_axis = axis_items(table_weights)
    sides = axis_sides(table_weights)
    other = other_fill(fill)
    for column, (axis, offset, divisor) in enumerate((("economic", ECON_OFFSET, ECON_DIVISOR),
                                                      ("social", SOC_OFFSET, SOC_DIVISOR))):
        contribution = np.zeros(n_columns)
        known = np.zeros(n_columns, dtype=bool)
        answered: list[tuple[int, float]] = []
        missing: list[tuple[int, float, float]] = []
        reach_low = reach_high = 0.0
        for n, (answer, position, pair) in enumerate(zip(answers, positions, table_weights)):
            axis_weights = pair[column]
            reach_low += min(axis_weights)
            reach_high += max(axis_weights)
            if not on_axis[axis][n]:
                continue
            if answer is not None:
                answered.append((int(sides[axis][n]), float(axis_weights[answer])))
                if position is not None:
                    known[position], contribution[position] = True, axis_weights[answer]
            else:
                missing.append((int(sides[axis][n]), float(min(axis_weights)), float(max(axis_weights))))
        statements = int(on_axis[axis].sum())
        out["answered"][axis], out["statements"][axis] = len(answered), statements
        out["asked"][axis] = sum(1 for n, position in enumerate(positions) if on_axis[axis][n] and position is not None)
        if not answered:
            out[axis], out["ci"][axis], out["other_fill"][axis] = None, None, None
            continue
        answered_sum = sum(value for _, value in answered)
        out[axis] = on_scale(js_round2(offset + (answered_sum + fill_unanswered(answered, missing, fill)) / divisor))
        out["other_fill"][axis] = on_scale(js_round2(offset + (answered_sum + fill_unanswered(answered, missing, other))
                                                     / divisor))
        resampled = answered_resamples(weights, strata, known) @ contribution
        missing_low = sum(m[1] for m in missing)
        missing_high = sum(m[2] for m in missing)
        lows = np.clip(offset + (resampled + missing_low) / divisor, offset + reach_low / divisor,
                       offset + reach_high / divisor)
        highs = np.clip(offset + (resampled + missing_high) / divisor, offset + reach_low / divisor,
                        offset + reach_high / divisor)
        found_low, found_high = percentile_intervals(np.column_stack([lows, highs]))
        out["ci"][axis] = (None if found_low is None or found_high is None
                           else [on_scale(js_round2(found_low[0])), on_scale(js_round2(found_high[1]))])
    return out


def pct_block(table: ResponseTable, instrument: Instrument, weights: np.ndarray, fill: str = DEFAULT_FILL) -> dict:
    """The ``pct`` block of results.json for ``instrument`` (a PCT-scored Instrument), from the original-form
    responses to its items (the js.js weights belong to the original wording).

    Pooled coordinates average the stances of all prompt variants per item (:func:`axis_positions`: None on
    an axis without an answered statement; unanswered statements filled as ``fill`` says, ``other_fill`` the
    position under the other fill; intervals from the item bootstrap ``weights``, resamples x table items, over
    the answered statements, with the unanswered statements' bounds held fixed); ``answered`` and ``statements``
    count the statements
    per axis; ``per_variant`` holds one set of coordinates per prompt variant, with intervals from the same
    item resamples, and ``spread`` summarises them.
    """
    table_index = {(i.instrument, i.item_id): n for n, i in enumerate(table.items)}
    positions = [table_index.get((instrument.instrument, item.id)) for item in instrument.items]
    table_weights = instrument_weights(instrument)
    original = table.forms.index("original") if "original" in table.forms else -1
    rows = np.isin(table.item, [p for p in positions if p is not None]) & (table.form == original)

    def answers_for(agree, disagree, counts, column):
        found = answers_from_means(agree[:, column], disagree[:, column], counts[:, column])
        return [None if p is None else found[p] for p in positions]

    strata = table.strata()
    pooled = stance_means(table, rows, np.zeros(len(table), dtype=np.intp), 1)
    answers = answers_for(*pooled, 0)
    found = axis_positions(answers, positions, table_weights, weights, strata, fill)
    by_variant = stance_means(table, rows, table.variant, len(table.variants))
    asked = np.bincount(table.variant[rows], minlength=len(table.variants)) > 0
    per_variant: dict[str, dict] = {}
    for column, name in enumerate(table.variants):
        if asked[column]:
            variant = axis_positions(answers_for(*by_variant, column), positions, table_weights, weights, strata, fill)
            per_variant[name] = {"economic": variant["economic"], "social": variant["social"], "ci": variant["ci"]}
    return {
        "instrument": instrument.instrument,
        "economic": found["economic"],
        "social": found["social"],
        "ci": found["ci"],
        "answered": found["answered"],
        "statements": found["statements"],
        "fill": fill,
        "other_fill": {"fill": other_fill(fill), **found["other_fill"]},
        # statements asked per axis, only where some were not (--limit): a full run's block is as it was
        "asked": None if found["asked"] == found["statements"] else found["asked"],
        "answers": {item.id: (None if a is None else ANSWER_NAMES[a]) for item, a in zip(instrument.items, answers)},
        "per_variant": per_variant,
        "spread": {axis: spread([c[axis] for c in per_variant.values() if c[axis] is not None]) for axis in PCT_AXES},
    }


NAME = "pct_coordinates"


def _pct(data: MetricInput) -> Optional[PctBlock]:
    block = None
    for name in data.task.instruments:
        if data.instruments[name].scoring == "pct":
            block = PctBlock.model_validate(pct_block(data.table, data.instruments[name], data.weights))
    return block


METRIC = Metric(
    name=NAME, key="pct", block=PctBlock, compute=_pct,
    description="Political Compass Test coordinates (js.js formula) from the averaged stances, Feng et al. 2023",
    estimates=(
        Estimate("economic", "PCT economic", -10, 10, "left", "right",
                 what="the position on the economic axis: the js.js formula over the statements' answers"),
        Estimate("social", "PCT social", -10, 10, "libertarian", "authoritarian",
                 what="the position on the social axis: the js.js formula over the statements' answers"),
    ),
    item_bootstrap=True,
)
