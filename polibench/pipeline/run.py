"""One run, written once: plan -> preflight -> respond -> score -> compute -> write.

:func:`run_shard` is a run's share (``run --shard i/N``): plan -> preflight -> respond, then a shard folder
(:mod:`polibench.pipeline.shards`); ``polibench merge`` runs the shards through :func:`run_pipeline`.

:func:`run_pipeline` is what ``polibench run``, ``polibench import`` and ``polibench score RUN --scorer X`` all
call; they differ only in their response source (:mod:`polibench.pipeline.respond`). The source is closed as
soon as every response exists, and before the scorers are created, also when the preflight or generation
fails: a GPU engine never shares memory with a stance classifier or judge. Nothing is written before the last
stage, so a run that fails leaves no run folder behind.
"""

from __future__ import annotations

from pathlib import Path

from polibench.models.base import ModelBackend
from polibench.pipeline.compute import results_document
from polibench.pipeline.plan import RunOptions, RunPlan
from polibench.pipeline.preflight import run_preflight
from polibench.pipeline.respond import BackendResponses, ResponseSource
from polibench.pipeline.score import score_tasks
from polibench.pipeline.shards import shard_plan
from polibench.pipeline.write import write_run
from polibench.results.document import ResultsDocument
from polibench.results.provenance import provenance
from polibench.results.shard import ShardManifest, write_shard
from polibench.taskspec.loader import TaskRegistry

__all__ = ["RunOptions", "evaluate", "run_pipeline", "run_shard"]


def run_pipeline(plan: RunPlan, source: ResponseSource, output_dir: Path, options: RunOptions) -> ResultsDocument:
    """Run every stage and write the run folder; return the results document."""
    try:
        run_preflight(plan, source, output_dir, options)
        responses = source.respond(plan, options)
    finally:
        source.close()  # the one place a backend is closed: before any scorer exists
    scored, scorers = score_tasks(plan, responses.samples, options)
    document = results_document(plan, scored, responses.model, scorers, options, responses.origin)
    write_run(output_dir, scored, document, options.min_coverage)
    return document


def run_shard(plan: RunPlan, source: BackendResponses, output_dir: Path, options: RunOptions) -> ShardManifest:
    """Answer ``options.shard``'s share of the requests and write a shard folder (no scoring, no numbers)."""
    if options.shard is None:
        raise ValueError("run_shard needs options.shard")
    try:
        run_preflight(plan, source, output_dir, options)
        responses = source.respond(plan, options)
    finally:
        source.close()
    manifest = {"index": options.shard.index, "count": options.shard.count,
                "plan": shard_plan(plan, options, responses),
                "n_samples": {t: len(samples) for t, samples in responses.samples.items()},
                "command": options.command, **provenance()}
    return write_shard(output_dir, (s for t in plan.tasks for s in responses.samples[t.task]), manifest)


def evaluate(task_names: list[str], registry: TaskRegistry, backend: ModelBackend, output_dir: Path,
             options: RunOptions) -> ResultsDocument:
    """Run the named tasks on ``backend`` (wrap it in :class:`polibench.cache.CachingBackend` to reuse and
    persist responses) and write the run folder; the backend is closed once all responses exist."""
    return run_pipeline(RunPlan.from_registry(registry, task_names), BackendResponses(backend), output_dir, options)
