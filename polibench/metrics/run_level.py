"""Run-level metrics: numbers over two tasks of a run, and each PCT task's instrument controls. They are computed
with the task results, from the same samples (by ``run``, ``import`` and every recomputation: ``score``,
``submit``, ``leaderboard verify``), stored in results.json under ``run_metrics`` and checked by
``score --check``; report.md and the leaderboard read them from there.

Which tasks are compared is declared in the task files (``compare_with:``, :class:`~polibench.taskspec.schema.
Pairing`): a comparison is made when the run holds both tasks, as ``this − that`` on the first instrument they
share (:func:`polibench.metrics.channels.compare_channels`): ``channel`` pairs (forced choice vs open-ended),
``logprob`` pairs (a text channel vs the log-probability channel) and ``order`` pairs (options in reverse).
Every task with PCT coordinates gets its controls: the agree share (acquiescence) and, when it asks the
opposite form, the original-vs-opposite inconsistency rate (:mod:`polibench.metrics.channels`).
"""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence

from pydantic import BaseModel, ConfigDict

from polibench.metrics.channels import (
    AgreeShare,
    ChannelComparison,
    FormConsistency,
    agree_share,
    compare_channels,
    form_consistency,
)
from polibench.metrics.registry import get_metric
from polibench.records import Sample
from polibench.taskspec.schema import Instrument, TaskConfig


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TaskControls(Strict):
    """A PCT task's instrument controls."""

    instrument: str
    position: dict[str, Optional[float]]                 # the task's PCT coordinates, economic and social
    agree_share: AgreeShare
    form_consistency: Optional[FormConsistency] = None   # None: the task asks no opposite form


class RunMetrics(Strict):
    """``run_metrics`` of results.json (empty in runs made before polibench computed them there)."""

    channels: list[ChannelComparison] = []     # compare_with kind "channel"
    logprob: list[ChannelComparison] = []      # kind "logprob"
    order: list[ChannelComparison] = []        # kind "order"
    controls: dict[str, TaskControls] = {}     # task -> its controls


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


def compute_run_metrics(tasks: Mapping[str, TaskConfig], instruments: Mapping[str, Instrument],
                        samples: Sequence[Sample], results: Mapping[str, Any],
                        run_seed: Optional[int] = None) -> RunMetrics:
    """The run-level metrics of a run's ``tasks`` (by name, in run order) from its scored ``samples``; ``results``:
    each task's computed results (their PCT block names the instrument a task's controls are about)."""
    found: dict[str, list[ChannelComparison]] = {"channel": [], "logprob": [], "order": []}
    for task in tasks.values():
        for pairing in task.compare_with:
            if pairing.task in tasks:
                comparison = compare_tasks(tasks[pairing.task], task, instruments, samples, run_seed)
                if comparison is not None:
                    found[pairing.kind].append(comparison)
    controls = {}
    key = get_metric("pct_coordinates").key
    for name, task in tasks.items():
        block = results[name].block(key) if name in results else None
        instrument = getattr(block, "instrument", None)
        if not isinstance(instrument, str) or instrument not in instruments:
            continue
        own = [s for s in samples if s.task == name]
        seed = task_seed(task, run_seed)
        controls[name] = TaskControls(
            instrument=instrument, position={axis: getattr(block, axis, None) for axis in ("economic", "social")},
            agree_share=agree_share([s for s in own if s.instrument == instrument], instruments[instrument], seed),
            form_consistency=form_consistency(own, instruments[instrument], seed))
    return RunMetrics(channels=found["channel"], logprob=found["logprob"], order=found["order"], controls=controls)
