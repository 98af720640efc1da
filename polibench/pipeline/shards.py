"""Shard runs and their merge: ``polibench run --shard i/N`` on N machines, then ``polibench merge``.

A shard run goes through the plan, preflight and respond stages of any run, answering only its share of the
requests (:class:`polibench.cache.shard.Shard`, by cache key), and writes a shard folder
(:mod:`polibench.results.shard`): its responses, unscored, and ``shard.json`` with :func:`shard_plan`.

:func:`read_shards` checks that the given folders are the complete set of shards of one plan, naming the folder
and what differs otherwise; :class:`ShardResponses` is then the merge's response source for
:func:`polibench.pipeline.run.run_pipeline`. It checks that together the shards hold every planned sample exactly
once (no sample missing, none in two shards, each the request the plan builds) and hands them over in plan
order, so the score, compute and write stages see exactly what an unsharded run hands them: the merged
samples.jsonl and results.json are the unsharded run's (``run.command``, ``run.merged_from`` and ``date``
aside).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

from polibench.errors import PolibenchError
from polibench.pipeline.plan import RunOptions, RunPlan, build_samples
from polibench.pipeline.respond import Responses, StoredResponses
from polibench.records import Sample, Usage
from polibench.results.check import count_differences, describe
from polibench.results.files import SAMPLES, read_samples
from polibench.results.shard import SHARD, ShardManifest, read_manifest

# what the respond stage fills in on a sample (and scoring after it): cleared to compare with the planned request
ANSWER_FIELDS: dict[str, Any] = {"response": None, "finish_reason": None, "usage": Usage(), "mask_fills": None,
                 "option_logprobs": None, "stance": None, "readings": {}}


def json_values(value: Any) -> Any:
    """``value`` as plain JSON values (what shard.json stores and what is compared)."""
    return json.loads(json.dumps(value, default=str))  # keys keep their order: tasks, instruments, model


def shard_plan(plan: RunPlan, options: RunOptions, responses: Responses) -> dict[str, Any]:
    """What every shard of one run must share: the specs, the run settings, the model and the scoring options."""
    return json_values({
        "tasks": plan.task_names, **plan.specs(),
        "seed": options.seed, "limit": options.limit, "limit_order": options.limit_order,
        "samples_per_prompt": options.samples_per_prompt,
        "model": responses.model, "model_identity": responses.identity, "model_name": responses.model_name,
        "scoring": {"scorer": options.scorer, "scorer_args": options.scorer_args, "threshold": options.threshold,
                    "offline_default": options.offline_default},
        "min_coverage": options.min_coverage,
    })


def merge_options(plan: dict[str, Any], show_progress: bool, command: list[str]) -> RunOptions:
    """The run options the shards were made with (scoring included), for the merge's score and compute stages."""
    scoring = plan["scoring"]
    return RunOptions(seed=plan["seed"], limit=plan["limit"], limit_order=plan.get("limit_order", "first"),
                      samples_per_prompt=plan["samples_per_prompt"],
                      scorer=scoring["scorer"], scorer_args=dict(scoring["scorer_args"]),
                      threshold=scoring["threshold"], offline_default=scoring["offline_default"],
                      show_progress=show_progress, command=command, min_coverage=plan["min_coverage"])


def first_difference(a: Any, b: Any, where: str = "") -> Optional[tuple[str, Any, Any]]:
    """The first place (``configs.pct.generation.temperature``) where two JSON values differ, with both values."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            inner = f"{where}.{key}" if where else str(key)
            if key not in a or key not in b:
                return inner, a.get(key, "(absent)"), b.get(key, "(absent)")
            found = first_difference(a[key], b[key], inner)
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            found = first_difference(x, y, f"{where}[{i}]")
            if found:
                return found
        return None
    return None if a == b else (where or "(plan)", a, b)


def _short(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, default=str)
    return text if len(text) <= 80 else text[:77] + "..."


def read_shards(folders: list[Path]) -> list[tuple[Path, ShardManifest]]:
    """Each folder's shard.json, checked to be one complete set: one plan, one N, each shard 0..N-1 once."""
    if not folders:
        raise PolibenchError("merge: give the shard folders to merge")
    seen: dict[Path, Path] = {}
    shards = []
    for folder in folders:
        resolved = folder.resolve()
        if resolved in seen:
            raise PolibenchError(f"{folder}: given twice (also as {seen[resolved]})")
        seen[resolved] = folder
        shards.append((folder, read_manifest(folder)))
    first, head = shards[0]
    for folder, manifest in shards[1:]:
        if manifest.plan_sha256 != head.plan_sha256:
            where, mine, theirs = first_difference(manifest.plan, head.plan) or ("(plan)", "?", "?")
            raise PolibenchError(f"{folder}: a shard of another run than {first}: {where} is {_short(mine)} there, "
                                 f"{_short(theirs)} in {first}")
        if manifest.count != head.count:
            raise PolibenchError(f"{folder}: shard {manifest.shard}, but {first} is shard {head.shard}: the shards "
                                 "of one run split it into the same number of parts")
    by_index: dict[int, Path] = {}
    for folder, manifest in shards:
        if manifest.index in by_index:
            raise PolibenchError(f"{folder} and {by_index[manifest.index]} are both shard {manifest.shard} (one "
                                 "folder per shard)")
        by_index[manifest.index] = folder
    missing = [i for i in range(head.count) if i not in by_index]
    if missing:
        raise PolibenchError(f"shard(s) {', '.join(f'{i}/{head.count}' for i in missing)} missing: a merge needs "
                             f"all {head.count} shards (given: {', '.join(f'{m.shard} {f}' for f, m in shards)})")
    return sorted(shards, key=lambda pair: pair[1].index)


