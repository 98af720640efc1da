"""The language effect: does a model's Political Compass position change with the language it is asked in?

A run-level metric (:mod:`polibench.metrics.run_level`), registered as ``language_effect``. Its tasks are those that
ask a translated instrument (``translation_of:``, e.g. ``pct-de`` translating ``pct``; tasks/languages/). Tasks that
translate the same instrument and answer through the same channel (forced choice, log-probability, open-ended: the
answer readers' :class:`~polibench.scoring.readers.Channel`) form one comparison (:class:`LanguageEffect`), with:

- per language, the task's position: the ``pct`` block's coordinates and 95% intervals, as the task's own section
  shows them, and the share of its responses that were read;
- per language, the **difference from English** (the reference: the task asking the English translation, when the
  run holds one), paired over statements: per axis, the js.js weight of each statement's answer in the language
  minus its weight in English, summed over the statements answered in both and divided by the axis divisor (equal
  to the difference of the two positions when every statement is answered in both). Its interval is a percentile
  interval over statement resamples (stratified by dimension and side, as every polibench interval): each resample
  draws one set of statements and recomputes every language on it, so the comparison is paired. Two intervals are
  given: the 95% interval of this one comparison, and the simultaneous one (Bonferroni over the group's
  comparisons: two axes per language) that ``shift`` reads: a language is flagged as shifted on an axis only when
  the simultaneous interval excludes 0. A difference whose intervals include 0 is reported as not distinguishable
  from English;
- the **spread across languages** per axis: the standard deviation of the languages' positions (and their range,
  largest minus smallest), with intervals from the same statement resamples (each language's position recomputed on
  the resampled statements, an unanswered statement taking the mean of the answered ones within what it could add,
  as the pct block's point; without unanswered statements, the positions are the pct coordinates). The spread is 0
  only when every language lands on the same point; noise alone makes it positive, so it describes, it does not
  test.

A comparison needs two languages; without English in the run there is no reference, and the differences are
None.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence

import numpy as np

from polibench.families.pct.metric import (
    ECON_DIVISOR,
    ECON_OFFSET,
    SOC_DIVISOR,
    SOC_OFFSET,
    axis_items,
    instrument_weights,
    item_answers,
)
from polibench.kit.strict import Strict
from polibench.metrics.bootstrap import DEFAULT_RESAMPLES, LEVEL, percentile_intervals, resample_weights
from polibench.metrics.columns import stratum_sort_name
from polibench.metrics.run_level import RunInput, RunMetric
from polibench.records import Sample
from polibench.scoring.option_lexicon import language_name
from polibench.scoring.readers import OPEN, reader_for
from polibench.seeding import derive_seed
from polibench.taskspec.schema import Instrument, TaskConfig

AXES = ("economic", "social")
REFERENCE = "en"
DIGITS = 2
SCALE = {"economic": (ECON_OFFSET, ECON_DIVISOR), "social": (SOC_OFFSET, SOC_DIVISOR)}


class LanguagePosition(Strict):
    """One language of a comparison: its position and its difference from the reference language."""

    language: str                                   # ISO 639-1
    name: str                                       # "German"
    task: str
    instrument: str
    position: dict[str, Optional[float]]            # axis -> the task's pct coordinate
    position_ci: dict[str, Optional[list[float]]]   # axis -> its 95% interval
    answered: dict[str, int]                        # axis -> statements answered
    kept_share: Optional[float] = None              # share of the task's responses that were read
    difference: dict[str, Optional[float]] = {}     # axis -> this − reference, over statements answered in both
    difference_ci: dict[str, Optional[list[float]]] = {}       # 95%, this comparison alone
    simultaneous_ci: dict[str, Optional[list[float]]] = {}     # Bonferroni over the group's comparisons
    statements_both: dict[str, int] = {}            # axis -> statements answered in this language and the reference
    shift: dict[str, Optional[bool]] = {}           # axis -> the simultaneous interval excludes 0 (None: no interval)


class Spread(Strict):
    """How far the languages' positions lie apart on one axis."""

    sd: Optional[float] = None
    sd_ci: Optional[list[float]] = None
    range: Optional[float] = None
    range_ci: Optional[list[float]] = None


class LanguageEffect(Strict):
    """The languages of one translated instrument answered through one channel."""

    base: str                           # the instrument the languages translate ("pct")
    channel: str                        # forced, logprob or open
    reference: Optional[str] = None     # "en" when the run asks the English translation; else no differences
    languages: list[LanguagePosition]
    spread: dict[str, Spread]
    comparisons: int                    # the family the simultaneous intervals cover (axes x languages compared)
    level: float = LEVEL
    simultaneous_level: Optional[float] = None
    resamples: int
    seed: int

    def shifted(self) -> list[tuple[LanguagePosition, str]]:
        """(language, axis) pairs flagged as shifted from the reference."""
        return [(lang, axis) for lang in self.languages for axis in AXES if lang.shift.get(axis)]


