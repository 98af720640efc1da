"""Recompute a results document's numbers from samples, in memory: what ``score``, ``submit`` and the
leaderboard's ``verify`` all use (no run folder or temporary file needed)."""

from __future__ import annotations

from typing import Sequence

from polibench.metrics.bootstrap import DEFAULT_RESAMPLES
from polibench.metrics.compute import compute_task_results
from polibench.records import Sample
from polibench.results.document import ResultsDocument, TaskResults, results_json

__all__ = ["recompute", "results_json"]


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

