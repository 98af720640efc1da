"""The ``issue_stance`` reading: an issue-stance grader's label of each written response on IssueBench's scale
(``1`` exclusively pro ... ``5`` exclusively con, or ``refusal``), stored under ``issue_stance`` in each sample it
read (:class:`~polibench.records.IssueStance`), right after the sample's ``issue``.

The response is kept when the grader named a label with at least the threshold's confidence. The grader reads the
issue's three framings from the item, so every item of its task must carry an ``issue`` (checked before any model
call). Declared in setup.cfg's ``polibench.readings`` entry points.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

import numpy as np

from polibench.records import ISSUE_LABELS, NO_LABEL, IssueStance, Reading, Stance


def verdict(result: Any, scorer: str, threshold: float) -> tuple[Stance, IssueStance]:
    """The grader's label on its own scale (no stance label); kept when named with the threshold's confidence."""
    kept = result.label is not None and result.confidence >= threshold
    grade = IssueStance(label=result.label, confidence=round(result.confidence, 6),
                        probs={k: round(v, 6) for k, v in result.probs.items()}, scorer=scorer)
    stance = Stance(label=None, confidence=round(result.confidence, 6), scorer=scorer, kept=kept,
                    reason="" if kept else "abstained" if result.label is None else "low_confidence")
    return stance, grade


def to_columns(records: Sequence[Optional[IssueStance]]) -> dict[str, np.ndarray]:
    """``issue_label``: the grader's label per row as an index into :data:`~polibench.records.ISSUE_LABELS` (1..5,
    refusal), -1 where none; no column when no record carries a label."""
    code = {name: n for n, name in enumerate(ISSUE_LABELS)}
    labels = [None if r is None else r.label for r in records]
    if all(label is None for label in labels):
        return {}
    return {"issue_label": np.array([NO_LABEL if label is None else code[label] for label in labels], dtype=np.int8)}


def answered(columns: dict[str, np.ndarray]) -> np.ndarray:
    """Rows the grader gave a label."""
    return columns["issue_label"] >= 0


READING = Reading(name="issue_stance", model=IssueStance, after="issue", verdict=verdict, item_field="issue",
                  items="IssueBench tasks (items with an 'issue')", columns=("issue_label",), to_columns=to_columns,
                  answered=answered)
