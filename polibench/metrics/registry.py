"""The open metric registry: metrics register by name with their own metadata.

A task lists metric names under ``metrics:``; :func:`polibench.metrics.compute.results_from_table` computes
each through this registry and stores the block under the metric's ``key`` in ``results[task]``. The report and
the leaderboard take labels, ranges and directions from the registered :class:`Estimate` descriptions, never
from a list of their own. A new metric family plugs in with :func:`register_metric` (see docs/metrics.md,
"Adding a metric"); nothing else needs editing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence

import numpy as np
from pydantic import BaseModel

from polibench.errors import PolibenchError
from polibench.metrics.columns import ResponseTable
from polibench.taskspec.schema import Instrument, TaskConfig


@dataclass(frozen=True)
class Estimate:
    """One headline number of a metric's block: where it is, what it means, how to show it."""

    key: str                    # field of the block (its interval is ``block.ci.<key>``)
    label: str                  # "PCT economic"
    low: float                  # the range of possible values
    high: float
    negative: str               # what a negative value means ("left", "libertarian")
    positive: str               # what a positive value means ("right", "authoritarian")
    higher_is_better: Optional[bool] = None   # None: a position, not a score
    digits: int = 2

    @property
    def direction(self) -> str:
        """``"left − / right +, −10…10"``: the sign convention and range, for tables and axes."""
        return f"{self.negative} − / {self.positive} +, {self.low:g}…{self.high:g}".replace("-", "−")


@dataclass(frozen=True)
class MetricInput:
    """What every metric computes from: the task, its instruments, the columnar samples, bootstrap weights."""

    task: TaskConfig
    instruments: dict[str, Instrument]
    table: ResponseTable
    weights: np.ndarray         # (resamples, table items): the item bootstrap shared by every metric of a task
    seed: int = 0               # the task's bootstrap seed, for a metric that draws its own resamples


@dataclass(frozen=True)
class Metric:
    name: str                                   # as listed under ``metrics:`` in a task file
    key: str                                    # its block's key in ``results[task]``
    description: str
    block: type[BaseModel]                      # the block's pydantic model
    compute: Callable[[MetricInput], Optional[BaseModel]]  # None: nothing to report for this task
    estimates: tuple[Estimate, ...] = field(default_factory=tuple)
    # raises PolibenchError when the task's spec cannot feed this metric: (task, its instruments, variant ids)
    check_spec: Optional[Callable[[TaskConfig, dict[str, Instrument], list[str]], None]] = None


_METRICS: dict[str, Metric] = {}


def register_metric(metric: Metric, replace: bool = False) -> Metric:
    """Add ``metric``; its name and key must be new unless ``replace``."""
    taken = {m.key: m.name for m in _METRICS.values() if m.name != metric.name}
    if not replace and metric.name in _METRICS:
        raise ValueError(f"a metric named '{metric.name}' is already registered")
    if metric.key in taken or metric.key in RESERVED_KEYS:
        raise ValueError(f"metric '{metric.name}': results key '{metric.key}' is already used")
    _METRICS[metric.name] = metric
    return metric


def unregister_metric(name: str) -> None:
    _METRICS.pop(name, None)


def registered() -> dict[str, Metric]:
    return dict(_METRICS)


def get_metric(name: str) -> Metric:
    if name not in _METRICS:
        raise PolibenchError(f"unknown metric '{name}'; registered metrics: {', '.join(sorted(_METRICS))}")
    return _METRICS[name]


def metric_for_key(key: str) -> Optional[Metric]:
    """The metric whose block is stored under ``key`` in ``results[task]``, if any."""
    return next((m for m in _METRICS.values() if m.key == key), None)


def check_metric_names(task: str, names: Sequence[str]) -> None:
    """One error listing every unknown metric name of ``task`` (run before any model call)."""
    unknown = [n for n in names if n not in _METRICS]
    if unknown:
        raise PolibenchError(f"task '{task}': unknown metric(s) {', '.join(unknown)}; registered metrics: "
                             f"{', '.join(sorted(_METRICS))}")


def check_metric_specs(task: TaskConfig, instruments: dict[str, Instrument], variant_ids: list[str]) -> None:
    """Each listed metric's own check of the task spec (e.g. liu_bias: keywords with groups, prompt triggers);
    run with :func:`check_metric_names`, before any model call."""
    check_metric_names(task.task, task.metrics)
    for name in task.metrics:
        check = _METRICS[name].check_spec
        if check is not None:
            check(task, instruments, variant_ids)


# Keys of results[task] that are not metric blocks.
RESERVED_KEYS = ("bootstrap",)

# The built-in metrics register themselves on import.
from polibench.metrics import builtin, category_bias, generation_bias, logprob, refusal  # noqa: E402,F401,I001  (imported for their registrations)
