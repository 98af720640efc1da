"""Read the seed folders written by ``polibench fairness train`` and group them by (task, model name).

A path given to ``polibench fairness eval`` may be a seed folder or any folder above seed folders
(``runs/``, ``runs/roberta/``, ``runs/roberta/hate-identity/``); every folder below it holding both
``run.json`` and ``predictions.jsonl`` is one seed of one model on one task.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Optional

import numpy as np

from polibench.errors import PolibenchError
from polibench.fairness.train import PREDICTIONS, RUN, RUN_FORMAT
from polibench.kit.jsonl import iter_jsonl, line_error


@dataclass
class SeedRun:
    """The test predictions of one fine-tuning run, items in file order."""

    folder: Optional[Path]
    seed: int
    ids: list[str]
    labels: np.ndarray
    probs: np.ndarray
    groups: dict[str, list]
    members: dict[str, list]

    def reordered(self, ids: list[str]) -> SeedRun:
        """The same run with items in the order of ``ids`` (which must be the same set)."""
        if ids == self.ids:
            return self
        position = {item: n for n, item in enumerate(self.ids)}
        if len(ids) != len(self.ids) or any(i not in position for i in ids):
            raise PolibenchError(f"{self.folder}: its test items differ from the other runs' (different data?)")
        order = [position[i] for i in ids]
        return SeedRun(folder=self.folder, seed=self.seed, ids=list(ids), labels=self.labels[order],
                       probs=self.probs[order], groups={k: [v[n] for n in order] for k, v in self.groups.items()},
                       members={k: [v[n] for n in order] for k, v in self.members.items()})


@dataclass
class ModelRuns:
    """All seeds of one model (or ensemble) on one task."""

    name: str
    task: str
    labels: dict
    groupings: dict[str, list[str]]
    seeds: dict[int, SeedRun] = field(default_factory=dict)
    kind: str = "model"
    members: Optional[list[str]] = None

    def aligned(self) -> list[SeedRun]:
        """Seed runs sorted by seed, every one in the item order of the first."""
        runs = [self.seeds[s] for s in sorted(self.seeds)]
        return [r.reordered(runs[0].ids) for r in runs]


def read_seed(folder: Path) -> tuple[dict, SeedRun]:
    try:
        record = json.loads((folder / RUN).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise PolibenchError(f"{folder / RUN}: not a readable run record ({exc})") from None
    if record.get("format") != RUN_FORMAT:
        raise PolibenchError(f"{folder / RUN}: not a polibench fairness run (format {record.get('format')!r})")
    ids, labels, probs, groups, members = [], [], [], {}, {}
    for lineno, row in iter_jsonl(folder / PREDICTIONS):
        try:
            ids.append(str(row["id"]))
            labels.append(int(row["label"]))
            probs.append([float(p) for p in row["probs"]])
        except (KeyError, TypeError, ValueError) as exc:
            raise line_error(folder / PREDICTIONS, lineno, f"expected a prediction with id, label and probs "
                                                           f"({type(exc).__name__}: {exc})") from None
        for key, value in (row.get("groups") or {}).items():
            groups.setdefault(key, []).append(value)
        for key, value in (row.get("members") or {}).items():
            members.setdefault(key, []).append(value or [])
    if not ids:
        raise PolibenchError(f"{folder / PREDICTIONS}: no predictions")
    run = SeedRun(folder=folder, seed=int(record["seed"]), ids=ids, labels=np.array(labels), probs=np.array(probs),
                  groups=groups, members=members)
    return record, run


def seed_folders(paths: Iterable[Path]) -> list[Path]:
    found = []
    for path in map(Path, paths):
        if not path.exists():
            raise PolibenchError(f"{path}: no such run folder")
        if (path / RUN).is_file() and (path / PREDICTIONS).is_file():
            found.append(path)
            continue
        found.extend(sorted(p.parent for p in path.rglob(RUN) if (p.parent / PREDICTIONS).is_file()))
    if not found:
        raise PolibenchError("no fairness runs (folders with run.json and predictions.jsonl) under "
                             + ", ".join(map(str, paths)))
    return sorted(set(found))


def collect(paths: Iterable[Path]) -> dict[str, dict[str, ModelRuns]]:
    """``{task: {model name: ModelRuns}}`` of every seed folder under ``paths``."""
    out: dict[str, dict[str, ModelRuns]] = {}
    for folder in seed_folders(paths):
        record, run = read_seed(folder)
        task, name = record["task"], record["model"]["name"]
        groupings = record.get("groupings") or {k: sorted({g for g in v if g}) for k, v in run.groups.items()}
        model = out.setdefault(task, {}).setdefault(
            name, ModelRuns(name=name, task=task, labels=record.get("labels", {}), groupings=groupings))
        if run.seed in model.seeds:
            raise PolibenchError(f"two runs of model '{name}' on '{task}' with seed {run.seed}: "
                                 f"{model.seeds[run.seed].folder} and {folder}")
        model.seeds[run.seed] = run
    return out
