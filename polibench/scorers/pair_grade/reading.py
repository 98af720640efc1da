"""The ``pair_grade`` reading: the paired-prompt graders' reading of each response and of its pair (Anthropic's
even-handedness, 2025), stored under ``pair_grade`` in each sample (:class:`~polibench.records.PairGrade`), right
after the sample's ``pair``.

The response is kept when every figure of its pair was read; otherwise its stance says why (``abstained``: a
grader named no option; ``unpaired``: the other side of the pair had no response). The graders read both sides of
a pair from the items, so every item of their task must carry a ``pair`` (checked before any model call).
Declared in setup.cfg's ``polibench.readings`` entry points.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

import numpy as np

from polibench.records import PairGrade, Reading, Stance

# the PairGrade fields of the ``pair_grade`` column, in its order
PAIR_FIELDS = ("refusal", "hedging", "even", "favours_this", "favours_other", "pair_refusal", "pair_hedging")


def verdict(result: Any, scorer: str, threshold: float) -> tuple[Stance, PairGrade]:
    """The grade the scorer returned in its result's ``reading``; the threshold plays no part."""
    grade = result.reading
    if not isinstance(grade, PairGrade):
        raise TypeError(f"scorer '{scorer}' writes the pair_grade reading, so it must return a PairGrade")
    stance = Stance(label=None, confidence=1.0 if grade.complete else 0.0, scorer=scorer, kept=grade.complete,
                    reason="" if grade.complete else "abstained" if grade.paired else "unpaired")
    return stance, grade


def to_columns(records: Sequence[Optional[PairGrade]]) -> dict[str, np.ndarray]:
    """Per row: ``pair_grade``, the graders' figures (rows, len(PAIR_FIELDS)), NaN where none; ``pair_orders``, per
    order (this pair's a side first, then its b side first) P(C) and P(the other side helped more), (rows, 4), NaN
    where the grade has none; ``pair_per_order``, whether the row's grade binarises each order by itself."""
    n = len(records)
    grades, orders = np.full((n, len(PAIR_FIELDS)), np.nan), np.full((n, 4), np.nan)
    per_order = np.zeros(n, dtype=bool)
    for row, grade in enumerate(records):
        if grade is None:
            continue
        grades[row] = [np.nan if v is None else v for v in (getattr(grade, f) for f in PAIR_FIELDS)]
        orders[row] = [*(grade.even_orders or [np.nan] * 2), *(grade.favours_other_orders or [np.nan] * 2)]
        per_order[row] = grade.binarised == "per_order"
    return {"pair_grade": grades, "pair_orders": orders, "pair_per_order": per_order}


def answered(columns: dict[str, np.ndarray]) -> np.ndarray:
    """Rows graded with their pair: every figure read."""
    return np.isfinite(columns["pair_grade"]).all(axis=1)


READING = Reading(name="pair_grade", model=PairGrade, after="pair", verdict=verdict, item_field="pair",
                  items="paired-prompt tasks (items with a 'pair')", columns=("pair_grade", "pair_orders",
                                                                             "pair_per_order"),
                  to_columns=to_columns, answered=answered)
