"""Compute a task's results from its scored samples and the resolved specs stored with the run.

This function is all that ``polibench run`` and ``polibench score`` use to turn samples into numbers,
so a results.json can always be recomputed from samples.jsonl. The bootstrap is seeded from the run seed
(the task's ``generation.seed`` unless ``--seed`` overrode it) and the task name, so a recomputation
reproduces every interval exactly. The layout of the returned block is documented in docs/metrics.md.
"""

from __future__ import annotations

from typing import Optional, Sequence

from polibench.metrics.bootstrap import DEFAULT_RESAMPLES, LEVEL, resample_weights
from polibench.metrics.columns import ResponseTable, build_table
from polibench.metrics.coverage import coverage
from polibench.metrics.faulborn import faulborn_block
from polibench.metrics.pct import pct_block
from polibench.records import Sample
from polibench.request_building import derive_seed
from polibench.taskspec.schema import Instrument, TaskConfig


def bootstrap_seed(task: TaskConfig, run_seed: Optional[int]) -> int:
    return derive_seed(task.generation.seed if run_seed is None else run_seed, task.task, "bootstrap")


def compute_task_results(task: TaskConfig, instruments: dict[str, Instrument], samples: Sequence[Sample],
                         seed: Optional[int] = None, resamples: int = DEFAULT_RESAMPLES) -> dict:
    """The ``results[task]`` block of results.json. ``seed`` is the run seed (None: the task's own)."""
    return results_from_table(task, instruments, build_table(samples), seed, resamples)


def results_from_table(task: TaskConfig, instruments: dict[str, Instrument], table: ResponseTable,
                       seed: Optional[int] = None, resamples: int = DEFAULT_RESAMPLES) -> dict:
    """:func:`compute_task_results` on an already built columnar view of the samples."""
    boot_seed = bootstrap_seed(task, seed)
    weights = resample_weights(table.strata(), resamples, boot_seed)
    result: dict = {}
    if "pct_coordinates" in task.metrics:
        for name in task.instruments:
            if instruments[name].scoring == "pct":
                result["pct"] = pct_block(table, instruments[name], weights)
    if "faulborn_bias" in task.metrics:
        result["faulborn_bias"] = faulborn_block(table, weights)
    result["coverage"] = coverage(table)
    result["bootstrap"] = {"resamples": resamples, "seed": boot_seed, "level": LEVEL, "unit": "item",
                           "strata": ["instrument", "dimension", "side"], "interval": "percentile"}
    return result