class ShardResponses(StoredResponses):
    """The responses of a complete set of shards (:func:`read_shards`), checked against the plan sample by
    sample and handed over in plan order."""

    def __init__(self, shards: list[tuple[Path, ShardManifest]]):
        self.shards = shards
        self.plan = shards[0][1].plan
        self._samples: Optional[dict[str, list[Sample]]] = None

    def check(self, plan: RunPlan) -> None:
        """Every planned sample in exactly one shard, as the request the plan builds; read once."""
        planned: dict[str, list[Sample]] = {
            task.task: build_samples(task, plan, seed=self.plan["seed"], limit=self.plan["limit"],
                                     limit_order=self.plan.get("limit_order", "first"),
                                     samples_per_prompt=self.plan["samples_per_prompt"],
                                     model_name=self.plan["model_name"]) for task in plan.tasks}
        slots = {_slot(s): (task, i) for task, samples in planned.items() for i, s in enumerate(samples)}
        found: dict[tuple, tuple[Path, Sample]] = {}
        for folder, manifest in self.shards:
            samples = read_samples(folder / SAMPLES)
            miscounted = count_differences(manifest.n_samples, samples)
            if miscounted:
                raise PolibenchError(f"{folder}: samples.jsonl does not hold the samples {SHARD} counts: "
                                     f"{describe(miscounted, what=SHARD, against=SAMPLES)}")
            for number, sample in enumerate(samples, start=1):
                slot = _slot(sample)
                where = (f"task '{sample.task}' item '{sample.item_id}' form '{sample.form}' variant "
                         f"'{sample.variant}' sample {sample.sample_index}")
                if slot not in slots:
                    raise PolibenchError(f"{folder / SAMPLES}: line {number}: {where} is not in the plan of "
                                         f"{SHARD}")
                if slot in found:
                    raise PolibenchError(f"{folder / SAMPLES}: line {number}: {where} is also in "
                                         f"{found[slot][0]} (overlapping shards)")
                task, i = slots[slot]
                if sample.model_copy(update=ANSWER_FIELDS) != planned[task][i]:
                    raise PolibenchError(f"{folder / SAMPLES}: line {number}: {where} is not the request the plan "
                                         "builds (its prompt, seed or statement differ)")
                found[slot] = (folder, sample.model_copy(update={"stance": None, "readings": {}}))
        missing = [s for samples in planned.values() for s in samples if _slot(s) not in found]
        if missing:
            first = missing[0]
            raise PolibenchError(
                f"the shards hold {len(found)} of the {len(slots)} planned samples: {len(missing)} missing (first: "
                f"task '{first.task}' item '{first.item_id}' form '{first.form}' variant '{first.variant}' sample "
                f"{first.sample_index}); were the shards run with the same model files and code version?")
        self._samples = {task: [found[_slot(s)][1] for s in samples] for task, samples in planned.items()}

    def respond(self, plan: RunPlan, options: RunOptions) -> Responses:
        if self._samples is None:
            self.check(plan)
        assert self._samples is not None
        merged_from = [{"folder": str(folder), "shard": manifest.shard, "samples_sha256": manifest.samples_sha256,
                        "plan_sha256": manifest.plan_sha256, "date": manifest.date} for folder, manifest in self.shards]
        return Responses(samples=self._samples, model=dict(self.plan["model"]), origin={"merged_from": merged_from},
                         identity=self.plan["model_identity"], model_name=self.plan["model_name"])



def _slot(sample: Sample) -> tuple:
    return sample.task, sample.item_id, sample.form, sample.variant, sample.sample_index