def task_channel(samples: Sequence[Sample]) -> str:
    """The channel of a task's answers: the one channel of all its answer formats, else open-ended."""
    channels = {(reader_for(s.scoring).channel or OPEN).name for s in samples}
    return channels.pop() if len(channels) == 1 else OPEN.name


def _round(values: Optional[list[float]], digits: int = DIGITS) -> Optional[list[float]]:
    return None if values is None else [round(float(v), digits) + 0.0 for v in values]


def _strata(instrument: Instrument) -> np.ndarray:
    keys = [(stratum_sort_name(i.dimension), i.agree_side) for i in instrument.items]
    codes = {k: n for n, k in enumerate(sorted(set(keys)))}
    return np.array([codes[k] for k in keys], dtype=np.intp)


def contributions(answers: Sequence[Optional[int]], instrument: Instrument) -> tuple[np.ndarray, np.ndarray]:
    """``(items, 2)`` js.js weights of each statement's answer (0 when unanswered) and ``(items,)`` answered."""
    weights = instrument_weights(instrument)
    out = np.zeros((len(answers), 2))
    for n, (answer, (econ, soc)) in enumerate(zip(answers, weights)):
        if answer is not None:
            out[n] = econ[answer], soc[answer]
    return out, np.array([a is not None for a in answers], dtype=float)


def _group_key(task: TaskConfig, instruments: dict[str, Instrument], samples: Sequence[Sample]
               ) -> Optional[tuple[str, str, str]]:
    """(base instrument, channel, the task's translated instrument) or None when the task asks no translation."""
    translated = [n for n in task.instruments if n in instruments and instruments[n].translation_of]
    if not translated or not samples:
        return None
    return instruments[translated[0]].translation_of or "", task_channel(samples), translated[0]


def _block_of(results: Mapping[str, Any], name: str, key: str) -> Any:
    found = results.get(name)
    return found.block(key) if found is not None else None


def language_effects(data: RunInput, resamples: int = DEFAULT_RESAMPLES) -> list[LanguageEffect]:
    """One :class:`LanguageEffect` per (translated instrument, channel) the run asks in two or more languages."""
    by_task: dict[str, list[Sample]] = {}
    for sample in data.samples:
        by_task.setdefault(sample.task, []).append(sample)
    groups: dict[tuple[str, str], list[tuple[TaskConfig, str]]] = {}
    for name, task in data.tasks.items():
        key = _group_key(task, dict(data.instruments), by_task.get(name, []))
        if key is not None:
            groups.setdefault(key[:2], []).append((task, key[2]))
    out = []
    for (base, channel), members in groups.items():
        languages = {task.language_code for task, _ in members}
        if len(languages) < 2 or len(languages) != len(members):  # one task per language, two languages at least
            continue
        out.append(_effect(base, channel, members, data, by_task, resamples))
    return out


def _effect(base: str, channel: str, members: list[tuple[TaskConfig, str]], data: RunInput,
            by_task: dict[str, list[Sample]], resamples: int) -> LanguageEffect:
    members = sorted(members, key=lambda m: (m[0].language_code != REFERENCE, m[0].language_code))
    instruments = [data.instruments[inst] for _, inst in members]
    first = instruments[0]
    ids = [item.id for item in first.items]
    run_seed = data.run_seed if data.run_seed is not None else members[0][0].generation.seed
    seed = derive_seed(run_seed, "language-effect", base, channel)
    w = resample_weights(_strata(first), resamples, seed)
    on_axis = axis_items(instrument_weights(first))
    sheets = []
    for (task, _), instrument in zip(members, instruments):
        original = [s for s in by_task.get(task.task, [])
                    if s.form == "original" and s.instrument == instrument.instrument]
        sheets.append(contributions(item_answers(original, ids), instrument))
    reference = 0 if members[0][0].language_code == REFERENCE else None
    compared = len(members) - 1 if reference is not None else 0
    comparisons = 2 * compared
    simultaneous = 1 - (1 - LEVEL) / comparisons if comparisons else None
    positions = []
    for (task, inst), (contrib, answered) in zip(members, sheets):
        pct = _block_of(data.results, task.task, "pct")
        coverage = _block_of(data.results, task.task, "coverage")
        ci = getattr(pct, "ci", None)
        position = LanguagePosition(
            language=task.language_code, name=language_name(task.language_code), task=task.task, instrument=inst,
            position={axis: getattr(pct, axis, None) for axis in AXES},
            position_ci={axis: _round(list(getattr(ci, axis))) if ci is not None and getattr(ci, axis, None)
                         is not None else None for axis in AXES},
            answered={axis: int(answered[on_axis[axis]].sum()) for axis in AXES},
            kept_share=getattr(coverage, "kept_share", None))
        if reference is not None and task.language_code != REFERENCE:
            position = position.model_copy(update=_difference(contrib, answered, *sheets[reference], on_axis, w,
                                                              simultaneous))
        positions.append(position)
    return LanguageEffect(base=base, channel=channel, reference=REFERENCE if reference is not None else None,
                          languages=positions, spread=_spread(sheets, on_axis, w, instrument_weights(first)),
                          comparisons=comparisons,
                          simultaneous_level=None if simultaneous is None else round(simultaneous, 6),
                          resamples=resamples, seed=seed)


