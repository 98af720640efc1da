"""Recompute a run's numbers from its samples and compare them with what is stored: the one comparison behind
``polibench score --check``, ``polibench submit`` and ``polibench leaderboard verify``.

:func:`check` recomputes every task's results and the run-level metrics from the samples (with the specs, seed and
bootstrap resamples the results document stores) and compares them, the number of samples per task and, when given,
the SHA-256 of samples.jsonl with the document. Numbers are compared with one tolerance (:data:`REL_TOL`,
:data:`ABS_TOL`): a stored number matches its recomputation when ``math.isclose(stored, recomputed,
rel_tol=REL_TOL, abs_tol=ABS_TOL)``, or when both are NaN, so that a float written to JSON and read back on another
machine still matches while a change a reader could see (1e-6 relative) does not. Everything else (strings, labels,
lists' lengths, missing keys) must be equal.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Any, Mapping, Optional, Sequence

from polibench.metrics.bootstrap import DEFAULT_RESAMPLES
from polibench.metrics.compute import compute_task_results
from polibench.metrics.run_level import RunMetrics, compute_run_metrics
from polibench.records import Sample
from polibench.results.document import ResultsDocument, TaskResults, results_json

__all__ = ["ABS_TOL", "REL_TOL", "Checked", "Difference", "check", "count_differences", "describe", "differences",
           "recompute", "recompute_run_metrics", "results_json", "same_number", "sample_counts"]

REL_TOL = 1e-9
ABS_TOL = 1e-12


@dataclass(frozen=True)
class Difference:
    """One place where two trees disagree: ``path`` like ``results.pct.pct.economic``,
    ``run_metrics.controls.pct.agree_share.share``, ``n_samples.pct`` or ``samples_sha256``."""

    path: str
    stored: Any
    recomputed: Any


def same_number(stored: float, recomputed: float) -> bool:
    """Whether two numbers match within the one tolerance (NaN matches NaN)."""
    if math.isnan(stored) and math.isnan(recomputed):
        return True
    return math.isclose(stored, recomputed, rel_tol=REL_TOL, abs_tol=ABS_TOL)


def differences(stored: Any, recomputed: Any, path: str = "") -> list[Difference]:
    """Every place where two JSON-like trees disagree, in the stored tree's key order; an empty list when they match.
    Numbers (not booleans) match within :data:`REL_TOL`/:data:`ABS_TOL`; anything else must be equal."""
    numeric = (int, float)
    if isinstance(stored, numeric) and isinstance(recomputed, numeric) \
            and not isinstance(stored, bool) and not isinstance(recomputed, bool):
        return [] if same_number(float(stored), float(recomputed)) else [Difference(path, stored, recomputed)]
    if isinstance(stored, dict) and isinstance(recomputed, dict):
        out = []
        for key in list(stored) + [k for k in recomputed if k not in stored]:
            sub = f"{path}.{key}" if path else str(key)
            if key not in stored:
                out.append(Difference(sub, "(missing)", recomputed[key]))
            elif key not in recomputed:
                out.append(Difference(sub, stored[key], "(missing)"))
            else:
                out.extend(differences(stored[key], recomputed[key], sub))
        return out
    if isinstance(stored, (list, tuple)) and isinstance(recomputed, (list, tuple)):
        if len(stored) != len(recomputed):
            return [Difference(path, f"{len(stored)} values", f"{len(recomputed)} values")]
        out = []
        for i, (a, b) in enumerate(zip(stored, recomputed)):
            out.extend(differences(a, b, f"{path}[{i}]"))
        return out
    return [] if stored == recomputed else [Difference(path, stored, recomputed)]


def describe(found: Sequence[Difference], what: str = "stored", against: str = "recomputed", most: int = 3) -> str:
    """``'results.t.block.value: stored 1.5, recomputed 0.38'`` for the first ``most`` differences."""
    shown = [f"{d.path or '(root)'}: {what} {_short(d.stored)}, {against} {_short(d.recomputed)}" for d in found[:most]]
    more = f" (and {len(found) - most} more)" if len(found) > most else ""
    return "; ".join(shown) + more


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def recompute(document: ResultsDocument, samples: Sequence[Sample]) -> dict[str, TaskResults]:
    """Every task's results from ``samples`` and the specs stored in ``document``. The bootstrap uses the run's
    seed and the stored number of resamples, so an untouched run is reproduced exactly."""
    instruments = document.task_instruments()
    recomputed = {}
    for name in document.configs:
        task = document.task_config(name)
        stored = document.results.get(name)
        resamples = stored.bootstrap.resamples if stored is not None else DEFAULT_RESAMPLES
        blocks = compute_task_results(task, instruments, [s for s in samples if s.task == name],
                                      seed=document.run.seed, resamples=resamples)
        recomputed[name] = TaskResults.from_blocks(blocks)
    return recomputed


def recompute_run_metrics(document: ResultsDocument, samples: Sequence[Sample],
                          results: dict[str, TaskResults]) -> RunMetrics:
    """The run-level metrics (comparisons between tasks, instrument controls) from ``samples``, the specs stored in
    ``document`` and the task ``results`` (stored or recomputed)."""
    tasks = {name: document.task_config(name) for name in document.configs}
    return compute_run_metrics(tasks, document.task_instruments(), samples, results, document.run.seed,
                               document.model)


def sample_counts(n_samples: Mapping[str, int], samples: Sequence[Sample]) -> dict[str, int]:
    """The samples per task: every task the recorded ``n_samples`` names (0 when none is there), in its order, then
    any other task the samples hold."""
    found = Counter(s.task for s in samples)
    return {**{task: found.get(task, 0) for task in n_samples}, **found}


def count_differences(n_samples: Mapping[str, int], samples: Sequence[Sample]) -> list[Difference]:
    """Where the samples per task differ from the recorded ``n_samples`` (paths ``n_samples.<task>``): the one
    sample-count check, made by :func:`check` (``score --check``, ``submit``, ``leaderboard verify``), by re-scoring
    (``score --scorer``, against results.json) and by ``merge`` (against each shard's shard.json)."""
    return differences(dict(n_samples), sample_counts(n_samples, samples), "n_samples")


@dataclass(frozen=True)
class Checked:
    """A results document against its samples: the recomputed numbers and where they disagree."""

    document: ResultsDocument
    results: dict[str, TaskResults]  # recomputed
    run_metrics: RunMetrics  # recomputed
    differences: tuple[Difference, ...]  # samples per task, results, run-level metrics, samples.jsonl's SHA-256

    @property
    def matches(self) -> bool:
        return not self.differences

    def why(self, where: str) -> str:
        """One line saying what disagrees, e.g. ``run: results.json DIFFERS from the numbers recomputed from
        samples.jsonl: results.pct.pct.economic: stored 1.38, recomputed 0.38``."""
        return (f"{where}: results.json DIFFERS from the numbers recomputed from samples.jsonl: "
                f"{describe(self.differences)}")


def check(document: ResultsDocument, samples: Sequence[Sample], samples_sha256: Optional[str] = None) -> Checked:
    """Every task's results and the run-level metrics recomputed from ``samples`` (with the specs, seed and resamples
    the document stores) and compared with the document; the samples per task against ``document.n_samples``; and,
    when both are known, ``samples_sha256`` (of the samples file as read) against the one the document recorded.
    The sample counts come first among the differences: a missing or extra sample is the cause of every number it
    moves."""
    results = recompute(document, samples)
    run_metrics = recompute_run_metrics(document, samples, results)
    found = count_differences(document.n_samples, samples)
    found += differences(document.results_json(), results_json(results), "results")
    found += differences(document.run_metrics.model_dump(mode="json"), run_metrics.model_dump(mode="json"),
                         "run_metrics")
    recorded = document.samples_sha256
    if samples_sha256 is not None and recorded and recorded != samples_sha256:
        found.append(Difference("samples_sha256", recorded, samples_sha256))
    return Checked(document=document, results=results, run_metrics=run_metrics, differences=tuple(found))
