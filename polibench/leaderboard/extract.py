"""The ONE place that turns a run's results document into the leaderboard's summaries.

Everything else in :mod:`polibench.leaderboard` sees the :class:`~polibench.leaderboard.schema.TaskResult`
summaries made here, from the typed :class:`~polibench.results.document.ResultsDocument` (older results.json
layouts are migrated when read, by :func:`polibench.results.migrate.migrate`). Which numbers are summarised
comes from the metric registry: its estimates, and what each metric's board keeps (``details``); which run-level
blocks an entry keeps, from the run-level registry (those of the metrics that have a board).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Optional

from polibench.leaderboard.board import value_of
from polibench.leaderboard.boards import board_of, run_board_of
from polibench.leaderboard.schema import CoverageSummary, ImportedFrom, Metric, TaskResult
from polibench.metrics.blocks import EstimateBlock
from polibench.metrics.run_level import RunMetrics
from polibench.records import FIRST_DIMENSION_NAMES
from polibench.report.registry import ShowContext
from polibench.results.document import ResultsDocument, TaskResults
from polibench.taskspec.schema import Instrument, TaskConfig


def metric(block: Optional[EstimateBlock], key: str) -> Optional[Metric]:
    """Estimate ``key`` of ``block`` with its interval (None when the block has no such estimate)."""
    return value_of(block, key)


def run_blocks(run_metrics: RunMetrics) -> dict[str, Any]:
    """The run-level blocks an entry keeps: each metric's that has a board, unless its block is empty."""
    return {metric.name: block for metric, block in run_metrics.blocks()
            if run_board_of(metric.name) is not None and block != metric.empty()}


def estimates(results: TaskResults) -> dict[str, dict[str, Metric]]:
    """Every headline estimate of every metric block of the task, ``{metric name: {estimate key: Metric}}``, as
    the metric registry declares them (an estimate the block has no field for is left out)."""
    out: dict[str, dict[str, Metric]] = {}
    for registered, block in results.metrics():
        found = {e.key: m for e in registered.estimates
                 if isinstance(block, EstimateBlock) and (m := metric(block, e.key)) is not None}
        if found:
            out[registered.name] = found
    return out


def details(context: ShowContext) -> dict[str, dict]:
    """What each metric of the task keeps for the site beside its estimates (its board's ``details``),
    ``{metric name: {...}}``; a metric with nothing to keep is left out."""
    out: dict[str, dict] = {}
    for registered, block in context.results.metrics():
        board = board_of(registered.name)
        if board is not None and board.details is not None and (found := board.details(block, context)):
            out[registered.name] = found
    return out


def _coverage(results: TaskResults) -> CoverageSummary:
    """The coverage every task's results carry, summarised."""
    block = results.coverage
    return CoverageSummary(items=block.items, items_answered=block.items_answered, responses=block.responses,
                           responses_kept=block.responses_kept, kept_share=block.kept_share or 0.0)


def spec_sha256(config: dict, instruments: dict[str, dict], notes: bool = True) -> str:
    """Hash of a task's config and the instruments it reads, normalised through the task schema.

    The hash is taken over the spec in its first spelling, so that renames change no hash: the task's variant
    set under its old key ``variants`` (``by_alias``) and renamed dimensions under their first names.
    The pairings with other tasks (``compare_with``) are always left out: they say what is compared, not what is
    run. ``notes=False`` leaves out what only documents the spec (descriptions, provenance, items' label notes):
    rewording them changes nothing that is run; and the task's default stance scorer, since the scorer a run
    used is recorded beside it (and ``--scorer`` may override the default).
    """
    task = TaskConfig.model_validate(config)
    task_exclude: dict = {} if notes else {"description": True, "provenance": True}
    if not notes:  # the stance scorer that ran is recorded per run (document.scoring, the entry's scorer): the
        # task's default scorer is what `--scorer` overrides, not part of what a run must share with the built-in
        task_exclude["scoring"] = {"scorer", "scorer_args"}
    instrument_exclude: dict = {} if notes else {**task_exclude, "items": {"__all__": {"label_note"}}}
    task_exclude["compare_with"] = True  # which tasks it is compared with is analysis, not what was run
    payload = {"config": task.model_dump(mode="json", by_alias=True, exclude=task_exclude),
               "instruments": {n: _first_spelling(Instrument.model_validate(instruments[n]).model_dump(
                                   mode="json", exclude_none=True, exclude=instrument_exclude or None))
                               for n in task.instruments}}
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def _first_spelling(instrument: dict) -> dict:
    items = [{**item, "dimension": FIRST_DIMENSION_NAMES.get(item.get("dimension"), item.get("dimension"))}
             for item in instrument.get("items", [])]
    return {**instrument, "items": items}


def task_result(name: str, document: ResultsDocument, results: TaskResults) -> TaskResult:
    """The leaderboard summary of ``results`` (stored or recomputed) of task ``name`` of the run ``document``."""
    config = document.task_config(name)
    scoring = document.scoring.get(name, {})
    seed = document.run.seed if document.run.seed is not None else config.generation.seed
    return TaskResult(
        name=name, version=document.versions.get(name, config.version),
        instruments=config.instruments, variant_set=config.variant_set, forms=list(config.forms),
        seed=seed, samples_per_prompt=document.run.samples_per_prompt or config.generation.samples,
        scorer=scoring.get("scorer"), threshold=scoring.get("threshold"),
        scorer_fingerprint=scoring.get("fingerprint"),
        spec_sha256=spec_sha256(document.configs[name], document.instruments),
        estimates=estimates(results), coverage=_coverage(results),
        details=details(ShowContext(task=name, results=results, scoring=scoring)),
    )


def task_results(document: ResultsDocument, results: dict[str, TaskResults]) -> list[TaskResult]:
    """Summaries of every task, from the run's document and its results per task (stored or recomputed)."""
    return [task_result(name, document, results[name]) for name in document.configs]


def model_identity(document: ResultsDocument) -> tuple[Optional[str], str, Optional[str], dict]:
    """(model as the backend named it, backend, revision, backend args) from the run document."""
    model = document.model
    args = dict(model.get("model_args") or {})
    revision = args.get("revision") or model.get("revision") or model.get("gguf_sha256")
    return model.get("model"), str(model.get("backend", "unknown")), revision, args



def imported_from(document: ResultsDocument) -> Optional[ImportedFrom]:
    """The ``imported`` record of a run made by ``polibench import`` (None for a run made by ``polibench run``)."""
    found = document.run.imported
    if not found:
        return None
    return ImportedFrom(file=found["file"], sha256=found["sha256"], rows=found["rows"],
                        citation=found.get("citation"), licence=found.get("licence"))


__all__ = ["imported_from", "model_identity", "spec_sha256", "task_results"]
