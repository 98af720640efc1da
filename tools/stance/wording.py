"""Shared wording between the splits of the gold stance set: the check behind the split rule of gold v4.

Statements are disjoint between train, dev and test; this module checks that the *wording* is too. A response is
reduced to its skeleton: lower-cased, whitespace collapsed, and every per-statement text masked (the statement
and its reformulated and opposite forms become ``{s}``; the hand-written arguments and sarcastic lines of its
statement become ``{x}``). Three things may not occur in two splits:

* a **response**: the same response text (verbatim, after collapsing whitespace and case);
* a **sentence**: a sentence of the skeleton (numbers written ``#``) with at least two letters outside the placeholders ("i agree",
  "ultimately, it depends on the context and on one's values", "the way i see it, {x}"); a sentence that is only
  a placeholder (the statement or an argument on its own) is per-statement text, not shared wording;
* a **frame**: the clause around the statement in the skeleton, cut at the nearest ``.,;:!?`` or line break on
  each side ("i strongly agree that {s}", "{s} i agree with this"), so "I agree that X. <reason>" and "I agree
  that X." share the frame "i agree that {s}"; a clause with fewer than two letters besides the statement (a
  quoted or bare echo) is not a frame.

Used by ``check_gold.py`` (which fails on any crossing) and by ``build_gold.py`` (which drops real answers that
would cross). Pure functions of the rows and the per-statement texts; no polibench import.
"""
from __future__ import annotations

import re
from collections import defaultdict
from typing import Iterable, Mapping, Sequence

SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
CLAUSE_CUT = re.compile(r"[.,;:!?\n]")
LETTER = re.compile(r"[a-z]")
DIGITS = re.compile(r"\d+")
PLACEHOLDERS = ("{s}", "{x}")
STATEMENT_KEYS = ("T", "R", "O", "R_own", "O_own")
ARGUMENT_KEYS = ("P", "P2", "C", "C2", "S+", "S-")


def normalise(text: str) -> str:
    return re.sub(r"[ \t]+", " ", text.strip().lower().replace("’", "'"))


def variants(text: str) -> set[str]:
    """The forms a per-statement text takes inside responses: as written, without its final stop, and (all of
    these) lower-cased, which is how they are compared."""
    t = normalise(text)
    bare = t.rstrip(".").strip()
    return {t, bare} if len(bare) >= 8 else set()


def masks_for(statement: str, content: Mapping[str, str] | None) -> list[tuple[str, str]]:
    """``(text, placeholder)`` pairs to replace in a response of this statement, longest first."""
    pairs: dict[str, str] = {}
    for key in ARGUMENT_KEYS:
        for v in variants((content or {}).get(key, "")):
            pairs[v] = "{x}"
    for text in [statement] + [(content or {}).get(key, "") for key in STATEMENT_KEYS]:
        for v in variants(text):
            pairs[v] = "{s}"
    return sorted(pairs.items(), key=lambda kv: -len(kv[0]))


def skeleton(response: str, masks: Sequence[tuple[str, str]]) -> str:
    """The response with its statement's texts masked and every number written ``#`` (a Likert template such as
    "I'd give it a 4." is one template whatever the number)."""
    text = normalise(response)
    for needle, placeholder in masks:
        if needle in text:
            text = text.replace(needle, placeholder)
    return DIGITS.sub("#", text)


def sentences(skel: str) -> set[str]:
    """The skeleton's sentences that carry shared wording (two letters or more outside the placeholders)."""
    out = set()
    for part in SENTENCE_END.split(skel):
        part = part.strip().rstrip(".!?").strip()
        rest = part
        for p in PLACEHOLDERS:
            rest = rest.replace(p, "")
        if len(LETTER.findall(rest)) >= 2:
            out.add(part)
    return out


def frames(skel: str) -> set[str]:
    """The clause around each occurrence of the statement (``{s}``), cut at punctuation or a line break."""
    out = set()
    for match in re.finditer(re.escape("{s}"), skel):
        start = max((m.end() for m in CLAUSE_CUT.finditer(skel, 0, match.start())), default=0)
        stop = CLAUSE_CUT.search(skel, match.end())
        clause = skel[start:stop.start() if stop else len(skel)].strip()
        if len(LETTER.findall(clause.replace("{s}", "").replace("{x}", ""))) >= 2:
            out.add(clause)
    return out


def wording(row: Mapping, content: Mapping[str, Mapping[str, str]]) -> dict[str, set[str]]:
    """The response, sentence and frame keys of one row (``content``: statement_id -> per-statement texts)."""
    skel = skeleton(row["response"], masks_for(row["statement"], content.get(row.get("statement_id", ""))))
    return {"response": {re.sub(r"\s+", " ", normalise(row["response"]))}, "sentence": sentences(skel),
            "frame": frames(skel)}


def crossings(splits: Mapping[str, Iterable[Mapping]], content: Mapping[str, Mapping[str, str]]
              ) -> dict[tuple[str, str], dict[str, set[str]]]:
    """``(kind, key) -> {split: {row ids}}`` for every response, sentence or frame found in two splits or more."""
    where: dict[tuple[str, str], dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for name, rows in splits.items():
        for i, row in enumerate(rows):
            for kind, keys in wording(row, content).items():
                for key in keys:
                    where[(kind, key)][name].add(str(row.get("id", i)))
    return {k: dict(v) for k, v in where.items() if len(v) > 1}


def describe(found: Mapping[tuple[str, str], Mapping[str, set[str]]], limit: int = 12) -> list[str]:
    """One line per crossing (the first ``limit`` of each kind), for error messages."""
    lines, shown = [], defaultdict(int)
    for (kind, key), places in sorted(found.items()):
        shown[kind] += 1
        if shown[kind] <= limit:
            where = "; ".join(f"{split}: {', '.join(sorted(ids)[:3])}{' ...' if len(ids) > 3 else ''}"
                              for split, ids in sorted(places.items()))
            lines.append(f"{kind} {key[:90]!r} in {where}")
    for kind, n in sorted(shown.items()):
        if n > limit:
            lines.append(f"... and {n - limit} more {kind}s")
    return lines
