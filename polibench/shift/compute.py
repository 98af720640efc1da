"""``polibench shift``: each run's paired shift from a base run, per task both hold.

A run folder is read whole (results.json for the task specs and the model, samples.jsonl for the scored
responses) before anything is computed, so a missing or damaged folder is one clear error. For every task
shared by the base and all the runs, the samples of each pair are restricted to the statements both answered
and compared with :func:`polibench.shift.paired.paired_estimates` (one bootstrap matrix for both runs, a
sign-flip test of no shift). The instruments are the base run's stored ones (their js.js weights).

The sign-flip test treats each statement's two answers as exchangeable, which holds only when both runs asked
it the same way. :func:`design_differences` lists what differs between two runs on a task: the task itself
(version, instruments, forms, variant set, scoring), the prompt variants asked, the samples per prompt, and
the decoding settings (max_new_tokens, temperature, top_k, top_p, stop; the seed may differ). Any difference
stops ``shift`` with one error before anything is computed, unless ``allow_different_designs`` is set; then
the differences are recorded in shift.json's settings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Sequence

from polibench.errors import PolibenchError
from polibench.report.markdown import short_model_name
from polibench.results.folder import RunFolder
from polibench.seeding import derive_seed
from polibench.shift.paired import PairedEstimate, item_keys, paired_estimates
from polibench.taskspec.schema import Instrument


def checkpoint_step(run: RunFolder) -> Optional[int]:
    """The training step when the run's model is a pretraining checkpoint (``checkpoint-<step>``), else None."""
    found = re.search(r"checkpoint-(\d+)", str(run.document.model.get("model") or ""))
    return int(found.group(1)) if found else None


@dataclass
class Comparison:
    """One run against the base on one task."""

    task: str
    base: str
    run: str
    step: Optional[int]
    items: int
    items_only_base: int
    items_only_run: int
    estimates: list[PairedEstimate] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"task": self.task, "base": self.base, "run": self.run, "step": self.step, "items": self.items,
                "items_only_base": self.items_only_base, "items_only_run": self.items_only_run,
                "estimates": [e.as_dict() for e in self.estimates]}


@dataclass
class ShiftResult:
    base: str
    runs: list[str]
    comparisons: list[Comparison]
    settings: dict

    def as_dict(self) -> dict:
        return {"format": "polibench.shift", "version": 1, "base": self.base, "runs": self.runs,
                "settings": self.settings, "comparisons": [c.as_dict() for c in self.comparisons]}


def load_run(path: Path) -> RunFolder:
    """A run folder whose results.json and samples.jsonl have been read (one clear error otherwise)."""
    path = Path(path)
    if not path.is_dir():
        raise PolibenchError(f"{path}: not a run folder (expected a folder written by `polibench run`)")
    return RunFolder(path).read()


def labels_for(runs: Sequence[RunFolder], given: Optional[Sequence[str]]) -> list[str]:
    if given is not None:
        if len(given) != len(runs):
            raise PolibenchError(f"--labels names {len(given)} runs; expected {len(runs)} (BASE_RUN and each RUN)")
        return list(given)
    out: list[str] = []
    for run in runs:
        model = str(run.document.model.get("model") or run.path.name)
        if Path(model).name in ("model", "final") and Path(model).parent.name:  # a pretrain run's model/ folder
            model = Path(model).parent.name
        label = short_model_name(model)
        step = checkpoint_step(run)
        if step is not None:
            label = f"{label} (step {step})" if f"checkpoint-{step}" not in label else label
        out.append(label if label not in out else f"{label} ({run.path.name})")
    return out


def shared_tasks(runs: Sequence[RunFolder], wanted: Optional[Sequence[str]]) -> list[str]:
    common = [t for t in runs[0].document.results if all(t in r.document.results for r in runs[1:])]
    if wanted:
        missing = {t: [str(r.path) for r in runs if t not in r.document.results] for t in wanted}
        missing = {t: paths for t, paths in missing.items() if paths}
        if missing:
            task, paths = next(iter(missing.items()))
            raise PolibenchError(f"--tasks: task '{task}' is not in {', '.join(paths)}")
        return list(wanted)
    if not common:
        raise PolibenchError("the runs share no task: " + "; ".join(f"{r.path}: {', '.join(r.document.results)}"
                                                                   for r in runs))
    return common


