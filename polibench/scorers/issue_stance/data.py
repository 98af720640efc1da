"""Labelled issue-stance examples: a written response, the issue's three framings and an IssueBench label.

A JSONL row is an object with string fields ``topic_pro``, ``topic_con``, ``topic_neutral``, ``response`` and
``label``, where the label is one of ``1`` ... ``5`` or ``refusal`` on IssueBench's templ-5 scale (``1``
exclusively highlights ``topic_pro`` ... ``5`` exclusively ``topic_con``); an integer label 1-5 is accepted
too. Other fields are kept in ``meta``. Mistakes are reported with the file, the line and the field.
``gold:train``, ``gold:dev`` and ``gold:test`` name polibench's first issue-stance gold splits, and
``gold:voice-train``, ``gold:voice-dev``, ``gold:voice-test`` its model-voice splits (issue 39; both in
``polibench/data/issue_stance``, see its DATACARD.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from polibench.kit.jsonl import field_error
from polibench.paths import PACKAGE_DIR
from polibench.records import ISSUE_LABELS
from polibench.scorers.stance.data import LabelledExample, packaged_split, read_labelled, resolve_named

GOLD_DIR = PACKAGE_DIR / "data" / "issue_stance"
GOLD_SPLITS = ("train", "dev", "test")
VOICE_SPLITS = ("voice-train", "voice-dev", "voice-test")
TOPICS = ("topic_pro", "topic_con", "topic_neutral")
# IssueBench's 3-way reading: pro = 1-2, neutral = 3 or refusal, con = 4-5
THREE_WAY = {"1": "pro", "2": "pro", "3": "neutral", "refusal": "neutral", "4": "con", "5": "con"}
MIRROR = {"1": "5", "2": "4", "3": "3", "4": "2", "5": "1", "refusal": "refusal"}


@dataclass(frozen=True)
class IssueExample(LabelledExample):
    """A response written about an issue, the issue's three framings and its label; grouped by the issue id, else
    the neutral topic."""

    GROUP_ID = "issue_id"
    GROUP_FIELD = "topic_neutral"
    topic_pro: str
    topic_con: str
    topic_neutral: str
    response: str
    label: str

    def mirrored(self) -> IssueExample:
        """The same response with ``topic_pro`` and ``topic_con`` swapped, so its label mirrors (1 <-> 5)."""
        return IssueExample(self.topic_con, self.topic_pro, self.topic_neutral, self.response, MIRROR[self.label],
                            meta=self.meta)


def gold_path(split: str) -> Path:
    return packaged_split(GOLD_DIR, GOLD_SPLITS + VOICE_SPLITS, split, "issue-stance gold")


def resolve_path(name: str | Path) -> Path:
    """A file path, or ``gold:train`` / ``gold:dev`` / ``gold:test`` for the packaged issue-stance gold splits."""
    return resolve_named(name, gold_path)


def _parse(path: Path, lineno: int, row: dict) -> IssueExample:
    for name in (*TOPICS, "response", "label"):
        if name not in row:
            raise field_error(path, lineno, name, "missing (an issue-stance row needs topic_pro, topic_con, "
                                                  "topic_neutral, response and label)")
    label = row["label"]
    if isinstance(label, int) and not isinstance(label, bool) and 1 <= label <= 5:
        label = str(label)
    if label not in ISSUE_LABELS:
        raise field_error(path, lineno, "label", f"expected one of {', '.join(ISSUE_LABELS)}, got {label!r}")
    for name in (*TOPICS, "response"):
        if not isinstance(row[name], str):
            raise field_error(path, lineno, name, f"expected a string, got {type(row[name]).__name__}")
    for name in TOPICS:
        if not row[name].strip():
            raise field_error(path, lineno, name, "expected a non-empty string")
    meta = {k: v for k, v in row.items() if k not in (*TOPICS, "response", "label")}
    return IssueExample(row["topic_pro"], row["topic_con"], row["topic_neutral"], row["response"], label, meta=meta)


def load_issue_examples(name: str | Path) -> list[IssueExample]:
    """Read a JSONL file of labelled issue-stance rows (blank lines are skipped)."""
    return read_labelled(resolve_path(name), _parse)
