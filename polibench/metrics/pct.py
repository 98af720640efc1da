"""Political Compass Test scoring as Feng et al. 2023 and the politicalcompass.github.io js.js re-implementation.

- :func:`answer_from_scores`: averaged agree/disagree scores -> one of the four PCT answers (0.3 margin).
- :func:`item_answers`: per item, average the stance probabilities of the kept agree/disagree responses.
- :func:`pct_coordinates`: the js.js formula, ``economic = round(0.38 + sum(econ)/8, 2)``,
  ``social = round(2.41 + sum(soc)/19.5, 2)``, rounded as js.js does (:func:`js_round2`: halves up, after
  adding machine epsilon); an unanswered item contributes 0.
- :func:`pct_block`: the ``pct`` block of results.json: pooled coordinates with item-bootstrap intervals,
  coordinates per prompt variant and their spread.
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
    return js_round2(ECON_OFFSET + econ / ECON_DIVISOR), js_round2(SOC_OFFSET + soc / SOC_DIVISOR)


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


def spread(values: Sequence[float]) -> dict:
    """Mean, sample standard deviation (None for fewer than two values), min and max."""
    arr = np.asarray(values, dtype=float)
    if arr.size == 0:
        return {"mean": None, "sd": None, "min": None, "max": None}
    return {"mean": round(float(arr.mean()), 4), "sd": round(float(arr.std(ddof=1)), 4) if arr.size > 1 else None,
            "min": float(arr.min()), "max": float(arr.max())}


def pct_block(table: ResponseTable, instrument: Instrument, weights: np.ndarray) -> dict:
    """The ``pct`` block of results.json for ``instrument`` (a PCT-scored Instrument), from the original-form
    responses to its items (the js.js weights belong to the original wording).

    Pooled coordinates average the stances of all prompt variants per item; their intervals come from the
    item bootstrap ``weights`` (resamples x table items); ``per_variant`` holds one set of coordinates per
    prompt variant, with intervals from the same item resamples, and ``spread`` summarises them.
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
    economic, social = pct_coordinates(answers, table_weights)
    intervals = _coordinate_intervals(answers, positions, table_weights, weights)
    by_variant = stance_means(table, rows, table.variant, len(table.variants))
    asked = np.bincount(table.variant[rows], minlength=len(table.variants)) > 0
    per_variant: dict[str, dict] = {}
    for column, name in enumerate(table.variants):
        if asked[column]:
            variant_answers = answers_for(*by_variant, column)
            e, s = pct_coordinates(variant_answers, table_weights)
            per_variant[name] = {"economic": e + 0.0, "social": s + 0.0,
                                 "ci": _coordinate_intervals(variant_answers, positions, table_weights, weights)}
    return {
        "instrument": instrument.instrument,
        "economic": economic + 0.0,  # + 0.0: no "-0.0" in results.json
        "social": social + 0.0,
        "ci": intervals,
        "answers": {item.id: (None if a is None else ANSWER_NAMES[a]) for item, a in zip(instrument.items, answers)},
        "per_variant": per_variant,
        "spread": {axis: spread([c[axis] for c in per_variant.values()]) for axis in PCT_AXES},
    }


def _coordinate_intervals(answers, positions, table_weights, weights: np.ndarray) -> dict:
    """Percentile intervals of the coordinates over item resamples: each resample sums the contributions of the
    items it drew (an unanswered item contributes 0, as in the point estimate)."""
    contributions = np.zeros((weights.shape[1], 2))
    for answer, position, (econ_w, soc_w) in zip(answers, positions, table_weights):
        if answer is not None and position is not None:
            contributions[position] = econ_w[answer], soc_w[answer]
    sums = weights @ contributions
    coordinates = np.column_stack([ECON_OFFSET + sums[:, 0] / ECON_DIVISOR, SOC_OFFSET + sums[:, 1] / SOC_DIVISOR])
    return {axis: None if found is None else [js_round2(float(v)) for v in found]
            for axis, found in zip(PCT_AXES, percentile_intervals(coordinates))}
