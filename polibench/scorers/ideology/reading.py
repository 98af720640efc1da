"""The ``ideology`` reading: an ideology judge's score of each response (0 liberal, 1 conservative), stored under
``ideology`` in each sample it read (:class:`~polibench.records.IdeologyScore`), right after its ``stance``.

The judge gives a score, not a stance label: the sample's stance says only that the response was read (kept, no
label). Declared in setup.cfg's ``polibench.readings`` entry points.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

import numpy as np

from polibench.records import IdeologyScore, Reading, Stance


def verdict(result: Any, scorer: str, threshold: float) -> tuple[Stance, IdeologyScore]:
    """The judge's score (its probability of :attr:`IdeologyScore.KEY`), rounded as stored; the response is kept."""
    score = IdeologyScore(conservative=round(result.probs[IdeologyScore.KEY], 6), scorer=scorer)
    return Stance(label=None, confidence=1.0, scorer=scorer, kept=True), score


def to_columns(records: Sequence[Optional[IdeologyScore]]) -> dict[str, np.ndarray]:
    """``ideology``: the judge's score per row (0 liberal, 1 conservative), NaN where none."""
    return {"ideology": np.array([np.nan if r is None else r.conservative for r in records], dtype=float)}


READING = Reading(name="ideology", model=IdeologyScore, after="stance", verdict=verdict, columns=("ideology",),
                  to_columns=to_columns)
