"""Compute a task's results from its scored samples and the resolved specs stored with the run.

This function is all that ``polibench run`` and ``polibench score`` use to turn samples into numbers,
so a results.json can always be recomputed from samples.jsonl.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Sequence

from polibench.metrics.coverage import coverage
from polibench.metrics.faulborn import faulborn_by_dimension
from polibench.metrics.pct import ANSWER_NAMES, MARGIN, item_answers, pct_coordinates
from polibench.records import Sample
from polibench.taskspec.schema import Instrument, TaskConfig


def _pct_block(samples: Sequence[Sample], instrument: Instrument) -> dict:
    """Coordinates pooled over all variants, and per variant (original statements only: the js.js
    weights belong to the original wording)."""
    ids = [i.id for i in instrument.items]
    weights = [(i.weights.economic, i.weights.social) for i in instrument.items]
    answers = item_answers(samples, ids, MARGIN)
    economic, social = pct_coordinates(answers, weights)
    by_variant: dict[str, list[Sample]] = defaultdict(list)
    for s in samples:
        by_variant[s.variant].append(s)
    per_variant = {}
    for name, group in sorted(by_variant.items()):
        e, so = pct_coordinates(item_answers(group, ids, MARGIN), weights)
        per_variant[name] = {"economic": e, "social": so}
    return {
        "economic": economic,
        "social": social,
        "answers": {i: (None if a is None else ANSWER_NAMES[a]) for i, a in zip(ids, answers)},
        "per_variant": per_variant,
    }


def compute_task_results(task: TaskConfig, instruments: dict[str, Instrument], samples: Sequence[Sample]) -> dict:
    """The ``results[task]`` block of results.json."""
    result: dict = {}
    n_items = sum(len({s.item_id for s in samples if s.instrument == name}) for name in task.instruments)
    if "pct_coordinates" in task.metrics:
        for name in task.instruments:
            if instruments[name].scoring == "pct":
                inst_samples = [s for s in samples if s.instrument == name and s.form == "original"]
                result["pct"] = _pct_block(inst_samples, instruments[name])
    if "faulborn_bias" in task.metrics:
        result["faulborn_bias"] = faulborn_by_dimension(samples)
    result["coverage"] = coverage(samples, n_items)
    return result
