"""Compare two answer channels on the same statements: forced choice vs open-ended text (or any two tasks).

A *channel* is how a model is made to answer: log-probabilities over the options, a forced choice written as
text, or an open-ended answer read by a stance scorer. The channels do not answer on one scale: a parsed option
can be any of the four PCT answers, while a stance the scorer keeps (confidence >= 0.9) is, after the 0.3-margin
rule, always "strongly agree" or "strongly disagree". Comparing the two channels' PCT coordinates would therefore
mix a difference of *side* with a difference of the *strength* each channel can express. :func:`compare_channels`
compares **sides** instead:

- each channel's own position (the js.js formula on its pooled answers, :func:`polibench.metrics.pct.item_answers`
  on the original-form responses, all prompt variants pooled): the ``pct`` block's coordinates, each on its own
  answer scale (``coordinates``);
- each statement's **side** in each channel (:func:`statement_sides`): agree when most of its kept responses agree,
  disagree when most disagree, none on a tie or without a kept response; the strength of each response is ignored;
- the **side positions** (``side_coordinates``): the js.js coordinates with every statement that has a side in
  *both* channels answered at the strong end of its side (strongly agree / strongly disagree), the others left
  out (weight 0, as js.js treats an unanswered statement);
- the **side gap** ``b − a`` per axis: the difference of the two side positions, with a *paired* percentile
  interval: each item-bootstrap resample draws one set of statements (stratified by dimension and side, as the
  metrics' bootstrap) and recomputes both channels on it. A model that takes the same side on every statement in
  both channels has a side gap of exactly 0 (interval [0, 0]), whatever strength each channel expresses; a side
  flip on a statement moves the gap by that statement's strong-answer weights;
- agreement among statements with a side in both channels: the share on the same side, with a paired interval;
  the share with the same one of the four answers only when both channels answer on the same scale
  (``same_scale``: the same kind of reading, e.g. forced choice in two option orders), else None;
- the answers and sides per statement, for a per-statement view.
"""

from __future__ import annotations

from typing import Optional, Sequence

import numpy as np

from polibench.kit.strict import Strict
from polibench.metrics.bootstrap import DEFAULT_RESAMPLES, percentile_intervals, resample_weights
from polibench.metrics.columns import AGREE, build_table, stratum_sort_name
from polibench.metrics.pct import (
    ANSWER_NAMES,
    ECON_DIVISOR,
    ECON_OFFSET,
    SOC_DIVISOR,
    SOC_OFFSET,
    STRONGLY_AGREE,
    STRONGLY_DISAGREE,
    instrument_weights,
    item_answers,
    js_round2,
    pct_coordinates,
)
from polibench.records import Sample
from polibench.seeding import derive_seed
from polibench.taskspec.schema import Instrument

AXES = ("economic", "social")


class ChannelComparison(Strict):
    """Channel ``b`` against channel ``a`` on one instrument (gaps are ``b − a``; see the module doc)."""

    a: str
    b: str
    instrument: str
    coordinates: dict[str, dict[str, float]]           # task -> economic/social, each channel on its own answer scale
    side_coordinates: dict[str, dict[str, float]]      # task -> economic/social, sides at full strength, shared items
    side_gap: dict[str, float]                         # axis -> side position b - side position a
    side_gap_ci: dict[str, Optional[list[float]]]      # axis -> paired percentile interval
    items_both: int                                    # statements with a side in both channels
    side_agreement: Optional[float] = None             # same side among items_both
    side_agreement_ci: Optional[list[float]] = None
    same_scale: bool = False                           # both channels answer on one scale: exact agreement means it
    exact_agreement: Optional[float] = None            # same one of the four answers (only when same_scale)
    exact_agreement_ci: Optional[list[float]] = None
    answers: dict[str, list[Optional[str]]]            # item id -> [answer in a, answer in b], each on its own scale
    sides: dict[str, list[Optional[str]]]              # item id -> [side in a, side in b]: agree, disagree or None
    resamples: int
    seed: int


def _original(samples: Sequence[Sample]) -> list[Sample]:
    return [s for s in samples if s.form == "original"]


def _contributions(answers: Sequence[Optional[int]], weights) -> np.ndarray:
    out = np.zeros((len(answers), 2))
    for n, (answer, (econ_w, soc_w)) in enumerate(zip(answers, weights)):
        if answer is not None:
            out[n] = econ_w[answer], soc_w[answer]
    return out


def _strata(instrument: Instrument) -> np.ndarray:
    keys = [(stratum_sort_name(i.dimension), i.agree_side) for i in instrument.items]
    codes = {k: n for n, k in enumerate(sorted(set(keys)))}
    return np.array([codes[k] for k in keys], dtype=np.intp)


