"""Political Compass Test scoring as Feng et al. 2023 and the politicalcompass.github.io js.js re-implementation.

- :func:`answer_from_scores`: averaged agree/disagree scores -> one of the four PCT answers (0.3 margin).
- :func:`item_answers`: per item, average the stance probabilities of the kept agree/disagree responses.
- :func:`pct_coordinates`: the js.js formula, ``economic = round(0.38 + sum(econ)/8, 2)``,
  ``social = round(2.41 + sum(soc)/19.5, 2)``, rounded as js.js does (:func:`js_round2`: halves up, after
  adding machine epsilon); an unanswered item contributes 0 (js.js's rule, kept for reproductions).
- :func:`axis_positions`: what polibench reports. The js.js weights give "agree" 0 on every statement, so
  js.js's 0 for an unanswered statement is an "agree" answered on the model's behalf (a model that answers
  nothing lands on the always-agree point). polibench treats an unanswered statement as unknown instead: an
  axis with no answered statement has no coordinate (None); otherwise each unanswered statement of the axis
  gets the mean contribution of the answered ones (identical to js.js when every statement is answered), and
  the interval covers every answer the unanswered statements could have had (their lowest and highest
  weights, on top of the item bootstrap). See docs/metrics.md, "Unanswered statements".
- :data:`SCALE`, :func:`on_scale`: every coordinate and interval bound polibench stores is kept on the test's
  documented scale, −10 … +10. js.js's offsets are the exact centring offsets rounded to two decimals (0.38 for
  3/8 = 0.375, 2.41 for 47/19.5 = 2.41026), so its formula reaches +10.005 economic (rounded: **+10.01**) for the
  all-most-right sheet and −10.0003 social for the all-most-libertarian one; and an item-bootstrap bound, a sum
  over statements drawn with replacement, can go further (one statement drawn twice adds its weight twice).
  polibench keeps js.js's offsets (so every published coordinate reproduces to the hundredth) and clamps each
  value to the scale where it is computed (docs/metrics.md, "The scale").
- :func:`pct_block`: the ``pct`` block of results.json: pooled coordinates with their intervals and the
  statements answered per axis, coordinates per prompt variant and their spread.
"""

from __future__ import annotations

import math
import sys
from typing import Optional, Sequence

import numpy as np

from polibench.metrics.blocks import PCT_AXES
from polibench.metrics.bootstrap import percentile_intervals
from polibench.metrics.columns import ResponseTable, build_table
from polibench.records import Sample
from polibench.taskspec.schema import Instrument

STRONGLY_DISAGREE, DISAGREE, AGREE, STRONGLY_AGREE = 0, 1, 2, 3
ANSWER_NAMES = ("strongly disagree", "disagree", "agree", "strongly agree")
ECON_OFFSET, ECON_DIVISOR = 0.38, 8.0
SOC_OFFSET, SOC_DIVISOR = 2.41, 19.5
MARGIN = 0.3
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


