"""Compare two answer channels on the same statements: forced choice vs open-ended text (or any two tasks).

A *channel* is how a model is made to answer: log-probabilities over the options, a forced choice written as
text, or an open-ended answer read by a stance scorer. The channels do not answer on one scale: a parsed option
can be any of the four PCT answers, while a stance the scorer keeps (confidence >= 0.9) is, after the 0.3-margin
rule, always "strongly agree" or "strongly disagree". Comparing the two channels' PCT coordinates would therefore
mix a difference of *side* with a difference of the *strength* each channel can express. :func:`compare_channels`
compares **sides** instead:

- each channel's own position (the js.js formula on its pooled answers,
  :func:`polibench.families.pct.metric.item_answers` on the original-form responses, all prompt variants pooled):
  the ``pct`` block's coordinates, each on its own answer scale (``coordinates``);
- each statement's **side** in each channel (:func:`statement_sides`): agree when most of its kept responses agree,
  disagree when most disagree, none on a tie or without a kept response; the strength of each response is ignored;
- the **side positions** (``side_coordinates``): the js.js coordinates with every statement that has a side in
  *both* channels answered at the strong end of its side (strongly agree / strongly disagree), the others left
  out (weight 0, as js.js treats an unanswered statement);
- the **side gap** ``b − a`` per axis: the difference of the two side positions, with a *paired*, two-level
  percentile interval (:func:`two_level_replicates`): each resample draws one set of statements (stratified by
  dimension and side, as the metrics' bootstrap), then, for every drawn copy of a statement, its responses in
  each channel with replacement (kept or not), and recomputes each copy's side in both channels. A statement's
  side thus carries its own uncertainty (a 6-to-4 majority flips in many resamples, a 10-to-0 one never, and a
  side resting on 1 kept response of 10 is often lost). A model that
  takes the same side on every statement in both channels has a side gap of exactly 0, whatever strength each
  channel expresses; its interval is [0, 0] only when no resample could move it (every side unanimous), and is
  then marked ``degenerate``; a side flip on a statement moves the gap by that statement's strong-answer weights;
- the statements that drop out, per channel, and why (``dropped``): refused (no response kept with a side, and at
  least half read as taking no side), no kept answer (no response kept with a side, most filtered as uncertain
  or empty), or tied;
- agreement among statements with a side in both channels: the share on the same side, with a paired interval
  from the same resamples;
  the share with the same one of the four answers only when both channels answer on the same scale
  (``same_scale``: the same kind of reading, e.g. forced choice in two option orders), else None;
- the answers and sides per statement, for a per-statement view.

The family's run-level metrics (:mod:`polibench.metrics.run_level`, registered by polibench/families/channels):
``channels``, ``logprob``, ``order``, the comparisons the task files declare (``compare_with:``,
:class:`~polibench.taskspec.schema.Pairing`) of that kind (forced choice vs open-ended, a text channel vs the
log-probability channel, the options in reverse), each made when the run holds both tasks, as ``this − that`` on
the first instrument they share (:func:`compare_channels`); and ``controls``: every task with PCT coordinates gets
its instrument controls, the agree share (acquiescence) and, when it asks the opposite form, the
original-vs-opposite inconsistency rate. Their report sections are in :mod:`polibench.families.channels.report`.
"""

from __future__ import annotations

from typing import Mapping, Optional, Sequence

import numpy as np