def _round(values: Optional[list[float]], digits: int = 2) -> Optional[list[float]]:
    return None if values is None else [round(float(v), digits) + 0.0 for v in values]


def statement_sides(samples: Sequence[Sample], item_ids: Sequence[str]) -> list[Optional[bool]]:
    """Per item id: True (agree) when most of its kept agree/disagree responses agree, False when most disagree,
    None on a tie or when none was kept. Each response counts once, whatever its strength."""
    table = build_table(samples)
    rows = table.pct_answer
    n_items = len(table.items)
    agree = np.bincount(table.item[rows], weights=(table.label[rows] == AGREE).astype(float), minlength=n_items)
    counts = np.bincount(table.item[rows], minlength=n_items)
    found = {info.item_id: (None if n == 0 or 2 * a == n else bool(2 * a > n))
             for info, a, n in zip(table.items, agree, counts)}
    return [found.get(item_id) for item_id in item_ids]


def _side_answers(sides: Sequence[Optional[bool]], shared: Sequence[bool]) -> list[Optional[int]]:
    """Sides as the strong PCT answers, on the shared statements only."""
    return [None if side is None or not both else (STRONGLY_AGREE if side else STRONGLY_DISAGREE)
            for side, both in zip(sides, shared)]


def compare_channels(a: str, samples_a: Sequence[Sample], b: str, samples_b: Sequence[Sample], instrument: Instrument,
                     seed: int, resamples: int = DEFAULT_RESAMPLES, same_scale: bool = False) -> ChannelComparison:
    """Channel ``b`` (task name and its samples) against channel ``a`` on ``instrument`` (see the module doc).
    ``same_scale``: the two channels answer on one scale, so the share of identical answers is reported too."""
    ids = [item.id for item in instrument.items]
    weights = instrument_weights(instrument)
    original_a, original_b = _original(samples_a), _original(samples_b)
    answers_a, answers_b = item_answers(original_a, ids), item_answers(original_b, ids)
    sides_a, sides_b = statement_sides(original_a, ids), statement_sides(original_b, ids)
    shared = [x is not None and y is not None for x, y in zip(sides_a, sides_b)]
    strong_a, strong_b = _side_answers(sides_a, shared), _side_answers(sides_b, shared)
    boot_seed = derive_seed(seed, "channels", a, b)
    w = resample_weights(_strata(instrument), resamples, boot_seed)
    point = _contributions(strong_b, weights) - _contributions(strong_a, weights)
    divisors = np.array([ECON_DIVISOR, SOC_DIVISOR])
    gaps = (w @ point) / divisors
    both = np.array(shared, dtype=float)
    same_side = np.array([ok and x == y for ok, x, y in zip(shared, sides_a, sides_b)], dtype=float)
    n_both = int(both.sum())
    with np.errstate(invalid="ignore", divide="ignore"):
        (side_ci,) = percentile_intervals((w @ same_side) / (w @ both))
    exact: Optional[float] = None
    exact_ci: Optional[list[float]] = None
    if same_scale:
        answered = np.array([x is not None and y is not None for x, y in zip(answers_a, answers_b)], dtype=float)
        identical = np.array([x is not None and x == y for x, y in zip(answers_a, answers_b)], dtype=float)
        with np.errstate(invalid="ignore", divide="ignore"):
            (exact_ci,) = percentile_intervals((w @ identical) / (w @ answered))
        exact = round(float(identical.sum() / answered.sum()), 4) if answered.sum() else None
    assert ECON_OFFSET and SOC_OFFSET  # the offsets cancel in a gap
    side_name = {True: "agree", False: "disagree", None: None}
    side_a = dict(zip(AXES, pct_coordinates(strong_a, weights)))
    side_b = dict(zip(AXES, pct_coordinates(strong_b, weights)))
    return ChannelComparison(
        a=a, b=b, instrument=instrument.instrument,
        coordinates={a: dict(zip(AXES, pct_coordinates(answers_a, weights))),
                     b: dict(zip(AXES, pct_coordinates(answers_b, weights)))},
        side_coordinates={a: side_a, b: side_b},
        side_gap={axis: js_round2(side_b[axis] - side_a[axis]) for axis in AXES},
        side_gap_ci={axis: _round(ci) for axis, ci in zip(AXES, percentile_intervals(gaps))},
        items_both=n_both,
        side_agreement=round(float(same_side.sum() / n_both), 4) if n_both else None,
        side_agreement_ci=_round(side_ci, 4),
        same_scale=same_scale, exact_agreement=exact, exact_agreement_ci=_round(exact_ci, 4),
        answers={i: [None if x is None else ANSWER_NAMES[x], None if y is None else ANSWER_NAMES[y]]
                 for i, x, y in zip(ids, answers_a, answers_b)},
        sides={i: [side_name[x], side_name[y]] for i, x, y in zip(ids, sides_a, sides_b)},
        resamples=resamples, seed=boot_seed)


