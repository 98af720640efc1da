"""Plan, the first stage: what a run asks, and each task turned into its Samples.

A :class:`RunPlan` holds the run's tasks with their instruments and variant sets, taken from the task registry
(``run``, ``import``) or from the specs a finished run stored in its results.json (``score --scorer``).
:func:`build_samples` turns a task (instrument items x statement forms x prompt variants x samples) into
Samples. Each sample gets its own seed derived from the run seed and its identity, so the same command gives
the same responses with the same backend, whatever order or batch the requests are served in.
:class:`RunOptions` are the command-line settings every later stage reads.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Protocol

from polibench.cache.shard import Shard
from polibench.errors import PolibenchError
from polibench.records import ChatMessage, Sample
from polibench.results.document import ResultsDocument
from polibench.seeding import derive_seed
from polibench.taskspec.loader import TaskRegistry
from polibench.taskspec.schema import Instrument, Item, PromptVariant, TaskConfig, VariantSet, fill_template, item_slots

__all__ = ["RunOptions", "RunPlan", "build_samples", "check_issue_ids", "derive_seed", "fill_template",
           "statement_for"]


@dataclass
class RunOptions:
    seed: Optional[int] = None
    limit: Optional[int] = None
    # how --limit picks its items: "balanced" (across dimensions and sides, fixed seed: limited_items) or "first"
    # (the first N, as runs made before polibench 0.3 did; their rescoring keeps it)
    limit_order: str = "balanced"
    issues: Optional[list[str]] = None  # IssueBench tasks: only these issues (topic_id), before --limit
    samples_per_prompt: Optional[int] = None
    scorer: Optional[str] = None
    scorer_args: dict = field(default_factory=dict)
    # --judge-model / --judge-backend / --judge-args: the arguments of every LLM-judge scorer (judge, issue_judge)
    judge_args: dict = field(default_factory=dict)
    threshold: Optional[float] = None
    # the stance scorer replacing each task's own stance scorer when none was chosen (the embedded model's
    # offline runs); ideology judges are kept, they are offline already
    offline_default: Optional[str] = None
    show_progress: bool = True
    command: list[str] = field(default_factory=list)
    # report.md: the share of an axis's PCT statements a position needs to be ranked (polibench.metrics.position)
    min_coverage: Optional[float] = None
    # ``run --shard i/N``: answer only this shard's requests and write a shard folder (polibench.pipeline.shard)
    shard: Optional[Shard] = None


class Specs(Protocol):
    """Where a task's instruments and variant sets are looked up: the task registry or a :class:`RunPlan`."""

    @property
    def instruments(self) -> dict[str, Instrument]: ...

    @property
    def variant_sets(self) -> dict[str, VariantSet]: ...


@dataclass(frozen=True)
class RunPlan:
    """The tasks of a run, in order, with the instruments and variant sets they use."""

    tasks: list[TaskConfig]
    instruments: dict[str, Instrument]
    variant_sets: dict[str, VariantSet]

    @classmethod
    def from_registry(cls, registry: TaskRegistry, task_names: list[str]) -> RunPlan:
        """The named tasks as the task files define them (an unknown name is one clear error)."""
        tasks = [registry.task(name) for name in task_names]
        return cls(tasks=tasks, instruments={n: registry.instruments[n] for t in tasks for n in t.instruments},
                   variant_sets={t.variant_set: registry.variant_sets[t.variant_set] for t in tasks})

    @classmethod
    def from_document(cls, document: ResultsDocument) -> RunPlan:
        """The tasks of a finished run as it stored them (not as today's task files say)."""
        return cls(tasks=[document.task_config(name) for name in document.configs],
                   instruments=document.task_instruments(),
                   variant_sets={n: VariantSet.model_validate(v) for n, v in document.variant_sets.items()})

    @classmethod
    def from_specs(cls, specs: dict) -> RunPlan:
        """The plan from :meth:`specs` (what a shard folder stores)."""
        return cls(tasks=[TaskConfig.model_validate(c) for c in specs["configs"].values()],
                   instruments={n: Instrument.model_validate(i) for n, i in specs["instruments"].items()},
                   variant_sets={n: VariantSet.model_validate(v) for n, v in specs["variant_sets"].items()})

    def specs(self) -> dict:
        """The plan as JSON values, as results.json stores it (``configs``, ``versions``, ``instruments``,
        ``variant_sets``): everything needed to build the same samples again."""
        return {
            # an empty compare_with is left out, so the configs of unpaired tasks are what they were before it existed
            "configs": {t.task: t.model_dump(mode="json", exclude=None if t.compare_with else {"compare_with"})
                        for t in self.tasks},
            "versions": {t.task: t.version for t in self.tasks},
            "instruments": {n: i.model_dump(mode="json", exclude_none=True) for n, i in self.instruments.items()},
            "variant_sets": {n: v.model_dump(mode="json") for n, v in self.variant_sets.items()},
        }

    @property
    def task_names(self) -> list[str]:
        return [t.task for t in self.tasks]

    def variants(self, task: TaskConfig) -> list[PromptVariant]:
        return self.variant_sets[task.variant_set].variants

    def task_instruments(self, task: TaskConfig) -> dict[str, Instrument]:
        return {n: self.instruments[n] for n in task.instruments}

