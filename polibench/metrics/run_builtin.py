"""The built-in run-level metrics (:mod:`polibench.metrics.run_level`), registered by name:

- ``channels``, ``logprob``, ``order``: the comparisons the task files declare (``compare_with:``,
  :class:`~polibench.taskspec.schema.Pairing`) of that kind: forced choice vs open-ended, a text channel vs the
  log-probability channel, the options in reverse. A comparison is made when the run holds both tasks, as
  ``this − that`` on the first instrument they share (:func:`polibench.metrics.channels.compare_channels`).
- ``controls``: every task with PCT coordinates gets its instrument controls: the agree share (acquiescence) and,
  when it asks the opposite form, the original-vs-opposite inconsistency rate (:mod:`polibench.metrics.channels`).

Their report sections are in :mod:`polibench.report.channels`; the leaderboard board of ``channels`` is the channels
family's (:mod:`polibench.families.channels`).
"""

from __future__ import annotations

from typing import Mapping, Optional, Sequence

from polibench.kit.strict import Strict
from polibench.metrics.channels import (
    AgreeShare,
    ChannelComparison,
    FormConsistency,
    agree_share,
    compare_channels,
    form_consistency,
)
from polibench.metrics.registry import get_metric
from polibench.metrics.run_level import RunInput, RunMetric
from polibench.records import Sample
from polibench.taskspec.schema import Instrument, TaskConfig

REPORT = "polibench.report.channels"


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
    section=f"{REPORT}:channels_section", summary=f"{REPORT}:comparison_summary")

LOGPROB = RunMetric(
    name="logprob", block=list[ChannelComparison], compute=paired("logprob"), empty=list,
    description="a text channel vs the log-probability channel (compare_with kind logprob; shown in the "
                "channels section's table)",
    summary=f"{REPORT}:comparison_summary")

ORDER = RunMetric(
    name="order", block=list[ChannelComparison], compute=paired("order"), empty=list,
    description="the same options listed in reverse (compare_with kind order; shown with the instrument controls)",
    summary=f"{REPORT}:comparison_summary")

CONTROLS = RunMetric(
    name="controls", block=dict[str, TaskControls], compute=controls, empty=dict,
    description="each PCT task's instrument controls: agree share (acquiescence), original vs opposite form",
    section=f"{REPORT}:controls_section")

