"""Texts labelled liberal, conservative or neutral: polibench's ideology corpus, or a user's JSONL corpus.

polibench's corpus (``polibench/data/ideology/{train,dev,test}.jsonl``, DATACARD.md there) was written for
polibench: liberal and conservative texts on 134 political topics (Liu et al.'s 44 topic keywords and many
more), in four styles (GPT-2-like continuations that start mid-sentence, news sentences, social-media posts,
opinion paragraphs), plus neutral texts (facts, balanced both-sides texts, procedural political news that
names both parties, everyday text) used to calibrate the judge towards 0.5. The generator is
``tools/ideology/build_corpus.py`` (outside the package). The splits are by topic: no topic, and no sentence,
is in two splits, so the test figures are on unseen topics.

A user's corpus is a JSONL file of objects with ``text`` and ``label`` (``liberal``/``conservative``/``neutral``
or 0/1/2), and optionally ``group`` (texts of one group are never split apart).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from polibench.errors import PolibenchError
from polibench.kit.jsonl import field_error, iter_jsonl
from polibench.paths import PACKAGE_DIR

CORPUS_DIR = PACKAGE_DIR / "data" / "ideology"
SPLITS = ("train", "dev", "test")
LABEL_NAMES = ("liberal", "conservative", "neutral")
LIBERAL, CONSERVATIVE, NEUTRAL = 0, 1, 2


@dataclass(frozen=True)
class LabelledText:
    text: str
    label: int          # 0 liberal, 1 conservative, 2 neutral
    group: str          # the topic (or the user's group): what a split keeps together
    kind: str = ""      # the style: continuation / news / social / opinion / balanced


def corpus_path(split: str) -> Path:
    if split not in SPLITS:
        raise PolibenchError(f"unknown ideology corpus split '{split}'; expected one of {', '.join(SPLITS)}")
    path = CORPUS_DIR / f"{split}.jsonl"
    if not path.is_file():
        raise PolibenchError(f"the ideology corpus is missing from this installation ({path})")
    return path


def corpus_split(split: str, neutral: bool = True) -> list[LabelledText]:
    """One split of polibench's corpus, with or without its neutral texts."""
    texts = read_corpus(corpus_path(split))
    return texts if neutral else [t for t in texts if t.label != NEUTRAL]


def builtin_corpus() -> tuple[list[LabelledText], list[LabelledText]]:
    """(train + dev, test) liberal and conservative texts of polibench's corpus (no neutral texts): what the
    default judge learns partisan language from, and the unseen topics it is measured on."""
    return corpus_split("train", False) + corpus_split("dev", False), corpus_split("test", False)


def read_corpus(path: Path) -> list[LabelledText]:
    """A JSONL corpus (see the module docstring); mistakes name the file, line and field."""
    if not path.is_file():
        raise PolibenchError(f"{path}: no such file (expected JSONL with 'text' and 'label' per line)")
    out = []
    for number, row in iter_jsonl(path):
        if not isinstance(row.get("text"), str) or not row["text"].strip():
            raise field_error(path, number, "text", "expected a non-empty string")
        label = row.get("label")
        if label in LABEL_NAMES:
            label = LABEL_NAMES.index(label)
        if label not in (LIBERAL, CONSERVATIVE, NEUTRAL) or isinstance(label, bool):
            raise field_error(path, number, "label", f"expected liberal, conservative, neutral, 0, 1 or 2 "
                                                     f"(got {row.get('label')!r})")
        out.append(LabelledText(row["text"], int(label), str(row.get("group", f"line-{number}")),
                                str(row.get("style", ""))))
    if not {LIBERAL, CONSERVATIVE} <= {t.label for t in out}:
        raise PolibenchError(f"{path}: needs texts of both labels (liberal and conservative)")
    return out
