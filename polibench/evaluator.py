"""Run tasks end to end: build samples -> generate -> score -> compute metrics -> write the run folder.

Each stage is a function over ``Sample`` records (see :mod:`polibench.records`); this module only wires
them together and writes ``samples.jsonl``, ``results.json`` and ``report.md`` into the output folder.
The responses of every task are generated first and the model backend is closed before the scorers that
score are created, so a GPU engine never shares memory with a stance classifier or judge. Before any of
that, the preflight (:mod:`polibench.preflight`) builds the scorers only to check them (they load no
weights), and checks the output folder and the backend, so a run that cannot finish fails before its first
model call. Then it prints the plan (:mod:`polibench.cache.plan`): each task's requests, expected tokens and
ETA, and what the scorers will cost on first use (training), and records the measured generation speed after.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Optional

from polibench.cache.plan import GenerationPlan, plan_generation, record_generation
from polibench.metrics.compute import compute_task_results
from polibench.metrics.registry import check_metric_specs
from polibench.models.base import ModelBackend
from polibench.models.choice_stage import check_choice_support
from polibench.models.eta import EtaEstimator, duration
from polibench.models.stage import generate_samples
from polibench.preflight import ScorerSpec, run_preflight
from polibench.records import Sample
from polibench.report.markdown import write_report
from polibench.request_building import build_samples
from polibench.results.document import ResultsDocument, RunSettings, TaskResults
from polibench.results.files import SampleSink, write_results
from polibench.results.provenance import provenance
from polibench.scoring.base import StanceScorer
from polibench.scoring.registry import create_scorer, judges_ideology, scorer_class
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


def say(line: str) -> None:
    """One ``polibench: `` line on stderr, above any progress bar."""
    from tqdm.auto import tqdm

    tqdm.write(f"polibench: {line}", file=sys.stderr)


def say_warm_up(plan: GenerationPlan, estimator: EtaEstimator) -> None:
    """With no recorded speed: the ETA measured on the first 5%, unless nothing is left to generate."""
    if estimator.to_generate:
        say(plan.warm_line(estimator))


def first_use_plans(tasks: list[TaskConfig], options: RunOptions) -> list[str]:
    """What the tasks' scorers will cost on first use (training), once per scorer; nothing when all are ready."""
    lines: list[str] = []
    for spec in {(s.scorer, s.labels, repr(sorted(s.args.items()))): s for s in scorer_specs(tasks, options)}.values():
        line = scorer_class(spec.scorer).first_use_plan(**spec.args)
        if line and line not in lines:
            lines.append(line)
    return lines


def print_plan(plans: list[GenerationPlan], first_use: list[str]) -> None:
    """The plan, before the first model call: each task's requests and ETA, then any first-use training."""
    for plan in plans:
        for line in plan.lines():
            say(f"plan: {line}")
    known = [p.expected_seconds() for p in plans if p.to_generate]
    if len(known) > 1 and all(s is not None for s in known):
        say(f"plan: generation in all, about {duration(sum(s for s in known if s is not None))}")
    for line in first_use:
        say(f"plan: then {line}")


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
    return ResultsDocument(
        results={t.task: TaskResults.from_blocks(compute_task_results(t, instruments, samples[t.task],
                                                                      seed=options.seed)) for t in tasks},
        configs={t.task: t.model_dump(mode="json") for t in tasks},
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
        planned = []
        for task in tasks:
            samples = build_samples(task, registry, seed=options.seed, samples_per_prompt=options.samples_per_prompt,
                                    limit=options.limit, model_name=backend.display_name)
            settings = task.generation if options.seed is None else task.generation.model_copy(
                update={"seed": options.seed})
            planned.append((task, samples, settings, plan_generation(task.task, samples, backend, settings)))
        print_plan([plan for *_, plan in planned], first_use_plans(tasks, options))
        for task, samples, settings, plan in planned:
            estimator = plan.estimator()
            generated[task.task] = generate_samples(samples, backend, settings, show_progress=options.show_progress,
                                                    desc=f"{task.task}: generating", estimator=estimator,
                                                    on_warm=None if plan.speed else partial(say_warm_up, plan))
            record_generation(plan, estimator, generated[task.task], backend.name)
        model = backend.describe()
    sink = SampleSink(output_dir)
    all_samples, scorers = score_tasks(tasks, generated, options, sink)
    document = results_document(tasks, registry, all_samples, model, scorers, options)
    sink.finish()
    write_results(output_dir, document)
    write_report(output_dir, document, **({} if options.min_coverage is None else
                                           {"min_coverage": options.min_coverage}))
    return document
