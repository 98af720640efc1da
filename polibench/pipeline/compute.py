"""Compute, the fifth stage: the numbers of a run, from its scored samples, by the metric registry.

:func:`compute_results` is the one place a run's numbers are computed: each task's metric blocks come from
:func:`polibench.metrics.compute.compute_task_results` (the task's ``metrics:`` plus coverage, bootstrapped with
the run seed); the run-level metrics (across tasks: channel comparisons, order reversal, instrument controls)
from :func:`polibench.metrics.run_level.compute_run_metrics`, so that results.json holds every number the
report and the leaderboard show. :func:`results_document` wraps the results with everything needed to recompute
them (task configs, instruments, variant sets, scorer settings, run settings) and what produced them.
"""

from __future__ import annotations

from typing import Any, Optional

from polibench.metrics.compute import compute_task_results
from polibench.metrics.run_level import compute_run_metrics
from polibench.pipeline.plan import RunOptions, RunPlan
from polibench.records import Sample
from polibench.results.document import ResultsDocument, RunSettings, TaskResults
from polibench.results.provenance import provenance


def compute_results(plan: RunPlan, samples: dict[str, list[Sample]], seed: Optional[int]) -> dict[str, TaskResults]:
    """Every task's results from its scored samples, in plan order."""
    return {t.task: TaskResults.from_blocks(compute_task_results(t, plan.task_instruments(t), samples[t.task],
                                                                 seed=seed)) for t in plan.tasks}


def results_document(plan: RunPlan, samples: dict[str, list[Sample]], model: dict, scorers: dict[str, dict],
                     options: RunOptions, origin: Optional[dict[str, Any]] = None) -> ResultsDocument:
    """The whole results.json: results per task plus everything needed to recompute them. ``origin``: where the
    responses came from when not from a backend (:class:`~polibench.results.document.RunSettings` fields
    ``imported`` or ``rescored_from``)."""
    results = compute_results(plan, samples, options.seed)
    return ResultsDocument(
        results=results,
        run_metrics=compute_run_metrics({t.task: t for t in plan.tasks}, plan.instruments,
                                        [s for t in plan.tasks for s in samples[t.task]], results, options.seed,
                                        model),
        **plan.specs(),
        scoring=scorers,
        model=model,
        run=RunSettings(seed=options.seed, limit=options.limit, issues=options.issues,
                        limit_order=None if options.limit is None else options.limit_order,
                        samples_per_prompt=options.samples_per_prompt,
                        command=options.command, **(origin or {})),
        n_samples={t.task: len(samples[t.task]) for t in plan.tasks},
        **provenance(),
    )
