"""The ``issue_stance`` reading: an issue-stance grader's label of each written response on IssueBench's scale
(``1`` exclusively pro ... ``5`` exclusively con, or ``refusal``), stored under ``issue_stance`` in each sample it
read (:class:`~polibench.records.IssueStance`), right after the sample's ``issue``.

The response is kept when the grader named a label with at least the threshold's confidence. The grader reads the
issue's three framings from the item, so every item of its task must carry an ``issue`` (checked before any model
call). Declared in setup.cfg's ``polibench.readings`` entry points.
"""

from __future__ import annotations

from typing import Any

from polibench.records import IssueStance, Reading, Stance


def verdict(result: Any, scorer: str, threshold: float) -> tuple[Stance, IssueStance]:
    """The grader's label on its own scale (no stance label); kept when named with the threshold's confidence."""
    kept = result.label is not None and result.confidence >= threshold
    grade = IssueStance(label=result.label, confidence=round(result.confidence, 6),
                        probs={k: round(v, 6) for k, v in result.probs.items()}, scorer=scorer)
    stance = Stance(label=None, confidence=round(result.confidence, 6), scorer=scorer, kept=kept,
                    reason="" if kept else "abstained" if result.label is None else "low_confidence")
    return stance, grade


READING = Reading(name="issue_stance", model=IssueStance, after="issue", verdict=verdict, item_field="issue",
                  items="IssueBench tasks (items with an 'issue')")
