"""Texts labelled liberal (0) or conservative (1): polibench's own material, or a user's JSONL corpus.

polibench's own material is what stands behind the gold stance data (``polibench/data/stance``): for every
PCT and WVS statement its three forms (``tasks/instruments/*.yaml``) and the hand-written arguments for and
against it (``polibench/data/stance/content/content_*.txt``, keys ``P``/``P2`` for, ``C``/``C2`` against).
Each text is labelled by the side it supports: the original statement, its reformulation and the arguments
for it support the item's ``agree_side``; the opposite form and the arguments against it, the other side.
``left`` is liberal and ``right`` conservative (on the PCT's social axis, ``right`` is authoritarian; the
judge therefore learns "left-libertarian vs right-authoritarian", the closest this material comes to the US
liberal / conservative axis Liu et al. judge). The five ``extra-NN`` statements have no side and are left out.

The split is the gold data's: a statement is held out when its id appears in the gold ``test.jsonl``, so
no statement (in any wording or argument) is in both splits.

A user's corpus is a JSONL file of objects with ``text`` and ``label`` (``liberal``/``conservative`` or 0/1),
and optionally ``group`` (texts of one group are never split apart).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from polibench.errors import PolibenchError
from polibench.kit.jsonl import field_error, iter_jsonl
from polibench.paths import PACKAGE_DIR
from polibench.taskspec.loader import load_registry

STANCE_DIR = PACKAGE_DIR / "data" / "stance"
LABEL_NAMES = ("liberal", "conservative")
SIDE_LABEL = {"left": 0, "right": 1}
FOR, AGAINST = ("P", "P2"), ("C", "C2")


@dataclass(frozen=True)
class LabelledText:
    text: str
    label: int          # 0 liberal, 1 conservative
    group: str          # the statement id (or the user's group): what a split keeps together
    kind: str = ""      # original / reformulation / opposite / argument_for / argument_against


def parse_content(path: Path) -> dict[str, dict[str, str]]:
    """``@id`` blocks of ``KEY: value`` lines (the format of content_*.txt)."""
    out: dict[str, dict[str, str]] = {}
    current: Optional[str] = None
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("@"):
            current = line[1:].strip()
            out[current] = {}
            continue
        key, _, value = line.partition(":")
        if current is None or not value:
            raise PolibenchError(f"{path}: unexpected line '{raw[:60]}'")
        out[current][key.strip()] = value.strip()
    return out


def _content() -> dict[str, dict[str, str]]:
    """Arguments per instrument item id, with the WVS blocks' ``MAP ... swap`` applied (see the DATACARD)."""
    content = STANCE_DIR / "content"
    blocks = {**parse_content(content / "content_pct.txt"), **parse_content(content / "content_extra.txt")}
    out = {}
    for block_id, block in blocks.items():
        target, swap = block_id, False
        if "MAP" in block:
            target, _, flag = block["MAP"].partition(" ")
            swap = flag.strip() == "swap"
        args = {k: block[k] for k in (*FOR, *AGAINST) if k in block}
        if swap:
            args = {"P": args["C"], "P2": args["C2"], "C": args["P"], "C2": args["P2"]}
        out[target] = args
    return out


def held_out_statements() -> set[str]:
    return {row["statement_id"] for _, row in iter_jsonl(STANCE_DIR / "test.jsonl")}


def builtin_corpus() -> tuple[list[LabelledText], list[LabelledText]]:
    """(train, test) texts from polibench's statements and arguments, split by statement as the gold data."""
    registry = load_registry()
    content = _content()
    test_ids = held_out_statements()
    train: list[LabelledText] = []
    test: list[LabelledText] = []
    for name in ("pct", "wvs"):
        for item in registry.instruments[name].items:
            if item.agree_side is None:
                continue
            side = SIDE_LABEL[item.agree_side]
            texts = [(item.text, side, "original")]
            if item.forms.reformulation:
                texts.append((item.forms.reformulation, side, "reformulation"))
            if item.forms.opposite:
                texts.append((item.forms.opposite, 1 - side, "opposite"))
            args = content.get(item.id, {})
            texts += [(args[k], side, "argument_for") for k in FOR if k in args]
            texts += [(args[k], 1 - side, "argument_against") for k in AGAINST if k in args]
            target = test if item.id in test_ids else train
            target.extend(LabelledText(t, label, item.id, kind) for t, label, kind in texts)
    return train, test


def read_corpus(path: Path) -> list[LabelledText]:
    """A user's JSONL corpus (see the module docstring); mistakes name the file, line and field."""
    if not path.is_file():
        raise PolibenchError(f"{path}: no such file (expected JSONL with 'text' and 'label' per line)")
    out = []
    for number, row in iter_jsonl(path):
        if not isinstance(row.get("text"), str) or not row["text"].strip():
            raise field_error(path, number, "text", "expected a non-empty string")
        label = row.get("label")
        if label in LABEL_NAMES:
            label = LABEL_NAMES.index(label)
        if label not in (0, 1) or isinstance(label, bool):
            raise field_error(path, number, "label", f"expected liberal, conservative, 0 or 1 "
                                                     f"(got {row.get('label')!r})")
        out.append(LabelledText(row["text"], int(label), str(row.get("group", f"line-{number}"))))
    if len({t.label for t in out}) < 2:
        raise PolibenchError(f"{path}: needs texts of both labels (liberal and conservative)")
    return out