FLIP = {"left": "right", "right": "left"}


def check_issue_ids(plan: RunPlan, issues: list[str]) -> None:
    """``--issues``: every id names an issue of some task's IssueBench instrument (one error listing the
    unknown ones, before any model call)."""
    known = {i.issue.issue_id for t in plan.tasks for inst in plan.task_instruments(t).values()
             for i in inst.items if i.issue is not None}
    if not known:
        raise PolibenchError(f"--issues: none of the tasks ({', '.join(plan.task_names)}) has IssueBench issues")
    unknown = [i for i in issues if i not in known]
    if unknown:
        raise PolibenchError(f"--issues: unknown issue id(s) {', '.join(unknown)}; expected topic_ids such as "
                             f"{', '.join(sorted(known, key=lambda k: (len(k), k))[:5])}")


def statement_for(item: Item, form: str) -> tuple[str, Optional[str]]:
    """The statement shown for a form, and the side agreeing with it reflects (opposite flips it)."""
    if form == "original":
        return item.text, item.agree_side
    text = getattr(item.forms, form)
    if text is None:
        raise ValueError(f"item {item.id} has no '{form}' form")
    return text, FLIP[item.agree_side] if form == "opposite" and item.agree_side else item.agree_side


def build_messages(variant: PromptVariant, prompt: str) -> Optional[list[ChatMessage]]:
    if not variant.chat:
        return None
    messages = [ChatMessage(role="system", content=variant.system)] if variant.system else []
    return messages + [ChatMessage(role="user", content=prompt)]


LIMIT_SEED = 20_260_038  # --limit's fixed seed: the same statements for every run seed, model and machine


def limited_items(items: list[Item], limit: Optional[int], instrument: str, order: str = "balanced") -> list[Item]:
    """``--limit N``: N items of an instrument, in the instrument's order.

    ``balanced``: statements with a dimension and a side are grouped by (dimension, side); each group is shuffled
    with a fixed seed (:data:`LIMIT_SEED` and the instrument's name) and the groups take turns, one item each, so N
    items are spread across both axes and balanced by side as far as the groups allow (12 of the PCT: 3 left and 3
    right economic, 3 libertarian and 3 authoritarian social statements). Items without a dimension or a side
    (IssueBench issues, keyword groups, prompt pairs, which come in sets that belong together) keep the first N.
    ``first``: the first N items (how runs made before the balanced pick chose them)."""
    if not limit or limit >= len(items):
        return list(items)
    if order == "first" or any(i.dimension is None or i.agree_side is None for i in items):
        return list(items[:limit])
    import random

    groups: dict[tuple[str, str], list[Item]] = {}
    for item in items:
        groups.setdefault((str(item.dimension), str(item.agree_side)), []).append(item)
    rng = random.Random(derive_seed(LIMIT_SEED, instrument, "limit"))
    queues = [rng.sample(members, len(members)) for _, members in sorted(groups.items())]
    chosen: set[str] = set()
    while len(chosen) < limit:
        for queue in queues:
            if queue and len(chosen) < limit:
                chosen.add(queue.pop(0).id)
    return [item for item in items if item.id in chosen]


def build_samples(
    task: TaskConfig,
    registry: Specs,
    *,
    seed: Optional[int] = None,
    samples_per_prompt: Optional[int] = None,
    limit: Optional[int] = None,
    model_name: str = "model",
    issues: Optional[list[str]] = None,
    limit_order: str = "balanced",
) -> list[Sample]:
    """All samples of a task, in a stable order. ``issues`` keeps only the IssueBench items of those issues
    (other items are kept); ``limit`` then keeps N items of each instrument (:func:`limited_items`, picked as
    ``limit_order`` says)."""
    run_seed = task.generation.seed if seed is None else seed
    n = samples_per_prompt or task.generation.samples
    variant_set = registry.variant_sets[task.variant_set]
    variants = variant_set.variants
    out: list[Sample] = []
    for inst_name in task.instruments:
        items = registry.instruments[inst_name].items
        if issues is not None:
            wanted = set(issues)
            items = [i for i in items if i.issue is None or i.issue.issue_id in wanted]
        for item in limited_items(items, limit, inst_name, limit_order):
            for form in task.forms:
                statement, side = statement_for(item, form)
                slots = item_slots(variant_set, item)
                for variant in variants:
                    prompt = fill_template(variant.template, statement, model_name, slots)
                    messages = build_messages(variant, prompt)
                    for index in range(n):
                        out.append(Sample(
                            task=task.task, instrument=inst_name, item_id=item.id, statement=statement,
                            dimension=item.dimension, agree_side=side, form=form, variant=variant.id,
                            scoring=variant.scoring, sample_index=index,
                            seed=derive_seed(run_seed, task.task, item.id, form, variant.id, index),
                            prompt=prompt, messages=messages, options=variant.options, issue=item.issue,
                            pair=item.pair,
                        ))
    return out
