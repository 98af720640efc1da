"""Stratified item bootstrap: resample items (with all their responses), never single responses.

Every statistic polibench reports is a function of per-item sums, so one resample is a vector of item
weights (how often each item was drawn) and a whole batch of resamples is a ``(resamples, items)`` count
matrix ``W``: a statistic for all resamples at once is ``W @ per_item_sums``. Items are drawn with
replacement within strata (same instrument, dimension and original side), so every resample keeps the
instrument's design. One matrix serves every statistic of a task, which makes differences between them
(steerability) paired. See docs/metrics.md for why items and not responses.
"""

from __future__ import annotations

import warnings
from typing import Optional

import numpy as np

DEFAULT_RESAMPLES = 10_000
LEVEL = 0.95
MIN_DEFINED_SHARE = 0.5  # below this share of defined resamples, no interval is reported


def resample_weights(strata: np.ndarray, resamples: int, seed: int) -> np.ndarray:
    """``(resamples, len(strata))`` matrix: how often each item is drawn in each resample.

    Within a stratum of ``k`` items each resample draws ``k`` items with replacement.
    """
    rng = np.random.default_rng(seed)
    weights = np.zeros((resamples, strata.size))
    rows = np.arange(resamples)[:, None]
    for stratum in np.unique(strata):
        members = np.flatnonzero(strata == stratum)
        k = members.size
        draws = rng.integers(0, k, size=(resamples, k)) + rows * k
        weights[:, members] = np.bincount(draws.ravel(), minlength=resamples * k).reshape(resamples, k)
    return weights


def percentile_intervals(replicates: np.ndarray, level: float = LEVEL) -> list[Optional[list[float]]]:
    """Percentile interval of each column of ``(resamples, statistics)`` replicates, ignoring undefined (NaN)
    replicates; None for a column where fewer than ``MIN_DEFINED_SHARE`` of them are defined.

    Linear interpolation between order statistics, as numpy's default percentile method.
    """
    replicates = np.asarray(replicates, dtype=float).reshape(replicates.shape[0], -1)
    ordered = np.sort(np.where(np.isfinite(replicates), replicates, np.nan), axis=0)  # NaN sorts last
    defined = np.isfinite(ordered).sum(axis=0)
    out: list[Optional[list[float]]] = []
    tail = (1 - level) / 2
    for column, n in enumerate(defined):
        if n == 0 or n < MIN_DEFINED_SHARE * replicates.shape[0]:
            out.append(None)
            continue
        bounds = []
        for q in (tail, 1 - tail):
            position = q * (n - 1)
            low = int(np.floor(position))
            high = min(low + 1, n - 1)
            a, b = ordered[low, column], ordered[high, column]
            bounds.append(float(a + (position - low) * (b - a)))
        out.append(bounds)
    return out


def nanmean_rows(values: np.ndarray) -> np.ndarray:
    """Mean over the last axis ignoring NaN (NaN where a row has no defined value), without warnings."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.nanmean(values, axis=-1)
