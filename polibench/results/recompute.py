"""Recompute a results document's numbers from samples, in memory: what ``score``, ``submit`` and the
leaderboard's ``verify`` all use (no run folder or temporary file needed)."""

from __future__ import annotations

from typing import Sequence

from polibench.metrics.bootstrap import DEFAULT_RESAMPLES
from polibench.metrics.compute import compute_task_results
from polibench.metrics.run_level import RunMetrics, compute_run_metrics
from polibench.records import Sample
from polibench.results.document import ResultsDocument, TaskResults, results_json

__all__ = ["recompute", "recompute_run_metrics", "results_json"]


def recompute(document: ResultsDocument, samples: Sequence[Sample]) -> dict[str, TaskResults]:
    """Every task's results from ``samples`` and the specs stored in ``document``. The bootstrap uses the run's
    seed and the stored number of resamples, so an untouched run is reproduced exactly."""
    instruments = document.task_instruments()
    recomputed = {}
    for name in document.configs:
        task = document.task_config(name)
        stored = document.results.get(name)
        resamples = stored.bootstrap.resamples if stored is not None else DEFAULT_RESAMPLES
        blocks = compute_task_results(task, instruments, [s for s in samples if s.task == name],
                                      seed=document.run.seed, resamples=resamples)
        recomputed[name] = TaskResults.from_blocks(blocks)
    return recomputed



def recompute_run_metrics(document: ResultsDocument, samples: Sequence[Sample],
                          results: dict[str, TaskResults]) -> RunMetrics:
    """The run-level metrics (comparisons between tasks, instrument controls) from ``samples``, the specs stored in
    ``document`` and the task ``results`` (stored or recomputed)."""
    tasks = {name: document.task_config(name) for name in document.configs}
    return compute_run_metrics(tasks, document.task_instruments(), samples, results, document.run.seed,
                               document.model)