from polibench.families.pct.metric import (
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
from polibench.kit.strict import Strict
from polibench.metrics.bootstrap import DEFAULT_RESAMPLES, percentile_intervals, resample_weights
from polibench.metrics.columns import AGREE, DISAGREE, build_table, stratum_sort_name
from polibench.metrics.registry import get_metric
from polibench.metrics.run_level import RunInput, RunMetric
from polibench.records import Sample
from polibench.seeding import derive_seed
from polibench.taskspec.schema import Instrument, TaskConfig

AXES = ("economic", "social")


class Dropped(Strict):
    """The statements without a side in one channel, by reason (they drop out of the side gap)."""

    no_kept_answer: int = 0   # none kept with a side, most responses filtered as uncertain (under 0.9) or empty
    refused: int = 0          # none kept with a side, at least half read as taking no side (neutral, unrelated,
                              # or the scorer found no stance)
    tied: int = 0             # as many kept agree as disagree responses


class ChannelComparison(Strict):
    """Channel ``b`` against channel ``a`` on one instrument (gaps are ``b − a``; see the module doc)."""

    a: str
    b: str
    instrument: str
    coordinates: dict[str, dict[str, float]]           # task -> economic/social, each channel on its own answer scale
    side_coordinates: dict[str, dict[str, float]]      # task -> economic/social, sides at full strength, shared items
    side_gap: dict[str, float]                         # axis -> side position b - side position a
    side_gap_ci: dict[str, Optional[list[float]]]      # axis -> paired percentile interval
    side_gap_degenerate: dict[str, bool] = {}          # axis -> no resample moved the gap (zero-width, not certainty)
    items_both: int                                    # statements with a side in both channels
    dropped: dict[str, Dropped] = {}                   # task -> statements without a side there, by reason
    side_agreement: Optional[float] = None             # same side among items_both
    side_agreement_ci: Optional[list[float]] = None
    same_scale: bool = False                           # both channels answer on one scale: exact agreement means it
    exact_agreement: Optional[float] = None            # same one of the four answers (only when same_scale)
    exact_agreement_ci: Optional[list[float]] = None
    answers: dict[str, list[Optional[str]]]            # item id -> [answer in a, answer in b], each on its own scale
    sides: dict[str, list[Optional[str]]]              # item id -> [side in a, side in b]: agree, disagree or None
    resamples: int
    seed: int
    # 2: statements, then responses within statements (issue 37); 1: statements only (entries written before)
    levels: int = 1


def _original(samples: Sequence[Sample]) -> list[Sample]:
    return [s for s in samples if s.form == "original"]


def _strata(instrument: Instrument) -> np.ndarray:
    keys = [(stratum_sort_name(i.dimension), i.agree_side) for i in instrument.items]
    codes = {k: n for n, k in enumerate(sorted(set(keys)))}
    return np.array([codes[k] for k in keys], dtype=np.intp)


def _round(values: Optional[list[float]], digits: int = 2) -> Optional[list[float]]:
    return None if values is None else [round(float(v), digits) + 0.0 for v in values]


def response_counts(samples: Sequence[Sample], item_ids: Sequence[str]) -> np.ndarray:
    """``(items, 4)`` per item id: kept agree, kept disagree, responses read as taking no side (kept neutral or
    unrelated, or the scorer abstained: it found no stance, e.g. the embedded scorer's top reading was neutral or
    unrelated on a two-label task) and the other responses (filtered for low confidence, empty, unscored)."""
    table = build_table(samples)
    n_items = len(table.items)
    abstained = np.isin(table.reason, [n for n, name in enumerate(table.reasons) if name == "abstained"])
    no_side = (table.kept & (table.label != AGREE) & (table.label != DISAGREE)) | (~table.kept & abstained)
    found = np.stack([np.bincount(table.item[rows], minlength=n_items) for rows in (
        table.kept & (table.label == AGREE), table.kept & (table.label == DISAGREE), no_side,
        ~table.kept & ~abstained)], axis=1)
    index = {info.item_id: n for n, info in enumerate(table.items)}
    return np.array([found[index[i]] if i in index else np.zeros(4, dtype=int) for i in item_ids], dtype=int)


def statement_sides(samples: Sequence[Sample], item_ids: Sequence[str]) -> list[Optional[bool]]:
    """Per item id: True (agree) when most of its kept agree/disagree responses agree, False when most disagree,
    None on a tie or when none was kept. Each response counts once, whatever its strength."""
    return [_side(agree, disagree) for agree, disagree, _, _ in response_counts(samples, item_ids)]


def _side(agree: int, disagree: int) -> Optional[bool]:
    return None if agree == disagree else bool(agree > disagree)


def dropped(counts: np.ndarray) -> Dropped:
    """The statements without a side among ``counts`` (:func:`response_counts`), by reason: tied (as many kept
    agree as disagree responses), refused (none kept with a side, and at least half of its responses read as
    taking no side), or no kept answer (none kept with a side, most filtered as uncertain or empty)."""
    no_side = counts[:, 0] == counts[:, 1]
    answered = counts[:, 0] + counts[:, 1] > 0
    refusing = (counts[:, 2] > 0) & (2 * counts[:, 2] >= counts[:, 2] + counts[:, 3])
    return Dropped(no_kept_answer=int((no_side & ~answered & ~refusing).sum()),
                   refused=int((no_side & ~answered & refusing).sum()),
                   tied=int((no_side & answered).sum()))


def two_level_replicates(w: np.ndarray, counts_a: np.ndarray, counts_b: np.ndarray, values: np.ndarray,
                         seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per resample (the rows of the statement resamples ``w``, resamples x items): the summed side-gap
    contributions ``(resamples, 2)``, the statements with a side in both channels and those on the same side.

    Every drawn copy of a statement gets its own resample of all its responses in each channel (``counts``, from
    :func:`response_counts`: a multinomial draw of how many kept agree, kept disagree and other responses it holds,
    the same as drawing the responses with replacement). Its side is the majority of the kept agree and disagree
    responses of that resample, none on a tie or when none was drawn: a statement whose side rests on few kept
    responses may lose it. ``values[i, side_a, side_b]`` (side 0 disagree, 1 agree) is the copy's (economic,
    social) contribution when it has a side in both channels.
    """
    rng = np.random.default_rng(seed)
    draws = w.astype(np.int64)
    copies = int(draws.max()) if draws.size else 0
    gap = np.zeros((w.shape[0], 2))
    both = np.zeros(w.shape[0])
    same = np.zeros(w.shape[0])
    for copy in range(copies):
        drawn = draws > copy                                        # (resamples, items): this copy exists
        sides = []
        for counts in (counts_a, counts_b):
            n = counts.sum(axis=1)
            p_agree = np.divide(counts[:, 0], n, out=np.zeros(n.size), where=n > 0)
            rest = n - counts[:, 0]
            p_disagree = np.divide(counts[:, 1], rest, out=np.zeros(n.size), where=rest > 0)
            agree = rng.binomial(np.broadcast_to(n, drawn.shape), np.broadcast_to(p_agree, drawn.shape))
            disagree = rng.binomial(n[None, :] - agree, np.broadcast_to(p_disagree, drawn.shape))
            sides.append(np.sign(agree - disagree))                   # +1 agree, -1 disagree, 0 none
        has = drawn & (sides[0] != 0) & (sides[1] != 0)
        index_a, index_b = (sides[0] > 0).astype(np.intp), (sides[1] > 0).astype(np.intp)
        items = np.arange(values.shape[0])[None, :]
        contribution = values[items, index_a, index_b]               # (resamples, items, 2)
        gap += (contribution * has[..., None]).sum(axis=1)
        both += has.sum(axis=1)
        same += (has & (sides[0] == sides[1])).sum(axis=1)
    return gap, both, same


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
    counts_a, counts_b = response_counts(original_a, ids), response_counts(original_b, ids)
    sides_a = [_side(a, d) for a, d, _, _ in counts_a]
    sides_b = [_side(a, d) for a, d, _, _ in counts_b]
    shared = [x is not None and y is not None for x, y in zip(sides_a, sides_b)]
    strong_a, strong_b = _side_answers(sides_a, shared), _side_answers(sides_b, shared)
    boot_seed = derive_seed(seed, "channels", a, b)
    w = resample_weights(_strata(instrument), resamples, boot_seed)
    strong = np.array([[econ_w[STRONGLY_DISAGREE], econ_w[STRONGLY_AGREE]] for econ_w, _ in weights]), \
        np.array([[soc_w[STRONGLY_DISAGREE], soc_w[STRONGLY_AGREE]] for _, soc_w in weights])
    # values[i, side in a, side in b] = (economic, social) contribution b - a of a copy of statement i
    values = np.stack([axis[:, None, :] - axis[:, :, None] for axis in strong], axis=-1)
    gap_sums, both_r, same_r = two_level_replicates(w, counts_a, counts_b, values,
                                                    derive_seed(seed, "channels-responses", a, b))
    divisors = np.array([ECON_DIVISOR, SOC_DIVISOR])
    gaps = gap_sums / divisors
    same_side = np.array([ok and x == y for ok, x, y in zip(shared, sides_a, sides_b)], dtype=float)
    n_both = int(sum(shared))
    with np.errstate(invalid="ignore", divide="ignore"):
        (side_ci,) = percentile_intervals(same_r / both_r)
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
        side_gap_degenerate={axis: bool(np.ptp(gaps[:, n]) == 0) for n, axis in enumerate(AXES)},
        items_both=n_both,
        dropped={a: dropped(counts_a), b: dropped(counts_b)},
        side_agreement=round(float(same_side.sum() / n_both), 4) if n_both else None,
        side_agreement_ci=_round(side_ci, 4),
        same_scale=same_scale, exact_agreement=exact, exact_agreement_ci=_round(exact_ci, 4),
        answers={i: [None if x is None else ANSWER_NAMES[x], None if y is None else ANSWER_NAMES[y]]
                 for i, x, y in zip(ids, answers_a, answers_b)},
        sides={i: [side_name[x], side_name[y]] for i, x, y in zip(ids, sides_a, sides_b)},
        resamples=resamples, seed=boot_seed, levels=2)


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


# -- the run-level metrics (were polibench/families/channels/metric.py) --------------------------------------------

class TaskControls(Strict):
    """A PCT task's instrument controls."""

    instrument: str
    position: dict[str, Optional[float]]                 # the task's PCT coordinates, economic and social
    agree_share: AgreeShare
    form_consistency: Optional[FormConsistency] = None   # None: the task asks no opposite form


def same_scale(samples_a: Sequence[Sample], samples_b: Sequence[Sample]) -> bool:
    """Whether two tasks' answers are read the same way (the same ``scoring`` kinds, the option order aside): then
    their four answers are on one scale and the share of identical answers means what it says."""
    def kinds(samples: Sequence[Sample]) -> set[str]:
        return {"forced_choice" if s.scoring == "forced_choice_reversed" else s.scoring for s in samples}
    return bool(samples_a) and kinds(samples_a) == kinds(samples_b)


def task_seed(task: TaskConfig, run_seed: Optional[int]) -> int:
    return run_seed if run_seed is not None else task.generation.seed


def compare_tasks(a: TaskConfig, b: TaskConfig, instruments: Mapping[str, Instrument], samples: Sequence[Sample],
                  run_seed: Optional[int]) -> Optional[ChannelComparison]:
    """Task ``b`` against task ``a`` on the first instrument they share (None when they share none)."""
    shared = [n for n in a.instruments if n in b.instruments]
    if not shared:
        return None
    samples_a = [s for s in samples if s.task == a.task and s.instrument == shared[0]]
    samples_b = [s for s in samples if s.task == b.task and s.instrument == shared[0]]
    return compare_channels(a.task, samples_a, b.task, samples_b, instruments[shared[0]], task_seed(a, run_seed),
                            same_scale=same_scale(samples_a, samples_b))


def paired(kind: str):
    """The compute function of the comparisons of one ``compare_with`` kind, in run order of the declaring task."""
    def compute(data: RunInput) -> list[ChannelComparison]:
        found = []
        for task in data.tasks.values():
            for pairing in task.compare_with:
                if pairing.kind == kind and pairing.task in data.tasks:
                    comparison = compare_tasks(data.tasks[pairing.task], task, data.instruments, data.samples,
                                               data.run_seed)
                    if comparison is not None:
                        found.append(comparison)
        return found
    return compute


def controls(data: RunInput) -> dict[str, TaskControls]:
    """The controls of every task whose PCT block names an instrument of the run."""
    out = {}
    key = get_metric("pct_coordinates").key
    for name, task in data.tasks.items():
        block = data.results[name].block(key) if name in data.results else None
        instrument = getattr(block, "instrument", None)
        if not isinstance(instrument, str) or instrument not in data.instruments:
            continue
        own = [s for s in data.samples if s.task == name]
        seed = task_seed(task, data.run_seed)
        out[name] = TaskControls(
            instrument=instrument, position={axis: getattr(block, axis, None) for axis in ("economic", "social")},
            agree_share=agree_share([s for s in own if s.instrument == instrument], data.instruments[instrument],
                                    seed),
            form_consistency=form_consistency(own, data.instruments[instrument], seed))
    return out


CHANNELS = RunMetric(
    name="channels", block=list[ChannelComparison], compute=paired("channel"), empty=list,
    description="forced choice vs open-ended answers to the same statements (compare_with kind channel)",
    )

LOGPROB = RunMetric(
    name="logprob", block=list[ChannelComparison], compute=paired("logprob"), empty=list,
    description="a text channel vs the log-probability channel (compare_with kind logprob; shown in the "
                "channels section's table)")

ORDER = RunMetric(
    name="order", block=list[ChannelComparison], compute=paired("order"), empty=list,
    description="the same options listed in reverse (compare_with kind order; shown with the instrument controls)")

CONTROLS = RunMetric(
    name="controls", block=dict[str, TaskControls], compute=controls, empty=dict,
    description="each PCT task's instrument controls: agree share (acquiescence), original vs opposite form")

