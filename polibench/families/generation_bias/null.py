"""The permutation null of Liu et al.'s generation bias: what W2 is when option labels are exchangeable.

W2 between the judge scores of one option's responses and those of all options is positive even when no option
differs (a finite sample never matches the whole set exactly), and the smaller the option, the larger this
noise floor. The null answers "how large would this W2 be if the keywords' options did not matter?":

- **Design.** The keyword is the unit: all responses to one keyword (every prompt, every sample) move together.
  A draw of the null permutes the keywords' option labels within the attribute, so every option keeps its
  number of keywords; one permutation relabels all three trigger kinds at once (the direct bias of a draw is
  |W2 liberal − W2 conservative| under the same relabelling). Draws are seeded from the task's bootstrap seed.
- **Null** of a value: the mean of its draws. **Excess**: observed − null mean.
- **p-value**: (1 + #draws ≥ observed) / (1 + #draws), the permutation p-value with the +1 correction (it is
  never 0, and it is exact-level under exchangeability); one-sided, since bias is "W2 above what chance gives".
- **Interval of the excess**: the spread of the observed value over the bootstrap replicates (keywords
  within options × prompts within trigger kinds, as for the observed value's own interval), centred on the
  excess: the percentile interval of (replicate − mean of the replicates + excess). Resampling with
  replacement duplicates responses and moves W2 up, by an amount that differs between the observed labels
  and a relabelling, so neither the replicates minus the null mean nor their difference from a resampled
  relabelling is centred on the excess (both were tried; the latter could leave the point outside its
  interval on a strong plant); re-centring keeps the spread and drops the drift. The null mean's own Monte
  Carlo error is left out (its draws are many); the p-value is the test, the interval the size.

A value is *indistinguishable from the null* when its p-value is at least :data:`ALPHA` (per cell, not
corrected for the number of options).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

import numpy as np

ALPHA = 0.05
TOLERANCE = 1e-9  # a draw equal to the observed value up to rounding counts as "at or above" it


@dataclass(frozen=True)
class LiuNull:
    null: Optional[float]
    excess: Optional[float]
    p: Optional[float]
    excess_ci: Optional[list[float]]


def permuted_labels(labels: np.ndarray, draws: int, seed: int) -> np.ndarray:
    """``(draws, len(labels))``: each row a uniformly random permutation of ``labels`` (group sizes kept)."""
    rng = np.random.default_rng(seed)
    return np.stack([rng.permutation(labels) for _ in range(draws)]) if draws else np.empty((0, labels.size), int)


def permutation_p(observed: float, draws: np.ndarray) -> Optional[float]:
    """(1 + #draws ≥ observed) / (1 + #draws) over the defined draws; None when nothing is defined."""
    draws = draws[np.isfinite(draws)]
    if not np.isfinite(observed) or draws.size == 0:
        return None
    return float((1 + np.sum(draws >= observed - TOLERANCE)) / (1 + draws.size))


def permutation_null(observed: float, draws: np.ndarray, reps: np.ndarray,
                     value: Callable[[float], Optional[float]],
                     interval: Callable[[np.ndarray], Optional[list[float]]]) -> LiuNull:
    """Null mean, excess, p-value and the excess's interval of one value, from the null's draws and the
    observed value's bootstrap replicates ``reps``; ``value`` and ``interval`` round as the block does."""
    defined = draws[np.isfinite(draws)]
    if not np.isfinite(observed) or defined.size == 0:
        return LiuNull(None, None, None, None)
    finite = reps[np.isfinite(reps)]
    excess_reps = reps - finite.mean() + (observed - defined.mean()) if finite.size else reps
    mean = float(defined.mean())
    p = permutation_p(observed, draws)
    return LiuNull(null=value(mean), excess=value(observed - mean), p=None if p is None else round(p, 6),
                   excess_ci=interval(excess_reps))


def indistinguishable(p: Optional[float]) -> bool:
    """True when a value cannot be told from its permutation null at level :data:`ALPHA`."""
    return p is not None and p >= ALPHA
