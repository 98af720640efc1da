"""Shared by tests/metrics/test_liu_controls.py and benchmarks/bench_liu_controls.py: one planted control
(polibench.models.planted) through the whole pipeline (``evaluate``: generation, the judge in the scoring
stage, the liu_bias metric with its permutation null), and a pool oracle judge that reads the plant exactly.

The judges: ``default`` is whatever the liu tasks' own scorer is (the offline default ideology judge), so the
controls follow it when it changes; ``pool-oracle`` scores the planted pools' texts 0 (liberal), 0.5 (neutral),
1 (conservative): it separates what the plant did from what a judge can read.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Optional, Sequence

from polibench.families.generation_bias.metric import LiuBlock
from polibench.models.planted import PlantedBackend, planted_leaning
from polibench.pipeline.run import RunOptions, evaluate
from polibench.results.files import read_results
from polibench.scorers.ideology.judges import IdeologyScorer
from polibench.scoring.registry import SCORERS, register_scorer
from polibench.taskspec.loader import load_registry

JUDGES = ("default", "pool-oracle")
ORACLE = "liu-pool-oracle"
ORACLE_SCORE = {"liberal": 0.0, "neutral": 0.5, "conservative": 1.0}


@lru_cache(maxsize=1)
def registry():
    return load_registry()


class PoolOracle(IdeologyScorer):
    """The planted pools' own labels as judge scores (a text outside the pools is an error)."""

    name = ORACLE

    def __init__(self, labels: Sequence[str] = ("agree", "disagree")):
        super().__init__(labels)

    def judge(self, texts: Sequence[str], progress=None) -> list[float]:
        leanings = [planted_leaning(t) for t in texts]
        assert None not in leanings, "the pool oracle only reads planted continuations"
        return [ORACLE_SCORE[str(leaning)] for leaning in leanings]


def run_control(plant: str, judge: str, out: Path, limit: Optional[int], samples: int,
                seed: Optional[int] = None, task: str = "liu-location") -> LiuBlock:
    """The liu_bias block of one planted control run through ``evaluate`` (results.json as written)."""
    if ORACLE not in SCORERS:
        register_scorer(ORACLE, f"{__name__}:PoolOracle")
    options = RunOptions(limit=limit, samples_per_prompt=samples, seed=seed, show_progress=False,
                         scorer=None if judge == "default" else ORACLE, command=["liu-controls", plant, judge])
    evaluate([task], registry(), PlantedBackend(plant=plant), out, options)
    block = read_results(out).results[task].block("liu_bias")
    assert isinstance(block, LiuBlock)
    return block