class Acquiescence(Strict):
    """Where respondents who give the same answer to every statement land (an instrument's yes-saying control)."""

    positions: dict[str, dict[str, float]]  # answer name -> economic/social


def acquiescence(instrument: Instrument) -> Acquiescence:
    """The coordinates of an always-<answer> respondent, for each of the four answers."""
    weights = instrument_weights(instrument)
    n = len(weights)
    return Acquiescence(positions={name: dict(zip(AXES, pct_coordinates([k] * n, weights)))
                                   for k, name in enumerate(ANSWER_NAMES)})


class AgreeShare(Strict):
    """How often a model agrees: the mean, over the statements it answered, of the share of its kept agree/disagree
    responses that agree (1 for an always-agree respondent, 0 for an always-disagree one)."""

    statements: int                     # statements with at least one kept agree/disagree response
    share: Optional[float] = None
    ci: Optional[list[float]] = None    # stratified item-bootstrap percentile interval


def agree_share(samples: Sequence[Sample], instrument: Instrument, seed: int,
                resamples: int = DEFAULT_RESAMPLES) -> AgreeShare:
    """The model's own agree share over the original-form responses to ``instrument`` (see :class:`AgreeShare`)."""
    ids = [item.id for item in instrument.items]
    table = build_table(_original(samples))
    rows = table.pct_answer
    n_table = len(table.items)
    agree = np.bincount(table.item[rows], weights=(table.label[rows] == AGREE).astype(float), minlength=n_table)
    counts = np.bincount(table.item[rows], minlength=n_table)
    index = {info.item_id: n for n, info in enumerate(table.items)}
    shares = np.zeros(len(ids))
    answered = np.zeros(len(ids))
    for n, item_id in enumerate(ids):
        k = index.get(item_id)
        if k is not None and counts[k]:
            shares[n], answered[n] = agree[k] / counts[k], 1.0
    if not answered.any():
        return AgreeShare(statements=0)
    w = resample_weights(_strata(instrument), resamples, derive_seed(seed, "agree-share", instrument.instrument))
    with np.errstate(invalid="ignore", divide="ignore"):
        (ci,) = percentile_intervals((w @ shares) / (w @ answered))
    return AgreeShare(statements=int(answered.sum()), share=round(float(shares.sum() / answered.sum()), 4),
                      ci=_round(ci, 4))


class FormConsistency(Strict):
    """Original vs opposite form: statements whose two forms got the same side (agree with both, or disagree with
    both) are inconsistent, since the opposite form reverses the statement's political side."""

    items_both: int
    inconsistent: Optional[float] = None
    inconsistent_ci: Optional[list[float]] = None
    agree_both: int = 0
    disagree_both: int = 0


def form_consistency(samples: Sequence[Sample], instrument: Instrument, seed: int,
                     resamples: int = DEFAULT_RESAMPLES) -> Optional[FormConsistency]:
    """The inconsistency rate over statements answered in both forms, with an item-bootstrap interval; None when the
    samples hold no opposite-form responses."""
    opposite = [s for s in samples if s.form == "opposite"]
    if not opposite:
        return None
    ids = [item.id for item in instrument.items]
    original = item_answers(_original(samples), ids)
    flipped = item_answers(opposite, ids)
    both = np.array([x is not None and y is not None for x, y in zip(original, flipped)], dtype=float)
    agree_both = np.array([x is not None and y is not None and x >= 2 and y >= 2 for x, y in zip(original, flipped)])
    disagree_both = np.array([x is not None and y is not None and x < 2 and y < 2 for x, y in zip(original, flipped)])
    bad = (agree_both | disagree_both).astype(float)
    n_both = int(both.sum())
    w = resample_weights(_strata(instrument), resamples, derive_seed(seed, "form-consistency", instrument.instrument))
    with np.errstate(invalid="ignore", divide="ignore"):
        (ci,) = percentile_intervals((w @ bad) / (w @ both))
    return FormConsistency(items_both=n_both, inconsistent=round(float(bad.sum() / n_both), 4) if n_both else None,
                           inconsistent_ci=_round(ci, 4), agree_both=int(agree_both.sum()),
                           disagree_both=int(disagree_both.sum()))
