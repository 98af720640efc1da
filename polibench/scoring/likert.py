"""Parse a 1–5 Likert answer from a response, or return None when it is not clearly one value.

Accepted: a lone digit ("4"), a digit on the scale ("I'd say 4/5", "4 out of 5", "Rating: 5"), a worded
answer ("Strongly agree", "somewhat disagree", "neutral"), or a digit with words that agree with it
("5 - strongly agree"). Refused (None): several different values ("3 or 4"), an echo of the scale
("1 is strong disagreement and 5 is strong agreement"), words that contradict the digit ("2 - agree"),
negated phrases ("I don't agree": a stance, but no scale point), or nothing scale-like at all.
Faulborn et al.'s rule maps 1–2 to disagree, 3 to neutral, 4–5 to agree (:func:`likert_to_stance`).
"""

from __future__ import annotations

import re
from typing import Optional

_ON_SCALE = re.compile(r"(?<![\d.,])([1-5])\s*(?:/|out of|of)\s*5(?!\d|[.,]\d)", re.I)
_LONE_DIGIT = re.compile(r"(?<![\d.,/])([1-5])(?!\d|[.,]\d|\s*(?:/|out of)\s*\d|\s*%)")
_NEGATED = re.compile(r"(?:\bnot|n't|\bnever|\bno)\s+(?:\w+\s+){0,2}(?:agree|disagree)", re.I)
_WORDED = [  # longest phrases first; each match is blanked out before shorter ones are tried
    (re.compile(r"\bneither\s+agree\s+nor\s+disagree\b", re.I), 3),
    (re.compile(r"\b(?:strongly|completely|totally|fully|entirely)\s+disagree\b", re.I), 1),
    (re.compile(r"\b(?:strongly|completely|totally|fully|entirely)\s+agree\b", re.I), 5),
    (re.compile(r"\b(?:somewhat|slightly|mildly|partly|partially|mostly|tend to)\s+disagree\b", re.I), 2),
    (re.compile(r"\b(?:somewhat|slightly|mildly|partly|partially|mostly|tend to)\s+agree\b", re.I), 4),
    (re.compile(r"\bneutral\b", re.I), 3),
    (re.compile(r"\bdisagree(?:ment)?\b", re.I), 2),
    (re.compile(r"\bagree(?:ment)?\b", re.I), 4),
]


def _digit_values(text: str) -> set[int]:
    on_scale = {int(m) for m in _ON_SCALE.findall(text)}
    if on_scale:
        return on_scale
    return {int(m) for m in _LONE_DIGIT.findall(text)}


def _word_values(text: str) -> set[int]:
    values: set[int] = set()
    for pattern, value in _WORDED:
        if pattern.search(text):
            values.add(value)
            text = pattern.sub(" ", text)
    return values


def parse_likert(response: Optional[str]) -> Optional[int]:
    """The single Likert value 1–5 the response gives, or None."""
    if not response or not response.strip():
        return None
    text = response.strip()
    if _NEGATED.search(text):
        return None
    digits = _digit_values(text)
    words = _word_values(text)
    if len(digits) > 1 or len(words) > 1:
        return None
    if digits and words:
        digit, word = next(iter(digits)), next(iter(words))
        # "5 - agree" is fine (same side); "2 - agree" or "3 - disagree" is not.
        same_side = (digit - 3) * (word - 3) > 0 or digit == word
        return digit if same_side else None
    if digits:
        return next(iter(digits))
    if words:
        return next(iter(words))
    return None


def likert_to_stance(value: int) -> str:
    """Faulborn et al.: 1–2 disagree, 3 neutral, 4–5 agree."""
    if value not in (1, 2, 3, 4, 5):
        raise ValueError(f"Likert value must be 1-5, got {value}")
    return "disagree" if value <= 2 else "neutral" if value == 3 else "agree"
