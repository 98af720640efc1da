"""The open metric registry: metrics register by name with their own metadata.

A task lists metric names under ``metrics:``; :func:`polibench.metrics.compute.results_from_table` computes
each through this registry and stores the block under the metric's ``key`` in ``results[task]``. The report and
the leaderboard take labels, ranges and directions from the registered :class:`Estimate` descriptions, never
from a list of their own. A metric also carries how it is shown (:class:`Metric`'s hooks: the report's lines,
figures and run summary, the ``compare`` columns), so the report, ``run`` and the leaderboard name no metric.
A new metric family plugs in with :func:`register_metric`, or from another package through the
``polibench.metrics`` entry-point group (:data:`METRICS`, a :class:`polibench.kit.registry.Registry`; see
docs/architecture.md, "Plugins");
nothing else needs editing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Sequence

import numpy as np
from pydantic import BaseModel

from polibench.kit.registry import Registry
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
    # the range as this block computed it, where it depends on the block (e.g. 1 … K for an expected answer on
    # K options); None: always ``low`` … ``high``
    bounds: Optional[Callable[[Any], tuple[float, float]]] = None
    what: str = ""              # what the number is, in a few words, for report.md's summary table

    @property
    def direction(self) -> str:
        """``"left − / right +, −10…10"``: the sign convention and range, for tables and axes."""
        return self.direction_of(None)

    def range_of(self, block: Any) -> tuple[float, float]:
        """``(low, high)`` of this estimate in ``block`` (the declared range unless ``bounds`` computes it)."""
        return self.bounds(block) if self.bounds is not None and block is not None else (self.low, self.high)

    def direction_of(self, block: Any) -> str:
        """:attr:`direction` with the range as ``block`` computed it (:meth:`range_of`)."""
        low, high = self.range_of(block)
        return f"{self.negative} − / {self.positive} +, {low:.3g}…{high:.3g}".replace("-", "−")


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
    """A metric: how it is computed and checked, and its headline estimates (label, range, sign meaning), from
    which the report, ``compare`` and the leaderboard take everything they show of it by default. How report.md,
    ``polibench run`` and ``polibench compare`` show more of it is its family's :class:`polibench.report.registry.
    Report`; what it adds to the leaderboard, its family's board (:mod:`polibench.leaderboard.boards`).

    ``item_bootstrap``: the intervals come from the task's shared item bootstrap, which the report describes
    once per task.
    """

    name: str                                   # as listed under ``metrics:`` in a task file
    key: str                                    # its block's key in ``results[task]``
    description: str
    block: type[BaseModel]                      # the block's pydantic model
    compute: Callable[[MetricInput], Optional[BaseModel]]  # None: nothing to report for this task
    estimates: tuple[Estimate, ...] = field(default_factory=tuple)
    # raises PolibenchError when the task's spec cannot feed this metric: (task, its instruments, variant ids)
    check_spec: Optional[Callable[[TaskConfig, dict[str, Instrument], list[str]], None]] = None
    item_bootstrap: bool = False


def _checked(name: str, found: Any) -> Metric:
    """What a metric's name resolves to: a :class:`Metric` (or a function making one) registered under its own
    name, whose results key no other metric uses."""
    metric = found() if callable(found) and not isinstance(found, Metric) else found
    if not isinstance(metric, Metric):
        raise TypeError(f"is not a polibench Metric (got {type(metric).__name__})")
    if metric.name != name:
        raise ValueError(f"is a metric named '{metric.name}', not '{name}'")
    taken = {m.key: m.name for other, m in METRICS.resolved() if other != name and isinstance(m, Metric)}
    if metric.key in taken or metric.key in RESERVED_KEYS:
        raise ValueError(f"metric '{metric.name}': results key '{metric.key}' is already used")
    return metric


# Every metric by name: the families' (polibench's own, polibench/families/, in their order, and installed packages'
# alike), then those added with register_metric, then the other installed plugins' (entry-point group
# ``polibench.metrics``). No module registers a metric on import.
METRICS: Registry[Metric] = Registry("metric", group="metrics", part="metrics", check=_checked, families_first=True)


# register_metric(metric, replace=False) -> metric: add ``metric``; its name and key must be new unless ``replace``
# (the families' metrics included); unregister_metric(name): forget one.
register_metric = METRICS.register_own
unregister_metric = METRICS.remove


def registered() -> dict[str, Metric]:
    """Every metric by name, in registration order (the built-in ones, then the plugins')."""
    return dict(METRICS.items())


def get_metric(name: str) -> Metric:
    return METRICS.get(name)


def metric_for_key(key: str) -> Optional[Metric]:
    """The metric whose block is stored under ``key`` in ``results[task]``, if any."""
    return next((m for _, m in METRICS.items() if m.key == key), None)


def check_metric_names(task: str, names: Sequence[str]) -> None:
    """One error listing every unknown metric name of ``task`` (run before any model call)."""
    METRICS.require(names, f"task '{task}'")


def check_metric_specs(task: TaskConfig, instruments: dict[str, Instrument], variant_ids: list[str]) -> None:
    """Each listed metric's own check of the task spec (e.g. liu_bias: keywords with groups, prompt triggers);
    run with :func:`check_metric_names`, before any model call."""
    check_metric_names(task.task, task.metrics)
    for name in task.metrics:
        check = METRICS.get(name).check_spec
        if check is not None:
            check(task, instruments, variant_ids)


# Keys of results[task] that are not metric blocks.
RESERVED_KEYS = ("bootstrap",)