def _difference(contrib: np.ndarray, answered: np.ndarray, ref_contrib: np.ndarray, ref_answered: np.ndarray,
                on_axis: dict[str, np.ndarray], w: np.ndarray, simultaneous: Optional[float]) -> dict:
    both = answered * ref_answered
    diff = (contrib - ref_contrib) * both[:, None]
    out: dict = {"difference": {}, "difference_ci": {}, "simultaneous_ci": {}, "statements_both": {}, "shift": {}}
    for column, axis in enumerate(AXES):
        _, divisor = SCALE[axis]
        n_both = int(both[on_axis[axis]].sum())
        out["statements_both"][axis] = n_both
        if n_both == 0:
            out["difference"][axis] = None
            out["difference_ci"][axis] = out["simultaneous_ci"][axis] = out["shift"][axis] = None
            continue
        replicates = (w @ diff[:, column]) / divisor
        (ci,) = percentile_intervals(replicates[:, None])
        (joint,) = percentile_intervals(replicates[:, None], level=simultaneous) if simultaneous else (None,)
        out["difference"][axis] = round(float(diff[:, column].sum() / divisor), DIGITS) + 0.0
        out["difference_ci"][axis] = _round(ci)
        out["simultaneous_ci"][axis] = _round(joint)
        out["shift"][axis] = None if joint is None else bool(joint[0] > 0 or joint[1] < 0)
    return out


def _filled_positions(w: np.ndarray, contrib: np.ndarray, answered: np.ndarray, mask: np.ndarray,
                      low: np.ndarray, high: np.ndarray, offset: float, divisor: float) -> np.ndarray:
    """One axis's position per row of statement weights ``w``: the answered statements' weights, each unanswered
    statement filled with their mean and the fill kept within what the unanswered ones could add (their lowest and
    highest weights), as the pct block's point (:func:`polibench.families.pct.metric.axis_positions`); NaN without an
    answered statement."""
    total = w @ (contrib * mask)
    unanswered = (1.0 - answered) * mask
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_fill = total * (w @ mask) / (w @ (answered * mask))
    filled = np.clip(mean_fill, total + w @ (low * unanswered), total + w @ (high * unanswered))
    return offset + filled / divisor


def _spread(sheets: list[tuple[np.ndarray, np.ndarray]], on_axis: dict[str, np.ndarray], w: np.ndarray,
            weights: list) -> dict[str, Spread]:
    """SD and range of the languages' positions per axis: the point from every statement once, the interval from
    the resampled statements, each language's position computed alike (:func:`_filled_positions`)."""
    out = {}
    ones = np.ones((1, w.shape[1]))
    for column, axis in enumerate(AXES):
        offset, divisor = SCALE[axis]
        mask = on_axis[axis].astype(float)
        low = np.array([min(pair[column]) for pair in weights], dtype=float)
        high = np.array([max(pair[column]) for pair in weights], dtype=float)
        points, replicated = [], []
        for contrib, answered in sheets:
            args = (contrib[:, column], answered, mask, low, high, offset, divisor)
            points.append(_filled_positions(ones, *args)[0])
            replicated.append(_filled_positions(w, *args))
        values = np.array(points, dtype=float)
        if not np.all(np.isfinite(values)):
            out[axis] = Spread()
            continue
        stacked = np.column_stack(replicated)  # (resamples, languages)
        with np.errstate(invalid="ignore"):
            sd = np.std(stacked, axis=1, ddof=1)
            spread_range = np.max(stacked, axis=1) - np.min(stacked, axis=1)
        sd_ci, range_ci = percentile_intervals(np.column_stack([sd, spread_range]))
        out[axis] = Spread(sd=round(float(np.std(values, ddof=1)), DIGITS) + 0.0, sd_ci=_round(sd_ci),
                           range=round(float(values.max() - values.min()), DIGITS) + 0.0, range_ci=_round(range_ci))
    return out


METRIC = RunMetric(
    name="language_effect", block=list[LanguageEffect], compute=language_effects, empty=list,
    description="the PCT asked in several languages (translated instruments, tasks/languages/): each language's "
                "position, its difference from English paired over statements, the spread across languages")
