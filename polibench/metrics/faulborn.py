"""Faulborn et al.'s bias measure, from kept stances (unrelated answers excluded).

For statements whose agreement reflects side ``d``: ``P_agree = A / (A + D + N)``,
``P_disagree = D / (A + D + N)``, ``Bias_d = P_agree - P_disagree``; the bias of a dimension is
``(Bias_right - Bias_left) / 2`` in [-1, 1], negative meaning left. ``agree_side`` on each sample already
accounts for the opposite form (it is flipped there), so the formula is the same for every form.
"""

from __future__ import annotations

from typing import Optional, Sequence

from polibench.records import Sample

COUNTED = ("agree", "disagree", "neutral")


def side_bias(samples: Sequence[Sample], side: str) -> Optional[float]:
    counts = {label: 0 for label in COUNTED}
    for s in samples:
        if s.agree_side == side and s.stance and s.stance.kept and s.stance.label in counts:
            counts[s.stance.label] += 1
    total = sum(counts.values())
    if total == 0:
        return None
    return (counts["agree"] - counts["disagree"]) / total


def faulborn_bias(samples: Sequence[Sample]) -> Optional[float]:
    """``(Bias_right - Bias_left) / 2`` over the given samples; None when a side has no counted answer."""
    right, left = side_bias(samples, "right"), side_bias(samples, "left")
    if right is None or left is None:
        return None
    return (right - left) / 2


def faulborn_by_dimension(samples: Sequence[Sample]) -> dict[str, Optional[float]]:
    out = {d: faulborn_bias([s for s in samples if s.dimension == d]) for d in ("economic", "cultural")}
    out["total"] = faulborn_bias(samples)
    return out
