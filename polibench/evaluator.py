"""Run tasks end to end: build samples -> generate -> score -> compute metrics -> write the run folder.

Each stage is a function over ``Sample`` records (see :mod:`polibench.records`); this module only wires
them together and writes ``samples.jsonl``, ``results.json`` and ``report.md`` into the output folder.
The responses of every task are generated first and the model backend is closed before the scorers that
score are created, so a GPU engine never shares memory with a stance classifier or judge. Before any of
that, the preflight (:mod:`polibench.preflight`) builds the scorers only to check them (they load no
weights), and checks the output folder and the backend, so a run that cannot finish fails before its first
model call.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from polibench.metrics.compute import compute_task_results
from polibench.metrics.registry import check_metric_specs
from polibench.metrics.run_level import compute_run_metrics
from polibench.models.base import ModelBackend
from polibench.models.choice_stage import check_choice_support
from polibench.models.stage import generate_samples
from polibench.preflight import ScorerSpec, run_preflight
from polibench.records import Sample
from polibench.report.markdown import write_report
from polibench.request_building import build_samples
from polibench.results.document import ResultsDocument, RunSettings, TaskResults
from polibench.results.files import SampleSink, write_results
from polibench.results.provenance import provenance
from polibench.scoring.base import StanceScorer
from polibench.scoring.registry import create_scorer, judges_ideology
from polibench.scoring.stage import score_samples
from polibench.taskspec.loader import TaskRegistry
from polibench.taskspec.schema import TaskConfig


@dataclass
class RunOptions:
    seed: Optional[int] = None
    limit: Optional[int] = None
    samples_per_prompt: Optional[int] = None
    scorer: Optional[str] = None
    scorer_args: dict = field(default_factory=dict)
    threshold: Optional[float] = None
    # the stance scorer replacing each task's own stance scorer when none was chosen (the embedded model's
    # offline runs); ideology judges are kept, they are offline already
    offline_default: Optional[str] = None
    show_progress: bool = True
    command: list[str] = field(default_factory=list)
    # report.md: the share of an axis's PCT statements a position needs to be ranked (polibench.metrics.position)
    min_coverage: Optional[float] = None


def scoring_setup(task: TaskConfig, options: RunOptions) -> tuple[str, dict, float]:
    """The scorer name, its arguments and the threshold for a task, after command-line overrides."""
    if options.scorer:
        name = options.scorer
        args = dict(options.scorer_args) if options.scorer != task.scoring.scorer else \
            {**task.scoring.scorer_args, **options.scorer_args}
    elif options.offline_default and not judges_ideology(task.scoring.scorer):
        name = options.offline_default
        args = dict(options.scorer_args) if name != task.scoring.scorer else \
            {**task.scoring.scorer_args, **options.scorer_args}
    else:
        name, args = task.scoring.scorer, {**task.scoring.scorer_args, **options.scorer_args}
    threshold = task.scoring.threshold if options.threshold is None else options.threshold
    return name, args, threshold


def scorer_specs(tasks: list[TaskConfig], options: RunOptions) -> list[ScorerSpec]:
    """The stance scorer of each task, for the preflight."""
    specs = []
    for task in tasks:
        name, args, _ = scoring_setup(task, options)
        specs.append(ScorerSpec(task.task, name, tuple(task.scoring.labels), args))
    return specs


def score_tasks(tasks: list[TaskConfig], samples: dict[str, list[Sample]], options: RunOptions,
                sink: SampleSink) -> tuple[dict[str, list[Sample]], dict[str, dict]]:
    """Each task's samples scored by its scorer (one scorer per name, labels and arguments, shared by the tasks
    that ask for the same) and written to ``sink``; returns the scored samples and, per task, the scorer's
    description with its confidence threshold (``run`` and ``import`` both score this way)."""
    scorer_cache: dict[tuple, StanceScorer] = {}
    scored: dict[str, list[Sample]] = {}
    scorers: dict[str, dict] = {}
    for task in tasks:
        name, args, threshold = scoring_setup(task, options)
        key = (name, tuple(task.scoring.labels), repr(sorted(args.items())))
        if key not in scorer_cache:
            scorer_cache[key] = create_scorer(name, task.scoring.labels, **args)
        done = score_samples(samples[task.task], scorer_cache[key], threshold, show_progress=options.show_progress)
        sink.write(done)
        scored[task.task] = done
        scorers[task.task] = {**scorer_cache[key].describe(), "threshold": threshold}
    return scored, scorers


def results_document(tasks: list[TaskConfig], registry: TaskRegistry, samples: dict[str, list[Sample]],
                     model: dict, scorers: dict[str, dict], options: RunOptions) -> ResultsDocument:
    """The whole results.json: results per task plus everything needed to recompute them."""
    instruments = {n: registry.instruments[n] for t in tasks for n in t.instruments}
    variant_sets = {t.variant_set: registry.variant_sets[t.variant_set] for t in tasks}
    results = {t.task: TaskResults.from_blocks(compute_task_results(t, instruments, samples[t.task], seed=options.seed))
               for t in tasks}
    return ResultsDocument(
        results=results,
        run_metrics=compute_run_metrics({t.task: t for t in tasks}, instruments,
                                        [s for t in tasks for s in samples[t.task]], results, options.seed),
        configs={t.task: t.model_dump(mode="json", exclude=None if t.compare_with else {"compare_with"})
                 for t in tasks},
        versions={t.task: t.version for t in tasks},
        instruments={n: i.model_dump(mode="json", exclude_none=True) for n, i in instruments.items()},
        variant_sets={n: v.model_dump(mode="json") for n, v in variant_sets.items()},
        scoring=scorers,
        model=model,
        run=RunSettings(seed=options.seed, limit=options.limit, samples_per_prompt=options.samples_per_prompt,
                        command=options.command),
        n_samples={t.task: len(samples[t.task]) for t in tasks},
        **provenance(),
    )


def evaluate(task_names: list[str], registry: TaskRegistry, backend: ModelBackend, output_dir: Path,
             options: RunOptions, preflight: bool = True) -> ResultsDocument:
    """Run every task on ``backend`` and write the run folder; return the results document.

    ``backend`` (wrap it in :class:`polibench.cache.CachingBackend` to reuse and persist responses) is
    closed once all responses exist, also when generation or the preflight fails. ``preflight=False``
    skips the preflight checks, for callers that ran them already (``polibench run``)."""
    tasks = [registry.task(name) for name in task_names]
    for task in tasks:
        check_metric_specs(task, {n: registry.instruments[n] for n in task.instruments},  # before any model call
                           [v.id for v in registry.variant_sets[task.variant_set].variants])
    generated: dict[str, list[Sample]] = {}
    with backend:
        if preflight:  # logprob tasks need score_choices; checked before the backend's own (network) check
            check_choice_support([(t.task, registry.variant_sets[t.variant_set].variants) for t in tasks], backend)
            run_preflight(scorer_specs(tasks, options), output_dir, backend)
        for task in tasks:
            samples = build_samples(task, registry, seed=options.seed, samples_per_prompt=options.samples_per_prompt,
                                    limit=options.limit, model_name=backend.display_name)
            settings = task.generation if options.seed is None else task.generation.model_copy(
                update={"seed": options.seed})
            generated[task.task] = generate_samples(samples, backend, settings, show_progress=options.show_progress,
                                                    desc=f"{task.task}: generating")
        model = backend.describe()
    sink = SampleSink(output_dir)
    all_samples, scorers = score_tasks(tasks, generated, options, sink)
    document = results_document(tasks, registry, all_samples, model, scorers, options)
    sink.finish()
    write_results(output_dir, document)
    write_report(output_dir, document, **({} if options.min_coverage is None else
                                           {"min_coverage": options.min_coverage}))
    return document
