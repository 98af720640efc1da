"""The ``coverage`` metric: how much of a run produced usable answers, reported beside every result, overall and per
variant (its block, :class:`~polibench.metrics.blocks.Coverage`, stays in the engine: every task's results carry it).

Every response is exactly one of: *answered* (kept, labelled agree / disagree / neutral, or, on IssueBench tasks,
given a label by the grader, or, on paired-prompt tasks, graded with its pair), *unrelated* (kept,
labelled unrelated) or *filtered* (not kept: the scorer abstained, its confidence was under the threshold,
or the response was empty), so the three shares add up to 1. On forced-choice tasks, ``conflicting`` counts the
answers that named one option and then took it back or opposed it (the parser left them to the stance scorer).
"""

from __future__ import annotations

import numpy as np

from polibench.metrics.blocks import Coverage
from polibench.metrics.columns import LABELS, UNRELATED, ResponseTable
from polibench.metrics.registry import Metric, MetricInput

DIGITS = 4


def _share(part: int, total: int) -> float:
    return round(part / total, DIGITS) if total else 0.0


def answered_rows(table: ResponseTable) -> np.ndarray:
    """Kept responses with a stance label other than unrelated, or that a reading counts as answered (IssueBench:
    given a grader's label; paired prompts: graded with their pair)."""
    return (table.kept & (table.label >= 0) & (table.label != UNRELATED)) | table.answered_by_readings()


def shares(table: ResponseTable, rows: np.ndarray) -> dict:
    """Responses among ``rows`` and the answered / unrelated / filtered shares."""
    total = int(rows.sum())
    kept = rows & table.kept
    unrelated = int((kept & (table.label == UNRELATED)).sum())
    answered = int((rows & answered_rows(table)).sum())
    return {"responses": total, "answered_share": _share(answered, total),
            "unrelated_share": _share(unrelated, total), "filtered_share": _share(total - int(kept.sum()), total)}


def coverage(table: ResponseTable) -> dict:
    everything = np.ones(len(table), dtype=bool)
    kept = table.kept
    answered = answered_rows(table)
    reasons = dict(zip(table.reasons, np.bincount(table.reason[~kept], minlength=len(table.reasons)).tolist()))
    labels = np.bincount(table.label[kept & (table.label >= 0)], minlength=len(LABELS)).tolist()
    total, n_kept = len(table), int(kept.sum())
    return {
        "items": len(table.items),
        "items_answered": int(np.unique(table.item[answered]).size),
        "responses": total,
        "responses_kept": n_kept,
        "responses_filtered": total - n_kept,
        "filtered_low_confidence": reasons.get("low_confidence", 0),
        "filtered_abstained": reasons.get("abstained", 0),
        "filtered_empty": reasons.get("empty_response", 0),
        "kept_share": _share(n_kept, total),
        "kept_labels": {name: n for name, n in sorted(zip(LABELS, labels)) if n},
        **{k: v for k, v in shares(table, everything).items() if k != "responses"},
        "per_variant": {v: shares(table, table.variant == n) for n, v in enumerate(table.variants)},
        "per_form": {f: shares(table, table.form == n) for n, f in enumerate(table.forms)},
        **({} if table.conflicting is None else {"conflicting": int(table.conflicting.sum())}),
    }


NAME = "coverage"


def _coverage(data: MetricInput) -> Coverage:
    return Coverage.model_validate(coverage(data.table))


METRIC = Metric(
    name=NAME, key=NAME, block=Coverage, compute=_coverage,
    description="items and responses the numbers rest on, and why responses were filtered (always computed)",
)
