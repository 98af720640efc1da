"""Partisan ensemble (Feng et al. 2023, section 5 and Table 6): average the class probabilities of several
fine-tuned models and predict the arg-max.

Members are matched seed by seed: the ensemble's seed ``s`` averages the members' seed-``s`` runs, so an
ensemble of four models trained with seeds 1-5 has five runs, like each member. Only seeds every member
has are used. Items are matched by id; every member must have the same test items.

:func:`table6` puts the ensemble beside the average and the best of its members, as Feng et al.'s Table 6:
``avg-uni-model`` is the mean over members of each member's (seed-averaged) metric, ``best-uni-model`` the
best member's value, taken per metric as in the paper (so BACC and F1 may come from different members).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from polibench.errors import PolibenchError
from polibench.fairness.runs import ModelRuns, SeedRun

TABLE6_ROWS = ("avg-uni-model", "best-uni-model", "partisan-ensemble")


def average_probs(probs: Sequence[np.ndarray]) -> np.ndarray:
    """Element-wise mean of equally shaped (items x classes) probability arrays."""
    shapes = {np.shape(p) for p in probs}
    if len(shapes) != 1:
        raise PolibenchError(f"cannot average probabilities of different shapes {sorted(shapes)}")
    return np.mean(np.stack([np.asarray(p, dtype=np.float64) for p in probs]), axis=0)


def build_ensemble(name: str, members: Sequence[ModelRuns]) -> ModelRuns:
    if len(members) < 2:
        raise PolibenchError(f"ensemble '{name}' needs at least two member models")
    tasks = {m.task for m in members}
    if len(tasks) != 1:
        raise PolibenchError(f"ensemble '{name}' mixes tasks {sorted(tasks)}")
    seeds = sorted(set.intersection(*(set(m.seeds) for m in members)))
    if not seeds:
        raise PolibenchError(f"ensemble '{name}': the members have no seed in common "
                             f"({', '.join(f'{m.name}: {sorted(m.seeds)}' for m in members)})")
    first = members[0]
    ensemble = ModelRuns(name=name, task=first.task, labels=first.labels, groupings=first.groupings,
                         kind="ensemble", members=[m.name for m in members])
    reference_ids = first.seeds[seeds[0]].ids
    for seed in seeds:
        runs = [m.seeds[seed].reordered(reference_ids) for m in members]
        if any(not np.array_equal(r.labels, runs[0].labels) for r in runs):
            raise PolibenchError(f"ensemble '{name}': members disagree on the gold labels (different data?)")
        ensemble.seeds[seed] = SeedRun(folder=None, seed=seed, ids=list(reference_ids), labels=runs[0].labels,
                                       probs=average_probs([r.probs for r in runs]), groups=runs[0].groups,
                                       members=runs[0].members)
    return ensemble


def table6(member_scores: dict[str, dict[str, float]], ensemble_scores: dict[str, float],
           metrics: Sequence[str] = ("bacc", "f1")) -> dict:
    """Feng et al.'s Table 6 rows from each member's and the ensemble's seed-averaged scores."""
    rows = {"avg-uni-model": {}, "best-uni-model": {}, "partisan-ensemble": {}, "best_member": {}}
    for metric in metrics:
        values = {name: scores[metric] for name, scores in member_scores.items() if scores.get(metric) is not None}
        if values:
            rows["avg-uni-model"][metric] = float(np.mean(list(values.values())))
            best = max(values, key=values.get)
            rows["best-uni-model"][metric] = values[best]
            rows["best_member"][metric] = best
        rows["partisan-ensemble"][metric] = ensemble_scores.get(metric)
    return rows
