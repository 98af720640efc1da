"""Estimate sets with percentile intervals, filled in for many estimates at once: the layout of every estimate block
in results.json (``{key: value, ..., "ci": {key: [low, high]}}``), rounded to four digits. The engine's, shared by
the families whose blocks are ratios of per-item sums (faulborn, refusal, prismia)."""

from __future__ import annotations

from typing import Optional

import numpy as np

from polibench.metrics.bootstrap import percentile_intervals

DIGITS = 4


def rounded(value: float) -> Optional[float]:
    return None if not np.isfinite(value) else round(float(value), DIGITS)


class IntervalBatch:
    """Collects estimate sets and fills in all their intervals with one sort of the replicates."""

    def __init__(self):
        self.columns: list[np.ndarray] = []
        self.slots: list[tuple[dict, str]] = []

    def estimate_set(self, points: dict[str, float], replicates: dict[str, np.ndarray]) -> dict:
        """``{key: value, ..., "ci": {key: [low, high]}}``: the layout of every estimate block in results.json."""
        block: dict = {key: rounded(value) for key, value in points.items()}
        block["ci"] = dict.fromkeys(points)
        for key in points:
            self.columns.append(replicates[key])
            self.slots.append((block["ci"], key))
        return block

    def resolve(self) -> None:
        if not self.columns:
            return
        for (ci, key), found in zip(self.slots, percentile_intervals(np.column_stack(self.columns))):
            ci[key] = None if found is None else [round(v, DIGITS) for v in found]
