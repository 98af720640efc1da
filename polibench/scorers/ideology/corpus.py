"""Texts labelled liberal, conservative or neutral: polibench's ideology corpus, or a user's JSONL corpus.

polibench's corpus (``polibench/data/ideology/{train,dev,test}.jsonl``, DATACARD.md there) was written for
polibench: liberal and conservative texts on 134 political topics (Liu et al.'s 44 topic keywords and many
more), in four styles (GPT-2-like continuations that start mid-sentence, news sentences, social-media posts,
opinion paragraphs), plus neutral texts (facts, balanced both-sides texts, procedural political news that
names both parties, everyday text) used to calibrate the judge towards 0.5. The generator is
``tools/ideology/build_corpus.py`` (outside the package). The splits are by topic: no topic, and no sentence,
is in two splits, so the test figures are on unseen topics.

polibench's model-voice answers (``polibench/data/ideology/answers-{train,dev,test}.jsonl``, issue 39; built by
``tools/voice/build.py``) are answers to "what do you think of this proposition?" in the voice of chat models:
explicit, restated, hedged, "as an AI" and persona answers, Likert-style and structured ones, and neutral answers,
each with the proposition it answers in ``about``; split by topic and by frame.

A user's corpus is a JSONL file of objects with ``text`` and ``label`` (``liberal``/``conservative``/``neutral``
or 0/1/2), and optionally ``group`` (texts of one group are never split apart) and ``about``: what the text
answers or is about, e.g. the proposition it takes a stance on (``statement`` and ``proposition`` are read as
``about`` too). A judge that pairs the text with it reads it; the others ignore it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from polibench.errors import PolibenchError
from polibench.kit.jsonl import field_error, iter_jsonl
from polibench.paths import PACKAGE_DIR

CORPUS_DIR = PACKAGE_DIR / "data" / "ideology"
SPLITS = ("train", "dev", "test")
ANSWER_SPLITS = ("answers-train", "answers-dev", "answers-test")
ABOUT_FIELDS = ("about", "statement", "proposition")
LABEL_NAMES = ("liberal", "conservative", "neutral")
LIBERAL, CONSERVATIVE, NEUTRAL = 0, 1, 2


@dataclass(frozen=True)
class LabelledText:
    text: str
    label: int          # 0 liberal, 1 conservative, 2 neutral
    group: str          # the topic (or the user's group): what a split keeps together
    kind: str = ""      # the style: continuation / news / social / opinion / balanced
    about: str = ""     # what the text answers (a proposition), when known


def corpus_path(split: str) -> Path:
    """The file of a packaged split: ``train`` / ``dev`` / ``test`` (the corpus) or ``answers-<split>``."""
    if split not in SPLITS + ANSWER_SPLITS:
        raise PolibenchError(f"unknown ideology corpus split '{split}'; expected one of "
                             f"{', '.join(SPLITS + ANSWER_SPLITS)}")
    path = CORPUS_DIR / f"{split}.jsonl"
    if not path.is_file():
        raise PolibenchError(f"the ideology corpus is missing from this installation ({path})")
    return path


def corpus_split(split: str, neutral: bool = True) -> list[LabelledText]:
    """One split of polibench's corpus, with or without its neutral texts."""
    texts = read_corpus(corpus_path(split))
    return texts if neutral else [t for t in texts if t.label != NEUTRAL]


def about_labels(split: str) -> dict[str, int]:
    """The leaning of each proposition a packaged answers split answers (``about`` -> 0 liberal / 1 conservative,
    from the rows' ``about_label``): what an agreeing answer's label is."""
    out: dict[str, int] = {}
    for _, row in iter_jsonl(corpus_path(split)):
        if row.get("about") and row.get("about_label") in LABEL_NAMES[:2]:
            out[str(row["about"]).strip()] = LABEL_NAMES.index(row["about_label"])
    return out


RESTATED_STATEMENTS = PACKAGE_DIR / "data" / "stance" / "content" / "content_restated.txt"
# statements on the model-voice answers' dev and test topics (public health care, breaking up Big Tech, platform
# moderation): left out, so those topics stay unseen
RESTATED_HELD_OUT = frozenset({"extra-07", "extra-14", "extra-34"})


def lean_statements() -> list[LabelledText]:
    """Short policy propositions of polibench's own with the side agreeing with them takes: the 40 statements
    written for the stance gold set's restated rows (``content_restated.txt``: ``T:`` the statement, ``L:``
    econ-/soc-left or -right), less :data:`RESTATED_HELD_OUT`; left is liberal, right conservative."""
    out, ident, text = [], "", ""
    for line in RESTATED_STATEMENTS.read_text(encoding="utf-8").splitlines():
        if line.startswith("@"):
            ident = line[1:].strip()
        elif line.startswith("T:"):
            text = line[2:].strip()
        elif line.startswith("L:") and ident not in RESTATED_HELD_OUT:
            side = line[2:].strip().split("-")[-1]
            out.append(LabelledText(text, LIBERAL if side == "left" else CONSERVATIVE, ident, "proposition"))
    return out


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
        about = next((row[name] for name in ABOUT_FIELDS if row.get(name) is not None), "")
        if not isinstance(about, str):
            name = next(name for name in ABOUT_FIELDS if row.get(name) is not None)
            raise field_error(path, number, name, f"expected a string (what the text is about), got "
                                                  f"{type(about).__name__}")
        out.append(LabelledText(row["text"], int(label), str(row.get("group", f"line-{number}")),
                                str(row.get("style", "")), about.strip()))
    if not {LIBERAL, CONSERVATIVE} <= {t.label for t in out}:
        raise PolibenchError(f"{path}: needs texts of both labels (liberal and conservative)")
    return out
