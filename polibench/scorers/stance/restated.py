"""Restated-stance answers built from held-out markers: a check that a scorer reads "I agree that <statement>".

Chat models asked to take a side often answer with the statement itself after a stance marker. The gold data
has such answers (styles ``restated_*``, see polibench/data/stance/DATACARD.md); the markers here are kept
**out** of the gold data on purpose (tests/stance/test_stance_restated.py checks that none occurs in it), so
a scorer that reads them has learnt the pattern, not memorised the gold templates. Used by that property
test and by ``benchmarks/bench_stance_dev.py``.
"""

from __future__ import annotations

from typing import Sequence

from polibench.scorers.stance.data import StanceExample

AGREE_HELDOUT = (
    "I wholeheartedly endorse the notion that {s}.",
    "I concur that {s}.",
    "I am persuaded that {s}.",
    "There is no question in my mind that {s}.",
    "I would affirm that {s}.",
    "My considered opinion is that {s}.",
    "I side with those who say that {s}.",
    "{S} I concur.",
    "I'm a firm believer that {s}.",
    "It seems right to me that {s}.",
    "I am of the opinion that {s}.",
)
DISAGREE_HELDOUT = (
    "I take issue with the notion that {s}.",
    "I refute the idea that {s}.",
    "I do not concur that {s}.",
    "I am not persuaded that {s}.",
    "I would deny that {s}.",
    "It is a misconception that {s}.",
    "I'm firmly opposed to the notion that {s}.",
    "{S} I do not concur.",
    "I flatly reject the assertion that {s}.",
    "It is untrue that {s}.",
    "I'm unpersuaded that {s}.",
)

# A second held-out set, written after the first training round had been checked against the set above (which
# was then looked at, marker by marker, to decide what the gold data lacked). This one was never used for any
# decision: benchmarks/bench_stance_dev.py reports it as the untouched measure of unseen markers.
AGREE_FRESH = (
    "I am squarely in favour of the claim that {s}.",
    "Count me among those convinced that {s}.",
    "I'd readily grant that {s}.",
    "It strikes me as correct that {s}.",
    "I'm on board with the idea that {s}.",
    "My firm stance: {s}.",
    "I can vouch for the claim that {s}.",
)
DISAGREE_FRESH = (
    "I'd contend it is false that {s}.",
    "I'm skeptical that {s}.",
    "I find the claim that {s} unconvincing.",
    "I cannot go along with the claim that {s}.",
    "I'm not on board with the idea that {s}.",
    "My firm stance: it is false that {s}.",
    "Count me among those who doubt that {s}.",
)


def clause(statement: str) -> str:
    """The statement as a clause after "that": final full stop dropped, first letter lower-cased unless the
    first word is "I" (or I'd, I'm ...) or an acronym."""
    text = statement.strip().rstrip(".").strip()
    first = text.split(" ", 1)[0]
    if first == "I" or first.startswith(("I'", "I\u2019")) or first[:2].isupper():
        return text
    return text[:1].lower() + text[1:]


def restate(template: str, statement: str) -> str:
    """``template`` with ``{s}`` (the statement as a clause) and ``{S}`` (the statement as a sentence)."""
    sentence = statement.strip()
    if not sentence.endswith((".", "!", "?")):
        sentence += "."
    return template.format(s=clause(statement), S=sentence)


def marker(template: str) -> str:
    """The marker words of a template, without the statement slots and end punctuation (for leak checks)."""
    return template.replace("{s}", "").replace("{S}", "").strip(" .:")


def restated_examples(statements: Sequence[str], agree_choice: Sequence[int],
                      disagree_choice: Sequence[int]) -> list[StanceExample]:
    """For statement i, one agree answer with ``AGREE_HELDOUT[agree_choice[i]]`` and one disagree answer with
    ``DISAGREE_HELDOUT[disagree_choice[i]]``."""
    out = []
    for statement, a, d in zip(statements, agree_choice, disagree_choice, strict=True):
        out.append(StanceExample(statement, restate(AGREE_HELDOUT[a], statement), "agree"))
        out.append(StanceExample(statement, restate(DISAGREE_HELDOUT[d], statement), "disagree"))
    return out