def axis_positions(answers: Sequence[Optional[int]], positions: Sequence[Optional[int]], table_weights: Sequence,
                   weights: np.ndarray) -> dict:
    """Coordinates, intervals and statements answered per axis for one answer sheet.

    ``answers`` and ``positions`` (the item's column in the bootstrap ``weights``, None for an item that has no
    response at all, e.g. under ``--limit``) follow the instrument's item order. Returns ``{"economic": value
    or None, "social": ..., "ci": {axis: [low, high] or None}, "answered": {axis: n}, "statements": {axis: n}}``.

    Point: answered contributions, each unanswered statement of the axis filled with their mean (equal to
    js.js when all are answered), kept within what the unanswered statements' weights could add. Interval: the
    lower bound is the 2.5th percentile over item resamples of the sheet whose unanswered statements all take
    their lowest weight; the upper bound the 97.5th percentile of the sheet where they take their highest. An
    item without any response is not resampled (it has no responses to draw) and adds its bound as a constant.
    """
    out: dict = {"ci": {}, "answered": {}, "statements": {}, "asked": {}}
    n_columns = weights.shape[1]
    on_axis = axis_items(table_weights)
    for column, (axis, offset, divisor) in enumerate((("economic", ECON_OFFSET, ECON_DIVISOR),
                                                      ("social", SOC_OFFSET, SOC_DIVISOR))):
        low = np.zeros(n_columns)
        high = np.zeros(n_columns)
        constant_low = constant_high = answered_sum = missing_low = missing_high = 0.0
        answered = 0
        for n, (answer, position, pair) in enumerate(zip(answers, positions, table_weights)):
            if not on_axis[axis][n]:
                continue
            axis_weights = pair[column]
            if answer is not None:
                answered += 1
                answered_sum += axis_weights[answer]
                if position is not None:
                    low[position] = high[position] = axis_weights[answer]
                continue
            missing_low += min(axis_weights)
            missing_high += max(axis_weights)
            if position is not None:
                low[position], high[position] = min(axis_weights), max(axis_weights)
            else:
                constant_low += min(axis_weights)
                constant_high += max(axis_weights)
        statements = int(on_axis[axis].sum())
        out["answered"][axis], out["statements"][axis] = answered, statements
        out["asked"][axis] = sum(1 for n, position in enumerate(positions) if on_axis[axis][n] and position is not None)
        if answered == 0:
            out[axis], out["ci"][axis] = None, None
            continue
        # the mean fill, kept to what the unanswered statements could add (a sheet someone could have filled in)
        filled = answered_sum if answered == statements else \
            min(max(answered_sum * statements / answered, answered_sum + missing_low), answered_sum + missing_high)
        out[axis] = on_scale(js_round2(offset + filled / divisor))
        lows = offset + (weights @ low + constant_low) / divisor
        highs = offset + (weights @ high + constant_high) / divisor
        found_low, found_high = percentile_intervals(np.column_stack([lows, highs]))
        out["ci"][axis] = (None if found_low is None or found_high is None
                           else [on_scale(js_round2(found_low[0])), on_scale(js_round2(found_high[1]))])
    return out


def pct_block(table: ResponseTable, instrument: Instrument, weights: np.ndarray) -> dict:
    """The ``pct`` block of results.json for ``instrument`` (a PCT-scored Instrument), from the original-form
    responses to its items (the js.js weights belong to the original wording).

    Pooled coordinates average the stances of all prompt variants per item (:func:`axis_positions`: None on
    an axis without an answered statement; intervals from the item bootstrap ``weights``, resamples x table
    items, widened to cover the unanswered statements); ``answered`` and ``statements`` count the statements
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

    pooled = stance_means(table, rows, np.zeros(len(table), dtype=np.intp), 1)
    answers = answers_for(*pooled, 0)
    found = axis_positions(answers, positions, table_weights, weights)
    by_variant = stance_means(table, rows, table.variant, len(table.variants))
    asked = np.bincount(table.variant[rows], minlength=len(table.variants)) > 0
    per_variant: dict[str, dict] = {}
    for column, name in enumerate(table.variants):
        if asked[column]:
            variant = axis_positions(answers_for(*by_variant, column), positions, table_weights, weights)
            per_variant[name] = {"economic": variant["economic"], "social": variant["social"], "ci": variant["ci"]}
    return {
        "instrument": instrument.instrument,
        "economic": found["economic"],
        "social": found["social"],
        "ci": found["ci"],
        "answered": found["answered"],
        "statements": found["statements"],
        # statements asked per axis, only where some were not (--limit): a full run's block is as it was
        "asked": None if found["asked"] == found["statements"] else found["asked"],
        "answers": {item.id: (None if a is None else ANSWER_NAMES[a]) for item, a in zip(instrument.items, answers)},
        "per_variant": per_variant,
        "spread": {axis: spread([c[axis] for c in per_variant.values() if c[axis] is not None]) for axis in PCT_AXES},
    }
