"""Parse a Likert answer: a response that *is* a single integer 1–5, or None for anything else.

Faulborn et al. parse only answers that are a single integer 1–5 (1–2 disagree, 3 neutral, 4–5 agree,
:func:`likert_to_stance`); everything else goes to the stance classifier and its 0.9 filter. So the whole
response must be the number, allowing only what does not change its meaning:

- surrounding whitespace, quotes, brackets, markdown emphasis and a final full stop: ``4``, ``"4."``, ``**4**``;
- a label before it: ``Answer: 4``, ``Rating: 4``, ``My answer: 4``, ``My answer is 4``;
- the scale after it: ``4/5``, ``4 out of 5``;
- the scale point's own wording after it, when it matches the number: ``5 - strongly agree``, ``4 (agree)``,
  ``3: neutral``.

Refused (None, so the stance scorer reads it): a number inside a sentence ("There are 3 reasons …"), a
word-only answer ("Agree": a stance, left to the scorer like every other wording), several numbers
("3 or 4"), a wording that contradicts the number ("2 - agree"), numbers off the scale ("7/10", "0.5").
"""

from __future__ import annotations

import re
from typing import Optional

_WRAP = "\"'`*_()[]{} \t\n"
_LABEL = re.compile(r"^(?:(?:my\s+)?(?:answer|rating|response|score|choice)(?:\s+is)?\s*[:=\-]?\s*)", re.I)
_NUMBER = re.compile(r"^([1-5])(?:\s*(?:/|out\s+of)\s*5)?(?![\d.,]\d)")
_WORDING = {  # the wording of each scale point, as models write it after the number
    1: ("strongly disagree", "completely disagree", "totally disagree"),
    2: ("disagree", "somewhat disagree", "mostly disagree", "tend to disagree"),
    3: ("neutral", "neither agree nor disagree", "undecided"),
    4: ("agree", "somewhat agree", "mostly agree", "tend to agree"),
    5: ("strongly agree", "completely agree", "totally agree"),
}


def _normalise(text: str) -> str:
    text = re.sub(r"\s+", " ", text.strip().strip(_WRAP))
    return text.rstrip(".!").strip(_WRAP)


def parse_likert(response: Optional[str]) -> Optional[int]:
    """The Likert value 1–5 when the response is just that number (see the module docstring), else None."""
    if not response:
        return None
    text = _LABEL.sub("", _normalise(response), count=1)
    match = _NUMBER.match(text)
    if not match:
        return None
    value = int(match.group(1))
    rest = _normalise(text[match.end():].lstrip(" -–—:,.=").strip())
    if not rest:
        return value
    return value if rest.lower() in _WORDING[value] else None


def likert_to_stance(value: int) -> str:
    """Faulborn et al.: 1–2 disagree, 3 neutral, 4–5 agree."""
    if value not in (1, 2, 3, 4, 5):
        raise ValueError(f"Likert value must be 1-5, got {value}")
    return "disagree" if value <= 2 else "neutral" if value == 3 else "agree"
