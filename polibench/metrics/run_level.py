"""Run-level metrics: numbers over a whole run rather than one task (comparisons between two tasks, each task's
instrument controls), registered by name like the per-task metrics (:mod:`polibench.metrics.registry`).

A :class:`RunMetric` computes its block from the run's tasks, instruments, scored samples and task results
(:class:`RunInput`); :func:`compute_run_metrics` computes every registered one, with the task results, from the
same samples (by ``run``, ``import`` and every recomputation: ``score``, ``submit``, ``leaderboard verify``). The
blocks are stored in results.json under ``run_metrics``, one key per metric (:class:`RunMetrics`, typed by the
registry), checked by ``score --check``, and shown by the metric's own hooks: its report.md section, the lines
``polibench run`` prints, and its family's leaderboard board
(:func:`polibench.leaderboard.boards.register_run_board`). The built-in ones are defined in
:mod:`polibench.families.channels.metric` (and language_effect, answering) and registered by their families
(polibench/families/); another package adds one with :func:`register_run_metric` or through the
``polibench.run_metrics`` entry-point group (:data:`RUN_METRICS`, a :class:`polibench.kit.registry.Registry`;
docs/architecture.md, "How to write a run-level metric").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Callable, Mapping, Optional, Sequence

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError, model_validator

from polibench.kit.registry import Registry
from polibench.records import Sample
from polibench.taskspec.schema import Instrument, TaskConfig


@dataclass(frozen=True)
class RunInput:
    """What every run-level metric computes from."""

    tasks: Mapping[str, TaskConfig]           # by name, in run order
    instruments: Mapping[str, Instrument]
    samples: Sequence[Sample]                 # the scored samples of every task
    results: Mapping[str, Any]                # task -> its computed results (polibench.results.document.TaskResults)
    run_seed: Optional[int] = None            # the run's seed (None: each task's own)
    model: Mapping[str, Any] = field(default_factory=dict)   # results.json's ``model``: what the backend reported


@dataclass(frozen=True)
class RunMetric:
    """A run-level metric: how its block is computed and typed, and how it is shown.

    ``block`` is the block's type as pydantic reads it (a model, or e.g. ``list[Model]``, ``dict[str, Model]``);
    ``empty`` makes the block of a run where nothing applies, which is also what a results.json written before
    the metric existed reads as. How report.md and ``polibench run`` show it is its family's
    :class:`polibench.report.registry.RunReport`, its leaderboard board its family's too. Two optional functions
    say what a reader must see first, and take the block alone:

    - ``warnings``: ``(task, text)`` pairs (e.g. the model is not really answering): the run's output prints them,
      report.md opens with them;
    - ``flags``: ``(task, badge, text)`` triples: how the leaderboard marks the flagged tasks of an entry.
    """

    name: str                                  # its key in results.json's ``run_metrics``
    description: str
    block: Any
    compute: Callable[[RunInput], Any]
    empty: Callable[[], Any]
    warnings: Optional[Callable[[Any], list[tuple[str, str]]]] = None
    flags: Optional[Callable[[Any], list[tuple[str, str, str]]]] = None

    @cached_property
    def adapter(self) -> TypeAdapter:
        return TypeAdapter(self.block)

    def show(self, name: str, block: Any, *args, default: Any = None) -> Any:
        """Call ``warnings`` or ``flags`` on ``block`` (and ``args``); ``default`` when the metric has none."""
        found = getattr(self, name)
        return default if found is None else found(block, *args)


def _checked(name: str, found: Any) -> RunMetric:
    """What a run-level metric's name resolves to: a :class:`RunMetric` (or a function making one) of that name."""
    metric = found() if callable(found) and not isinstance(found, RunMetric) else found
    if not isinstance(metric, RunMetric):
        raise TypeError(f"is not a polibench RunMetric (got {type(metric).__name__})")
    if metric.name != name:
        raise ValueError(f"is a run-level metric named '{metric.name}', not '{name}'")
    return metric


# Every run-level metric by name, in registration order (the order of ``run_metrics`` and of the report): the
# families' (polibench's own, polibench/families/, in their order), then those added with register_run_metric, then
# the installed plugin packages' (entry-point group ``polibench.run_metrics``). No module registers on import.
RUN_METRICS: Registry[RunMetric] = Registry("run-level metric", group="run_metrics", part="run_metrics",
                                            check=_checked, families_first=True)


# register_run_metric(metric, replace=False) -> metric: add ``metric``; its name (its key in ``run_metrics``) must be
# new unless ``replace`` (the families' included); unregister_run_metric(name): forget one.
register_run_metric = RUN_METRICS.register_own
unregister_run_metric = RUN_METRICS.remove


def registered_run_metrics() -> dict[str, RunMetric]:
    """Every run-level metric, in registration order (the order of ``run_metrics`` and of the report)."""
    return dict(RUN_METRICS.items())


class RunMetrics(BaseModel):
    """``run_metrics`` of results.json: one block per registered run-level metric, under its name, typed by its
    registration. A metric missing from the stored document (a run made before it existed, or before polibench
    computed run-level metrics at all) reads as its ``empty`` block, so every earlier results.json keeps reading
    with the same numbers; a key no registered metric owns is an error."""

    model_config = ConfigDict(extra="allow")

    @model_validator(mode="before")
    @classmethod
    def _typed_blocks(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            raise ValueError(f"expected an object of run-level metric blocks, got {type(data).__name__}")
        metrics = registered_run_metrics()
        typed = {}
        for key, value in data.items():
            if key not in metrics:
                raise ValueError(f"'{key}' is not the name of any registered run-level metric "
                                 f"({', '.join(metrics)})")
            try:
                typed[key] = metrics[key].adapter.validate_python(value)
            except ValidationError as exc:  # name the block in the message: pydantic drops it for extras
                problems = "; ".join(f"{'.'.join(str(p) for p in (key, *e['loc']))}: {e['msg']}"
                                     for e in exc.errors()[:3])
                raise ValueError(problems) from None
        for name, metric in metrics.items():
            if name not in typed:
                typed[name] = metric.empty()
        return typed

    def block(self, name: str) -> Any:
        """The block of run-level metric ``name`` (None if no such metric is registered)."""
        return (self.__pydantic_extra__ or {}).get(name)

    def blocks(self) -> list[tuple[RunMetric, Any]]:
        """Each registered run-level metric with its block, in registration order."""
        return [(metric, self.block(name)) for name, metric in registered_run_metrics().items()]

    def warnings(self) -> list[tuple[str, str]]:
        """``(task, text)`` of every run-level metric's ``warnings`` hook, in registration order."""
        return [found for metric, block in self.blocks() for found in metric.show("warnings", block, default=[])]


def compute_run_metrics(tasks: Mapping[str, TaskConfig], instruments: Mapping[str, Instrument],
                        samples: Sequence[Sample], results: Mapping[str, Any],
                        run_seed: Optional[int] = None, model: Optional[Mapping[str, Any]] = None) -> RunMetrics:
    """Every registered run-level metric of a run's ``tasks`` (by name, in run order) from its scored ``samples``,
    each task's computed ``results`` and the ``model`` entry of results.json (what the backend reported)."""
    data = RunInput(tasks=tasks, instruments=instruments, samples=samples, results=results, run_seed=run_seed,
                    model=model or {})
    return RunMetrics.model_validate({name: metric.compute(data)
                                      for name, metric in registered_run_metrics().items()})

