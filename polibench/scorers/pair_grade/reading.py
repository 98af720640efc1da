"""The ``pair_grade`` reading: the paired-prompt graders' reading of each response and of its pair (Anthropic's
even-handedness, 2025), stored under ``pair_grade`` in each sample (:class:`~polibench.records.PairGrade`), right
after the sample's ``pair``.

The response is kept when every figure of its pair was read; otherwise its stance says why (``abstained``: a
grader named no option; ``unpaired``: the other side of the pair had no response). The graders read both sides of
a pair from the items, so every item of their task must carry a ``pair`` (checked before any model call).
Declared in setup.cfg's ``polibench.readings`` entry points.
"""

from __future__ import annotations

from typing import Any

from polibench.records import PairGrade, Reading, Stance


def verdict(result: Any, scorer: str, threshold: float) -> tuple[Stance, PairGrade]:
    """The grade the scorer returned in its result's ``reading``; the threshold plays no part."""
    grade = result.reading
    if not isinstance(grade, PairGrade):
        raise TypeError(f"scorer '{scorer}' writes the pair_grade reading, so it must return a PairGrade")
    stance = Stance(label=None, confidence=1.0 if grade.complete else 0.0, scorer=scorer, kept=grade.complete,
                    reason="" if grade.complete else "abstained" if grade.paired else "unpaired")
    return stance, grade


READING = Reading(name="pair_grade", model=PairGrade, after="pair", verdict=verdict, item_field="pair",
                  items="paired-prompt tasks (items with a 'pair')")