DECODING = ("max_new_tokens", "temperature", "top_k", "top_p", "stop")
TASK_FIELDS = ("version", "instrument", "forms", "variant_set", "scoring")


def _design(run: RunFolder, task: str) -> dict[str, object]:
    config = run.document.configs[task]
    generation = run.document.task_config(task).generation
    variant_set = run.document.variant_sets.get(str(config.get("variant_set", config.get("variants"))))
    return {
        **{f"task {name}": config.get(name, config.get("variants")) if name == "variant_set" else config.get(name)
           for name in TASK_FIELDS},
        "variant set": variant_set,
        "variants asked": sorted({s.variant for s in run.task_samples(task)}),
        "samples per prompt": run.document.run.samples_per_prompt or generation.samples,
        **{f"decoding {name}": getattr(generation, name) for name in DECODING},
    }


def design_differences(task: str, base: RunFolder, run: RunFolder) -> list[str]:
    """What differs between how ``base`` and ``run`` asked ``task`` (see the module doc), one line each."""
    a, b = _design(base, task), _design(run, task)
    return [f"{name}: {_short(a[name])} vs {_short(b[name])}" if name != "variant set"
            else "variant set: its prompt templates differ" for name in a if a[name] != b[name]]


def _short(value: object) -> str:
    text = str(value)
    return text if len(text) <= 60 else text[:57] + "..."


def check_designs(base: RunFolder, runs: Sequence[RunFolder], tasks: Sequence[str], allow: bool) -> list[str]:
    """Every design difference as 'RUN, task T: ...'; one error listing them unless ``allow``."""
    found = [f"{run.path}, task '{task}': {line}" for task in tasks for run in runs
             for line in design_differences(task, base, run)]
    if found and not allow:
        raise PolibenchError(f"shift: the runs did not ask the same way as the base run {base.path} ("
                             + "; ".join(found) + "); the paired test assumes they did. Pass "
                             "--allow-different-designs to compare them anyway (the differences are then recorded "
                             "in shift.json)")
    return found


def compare_pair(task: str, base: RunFolder, run: RunFolder, instruments: dict[str, Instrument], resamples: int,
                 permutations: int, seed: int) -> Comparison:
    a, b = base.task_samples(task), run.task_samples(task)
    keys_a, keys_b = item_keys(a), item_keys(b)
    common = keys_a & keys_b
    if not common:
        raise PolibenchError(f"task '{task}': {base.path} and {run.path} answered no statement in common")
    estimates = paired_estimates(a, b, instruments, resamples=resamples, permutations=permutations,
                                 seed=derive_seed(seed, task, "shift"))
    return Comparison(task=task, base=base.label, run=run.label, step=checkpoint_step(run), items=len(common),
                      items_only_base=len(keys_a - keys_b), items_only_run=len(keys_b - keys_a),
                      estimates=estimates)


def shift_runs(base_path: Path, run_paths: Sequence[Path], tasks: Optional[Sequence[str]] = None,
               labels: Optional[Sequence[str]] = None, resamples: int = 10_000, permutations: int = 10_000,
               seed: int = 0, allow_different_designs: bool = False) -> ShiftResult:
    if resamples < 100 or permutations < 100:
        raise PolibenchError("--resamples and --permutations must be at least 100")
    runs = [load_run(p) for p in [base_path, *run_paths]]
    for run, label in zip(runs, labels_for(runs, labels)):
        run.label = label
    base = runs[0]
    instruments = base.document.task_instruments()
    names = shared_tasks(runs, tasks)
    differences = check_designs(base, runs[1:], names, allow_different_designs)
    comparisons = [compare_pair(task, base, run, instruments, resamples, permutations, seed)
                   for task in names for run in runs[1:]]
    return ShiftResult(base=base.label, runs=[r.label for r in runs[1:]], comparisons=comparisons,
                       settings={"resamples": resamples, "permutations": permutations, "seed": seed,
                                 "interval": "paired percentile, item bootstrap stratified by instrument, "
                                             "dimension and side", "test": "sign-flip (paired permutation) "
                                                                           "over items, two-sided",
                                 "paths": [str(r.path) for r in runs],
                                 "allow_different_designs": allow_different_designs,
                                 "design_differences": differences})
