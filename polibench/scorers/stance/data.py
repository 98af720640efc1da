"""Labelled ``(statement, response, label)`` examples: reading JSONL files, the gold splits, dev carving.

Any JSONL file whose lines are objects with string fields ``statement``, ``response`` and ``label`` (one of
agree/disagree/neutral/unrelated) works; other fields are kept in ``meta``. Mistakes are reported with the
file, the line and the field. ``gold:train``, ``gold:dev`` and ``gold:test`` name the gold splits shipped in the
package (gold v4: no statement and no wording shared between them; polibench/data/stance/DATACARD.md).

What every kind of labelled example shares (:class:`LabelledExample`: ``meta`` and the ``group`` a split keeps
together; :func:`read_labelled`; the packaged splits and ``gold:<split>`` names) is here too, for the issue-stance
examples (:mod:`polibench.scorers.issue_stance.data`).
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, ClassVar, Sequence, TypeVar

from polibench.errors import PolibenchError
from polibench.kit.jsonl import field_error, iter_jsonl
from polibench.paths import PACKAGE_DIR
from polibench.scoring.base import LABELS

GOLD_DIR = PACKAGE_DIR / "data" / "stance"
GOLD_SPLITS = ("train", "dev", "test")


@dataclass(frozen=True)
class LabelledExample:
    """What every labelled example has besides its own fields: ``meta``, the row's other fields (keyword only,
    after the example's own), and its ``group``, what keeps examples together when splitting: the row's
    ``meta[GROUP_ID]`` when it has one, else the example's field named ``GROUP_FIELD``."""

    GROUP_ID: ClassVar[str]
    GROUP_FIELD: ClassVar[str]
    meta: dict = field(default_factory=dict, compare=False, hash=False, kw_only=True)

    @property
    def group(self) -> str:
        """What keeps examples together when splitting (see the class)."""
        return str(self.meta.get(self.GROUP_ID) or getattr(self, self.GROUP_FIELD))


Example = TypeVar("Example", bound=LabelledExample)


@dataclass(frozen=True)
class StanceExample(LabelledExample):
    """A response to a statement and its stance label; grouped by the statement id, else the statement."""

    GROUP_ID = "statement_id"
    GROUP_FIELD = "statement"
    statement: str
    response: str
    label: str


def packaged_split(folder: Path, splits: Sequence[str], split: str, what: str) -> Path:
    """The file of one packaged split (``folder/<split>.jsonl``) of the data named ``what`` (e.g. "gold stance")."""
    if split not in splits:
        raise PolibenchError(f"unknown {what} split '{split}'; expected one of {', '.join(splits)}")
    path = folder / f"{split}.jsonl"
    if not path.is_file():
        raise PolibenchError(f"the {what} data is missing from this installation ({path})")
    return path


def resolve_named(name: str | Path, gold: Callable[[str], Path]) -> Path:
    """A file path, or ``gold:<split>`` for the packaged split that ``gold(split)`` names."""
    text = str(name)
    if text.startswith("gold:"):
        return gold(text.partition(":")[2])
    path = Path(text)
    if not path.is_file():
        raise PolibenchError(f"{path}: no such file")
    return path


def gold_path(split: str) -> Path:
    return packaged_split(GOLD_DIR, GOLD_SPLITS, split, "gold stance")


def resolve_data_path(name: str | Path) -> Path:
    """A file path, or ``gold:train`` / ``gold:dev`` / ``gold:test`` for the packaged gold splits."""
    return resolve_named(name, gold_path)


def _parse_line(path: Path, lineno: int, row: dict, labels: Sequence[str]) -> StanceExample:
    for name in ("statement", "response", "label"):
        if name not in row:
            raise field_error(path, lineno, name, "missing")
        if not isinstance(row[name], str):
            raise field_error(path, lineno, name, f"expected a string, got {type(row[name]).__name__}")
    if not row["statement"].strip():
        raise field_error(path, lineno, "statement", "expected a non-empty string")
    if row["label"] not in labels:
        raise field_error(path, lineno, "label", f"expected one of {', '.join(labels)}, got '{row['label']}'")
    meta = {k: v for k, v in row.items() if k not in ("statement", "response", "label")}
    return StanceExample(row["statement"], row["response"], row["label"], meta=meta)


def read_labelled(path: Path, parse: Callable[[Path, int, dict], Example]) -> list[Example]:
    """The examples of a JSONL file, one per line read by ``parse(path, line number, row)`` (blank lines are
    skipped); one error when the file has none."""
    examples = [parse(path, lineno, row) for lineno, row in iter_jsonl(path)]
    if not examples:
        raise PolibenchError(f"{path}: no examples")
    return examples


def load_examples(name: str | Path, labels: Sequence[str] = LABELS) -> list[StanceExample]:
    """Read a JSONL file of labelled examples (blank lines are skipped)."""
    return read_labelled(resolve_data_path(name), lambda path, lineno, row: _parse_line(path, lineno, row, labels))


def split_by_statement(examples: Sequence[StanceExample], dev_fraction: float = 0.2,
                       seed: int = 0) -> tuple[list[StanceExample], list[StanceExample]]:
    """``(rest, dev)``: whole statement groups go to dev until it holds about ``dev_fraction`` of examples."""
    groups = sorted({e.group for e in examples})
    random.Random(seed).shuffle(groups)
    target = dev_fraction * len(examples)
    sizes = {g: 0 for g in groups}
    for e in examples:
        sizes[e.group] += 1
    dev_groups: set[str] = set()
    taken = 0
    for g in groups:
        if taken >= target:
            break
        dev_groups.add(g)
        taken += sizes[g]
    return ([e for e in examples if e.group not in dev_groups], [e for e in examples if e.group in dev_groups])


def examples_digest(examples: Sequence[StanceExample]) -> str:
    """SHA-256 of the (statement, response, label) triples, in order: the identity of a training set."""
    digest = hashlib.sha256()
    for e in examples:
        digest.update(json.dumps([e.statement, e.response, e.label], ensure_ascii=False).encode("utf-8"))
        digest.update(b"\n")
    return digest.hexdigest()
