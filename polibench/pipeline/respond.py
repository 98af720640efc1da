"""Respond, the third stage: every planned sample gets its response, from one of three interchangeable sources.

A :class:`ResponseSource` is what answers a run's prompts:

- :class:`BackendResponses`: a model backend generates them (``polibench run``);
- :class:`polibench.pipeline.import_file.ImportedResponses`: a JSONL/CSV file of responses made elsewhere
  (``polibench import``);
- :class:`RunResponses`: a finished run's stored responses, to be scored again (``polibench score RUN
  --scorer X --output NEW``).

Each source has three steps the pipeline calls in order: :meth:`~ResponseSource.check` (cheap, before
anything is loaded: backend arguments, every row of an import file, the source run's files),
:meth:`~ResponseSource.prepare` (a backend is created here and runs its own check; the last preflight step)
and :meth:`~ResponseSource.respond`; then :meth:`~ResponseSource.close`, which the pipeline calls once, before
any scorer is created, also when something failed.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Callable, Optional, Protocol, Union

from polibench.cache.plan import GenerationPlan, plan_generation, record_generation
from polibench.errors import PolibenchError
from polibench.models.base import ModelBackend
from polibench.models.choice_stage import check_choice_support
from polibench.models.eta import EtaEstimator, duration
from polibench.models.stage import generate_samples
from polibench.pipeline.plan import RunOptions, RunPlan, build_samples
from polibench.pipeline.score import first_use_plans
from polibench.records import Sample
from polibench.results.check import count_differences, describe
from polibench.results.folder import RunFolder


@dataclass
class Responses:
    """What a source returns: each task's samples with their responses (no stance yet), in plan order, the
    ``model`` entry of results.json, and where the responses came from when not from a backend (``run``
    fields of results.json: ``imported``, ``rescored_from`` or ``merged_from``). A backend also gives its cache
    identity and the name filled into ``{model_name}`` (what a shard folder records)."""

    samples: dict[str, list[Sample]]
    model: dict[str, Any]
    origin: dict[str, Any] = field(default_factory=dict)
    identity: Optional[dict[str, Any]] = None
    model_name: Optional[str] = None


class ResponseSource(Protocol):
    def check(self, plan: RunPlan) -> None:
        """Cheap checks before anything is loaded; one PolibenchError for what cannot work."""

    def prepare(self, plan: RunPlan) -> None:
        """Make the source ready to answer (a backend is created here) and run its own check."""

    def respond(self, plan: RunPlan, options: RunOptions) -> Responses:
        """Every planned sample with its response."""

    def close(self) -> None:
        """Free what the source holds (a backend's model); called once, also after a failure."""


class BackendResponses:
    """A model backend answers. ``backend`` is the backend itself or a function creating it (called in
    :meth:`prepare`, after the cheap checks, so a model is loaded only for a run that can finish);
    ``check_args`` runs first (the backend's arguments against its signature) and ``note`` is printed just
    before the backend is created."""

    def __init__(self, backend: Union[ModelBackend, Callable[[], ModelBackend]],
                 check_args: Optional[Callable[[], None]] = None, note: Optional[str] = None):
        self._factory = None if isinstance(backend, ModelBackend) else backend
        self.backend: Optional[ModelBackend] = backend if isinstance(backend, ModelBackend) else None
        self._check_args, self._note = check_args, note

    def check(self, plan: RunPlan) -> None:
        if self._check_args is not None:
            self._check_args()

    def prepare(self, plan: RunPlan) -> None:
        if self.backend is None:
            if self._note:
                print(self._note, file=sys.stderr)
            assert self._factory is not None
            self.backend = self._factory()
        # logprob tasks need score_choices: checked before the backend's own (maybe network) check
        check_choice_support([(t.task, plan.variants(t)) for t in plan.tasks], self.backend)
        self.backend.preflight()  # e.g. one free request to an API with the key, before any prompt

    def respond(self, plan: RunPlan, options: RunOptions) -> Responses:
        """Print the plan (each task's requests, expected tokens and ETA, then any first-use training of the
        scorers), generate, and record the measured speed for the next plan (:mod:`polibench.cache.plan`).
        With ``options.shard``, only that shard's requests (:class:`polibench.cache.shard.Shard`)."""
        backend = self._ready()
        identity = backend.cache_identity()
        planned = []
        for task in plan.tasks:
            samples = build_samples(task, plan, seed=options.seed, samples_per_prompt=options.samples_per_prompt,
                                    limit=options.limit, model_name=backend.display_name, issues=options.issues,
                                    limit_order=options.limit_order)
            settings = task.generation if options.seed is None else task.generation.model_copy(
                update={"seed": options.seed})
            if options.shard is not None:
                samples = options.shard.select(samples, identity, settings)
            planned.append((task, samples, settings, plan_generation(task.task, samples, backend, settings)))
        print_plan([generation for *_, generation in planned], first_use_plans(plan.tasks, options))
        generated: dict[str, list[Sample]] = {}
        for task, samples, settings, generation in planned:
            estimator = generation.estimator()
            generated[task.task] = generate_samples(
                samples, backend, settings, show_progress=options.show_progress, desc=f"{task.task}: generating",
                estimator=estimator, on_warm=None if generation.speed else partial(say_warm_up, generation))
            record_generation(generation, estimator, generated[task.task], backend.name)
        return Responses(samples=generated, model=model_info(backend), identity=identity,
                         model_name=backend.display_name)

    def close(self) -> None:
        if self.backend is not None:
            self.backend.close()

    def _ready(self) -> ModelBackend:
        if self.backend is None:
            raise RuntimeError("BackendResponses.respond before prepare")
        return self.backend


def model_info(backend: ModelBackend) -> dict[str, Any]:
    """results.json's ``model``: the backend's description, and whether chat prompts met a chat template where the
    backend can tell (``chat_template``; read by :mod:`polibench.families.answering.metric`)."""
    info = backend.describe()
    template = backend.has_chat_template()
    return info if template is None else {**info, "chat_template": template}


def say(line: str) -> None:
    """One ``polibench: `` line on stderr, above any progress bar."""
    from tqdm.auto import tqdm

    tqdm.write(f"polibench: {line}", file=sys.stderr)


def say_warm_up(plan: GenerationPlan, estimator: EtaEstimator) -> None:
    """With no recorded speed: the ETA measured on the first 5%, unless nothing is left to generate."""
    if estimator.to_generate:
        say(plan.warm_line(estimator))


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


class StoredResponses:
    """A source whose responses are already written (a finished run, an import file, shard folders): nothing to
    load before answering, nothing to free after."""

    def prepare(self, plan: RunPlan) -> None:
        return None

    def close(self) -> None:
        return None


class RunResponses(StoredResponses):
    """A finished run's responses, read from its samples.jsonl and stripped of their stances, so that the
    scoring stage scores them as it scores fresh ones. The plan must be the run's own
    (:meth:`RunPlan.from_document`); the new run records the source folder and the SHA-256 of its two files."""

    def __init__(self, folder: RunFolder):
        self.folder = folder

    def check(self, plan: RunPlan) -> None:
        samples = self.folder.read().samples  # both files read and validated now, before any scorer is built
        found = count_differences(self.folder.document.n_samples, samples)
        if found:
            raise PolibenchError(f"{self.folder.path}: samples.jsonl does not hold the samples results.json counts: "
                                 f"{describe(found, what='results.json', against='samples.jsonl')}")

    def respond(self, plan: RunPlan, options: RunOptions) -> Responses:
        document = self.folder.document
        samples = {t.task: [s.model_copy(update={"stance": None, "readings": {}})
                            for s in self.folder.task_samples(t.task)] for t in plan.tasks}
        origin = {"run": str(self.folder.path), "results_sha256": self.folder.results_sha256(),
                  "samples_sha256": self.folder.samples_sha256(),
                  "scoring": {task: scorer.get("scorer") for task, scorer in document.scoring.items()}}
        # responses the source run imported stay imported: the file they came from is still recorded
        return Responses(samples=samples, model=dict(document.model),
                         origin={"imported": document.run.imported, "rescored_from": origin})
