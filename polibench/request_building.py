"""Stage 2: turn a task (instrument items x statement forms x prompt variants x samples) into Samples.

Each sample gets its own seed derived from the run seed and its identity, so the same command gives the
same responses with the same backend, whatever order or batch the requests are served in.
"""

from __future__ import annotations

from typing import Optional

from polibench.errors import PolibenchError
from polibench.records import ChatMessage, Sample
from polibench.seeding import derive_seed
from polibench.taskspec.loader import TaskRegistry
from polibench.taskspec.schema import Item, PromptVariant, TaskConfig, VariantSet

__all__ = ["build_samples", "derive_seed", "fill_template", "item_slots", "statement_for"]

FLIP = {"left": "right", "right": "left"}


def fill_template(template: str, statement: str, model_name: str, slots: Optional[dict[str, str]] = None) -> str:
    """Fill ``{statement}``, ``{model_name}`` and the ``slots`` (a keyword group's ``group_slots``, e.g.
    ``{pronoun}``); other braces in the template are left alone."""
    for name, value in (slots or {}).items():
        template = template.replace("{" + name + "}", value)
    return template.replace("{statement}", statement).replace("{model_name}", model_name)


def item_slots(variant_set: VariantSet, item: Item) -> Optional[dict[str, str]]:
    """The variant set's template slots for the item's keyword group (None when it defines none)."""
    if variant_set.group_slots is None:
        return None
    if item.group not in variant_set.group_slots:
        raise PolibenchError(f"variant set '{variant_set.variant_set}': group_slots has no entry for item "
                             f"'{item.id}' (group {item.group!r}); expected one of {sorted(variant_set.group_slots)}")
    return variant_set.group_slots[item.group]


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


def build_samples(
    task: TaskConfig,
    registry: TaskRegistry,
    *,
    seed: Optional[int] = None,
    samples_per_prompt: Optional[int] = None,
    limit: Optional[int] = None,
    model_name: str = "model",
) -> list[Sample]:
    """All samples of a task, in a stable order. ``limit`` keeps the first N items of each instrument."""
    run_seed = task.generation.seed if seed is None else seed
    n = samples_per_prompt or task.generation.samples
    variant_set = registry.variant_sets[task.variant_set]
    variants = variant_set.variants
    out: list[Sample] = []
    for inst_name in task.instruments:
        items = registry.instruments[inst_name].items
        for item in items[:limit] if limit else items:
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
                            prompt=prompt, messages=messages, options=variant.options,
                        ))
    return out
