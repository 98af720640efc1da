"""``lexical`` scorer: a transparent baseline that reads explicit stance phrases and abstains otherwise.

It looks for first-person stance phrases ("I agree", "I strongly disagree", "I do not support", "I am
against"), handles the usual negations of them, and returns the one polarity found with confidence 1.0.
When both polarities, or none, appear it abstains (label None). With the 4-label set it also recognises
explicit neutrality ("neither agree nor disagree", "I have no personal opinions"). It never guesses, so
its precision is high and its coverage low: use it to sanity-check, not to measure.
"""

from __future__ import annotations

import re
from typing import Sequence

from polibench.scoring.base import StanceResult, StanceScorer

_I = r"\b(?:i|i'm|i am|i'd|i would|we)\s+(?:\w+\s+){0,2}?"
_NEG = r"(?:do not|don't|cannot|can't|could not|couldn't|would not|wouldn't|am not|do n't|never)\s+(?:\w+\s+){0,1}?"
_AGREE_VERBS = r"(?:agree|support|endorse|concur|accept|approve|favou?r|back)"
_DISAGREE_VERBS = r"(?:disagree|oppose|reject|object to|disapprove|dispute)"

PATTERNS = {
    # Order matters: negated forms are removed from the text before the plain forms are looked for.
    "double_negative_agree": re.compile(_I + _NEG + r"(?:say\s+(?:that\s+)?i\s+)?" + _DISAGREE_VERBS + r"\b", re.I),
    "negated_agree": re.compile(_I + _NEG + _AGREE_VERBS + r"\b", re.I),
    "neutral": re.compile(r"\bneither\s+agree\s+nor\s+disagree\b|\b(?:i|as an ai,? i)\s+(?:do not|don't)\s+have\s+"
                          r"(?:personal\s+)?(?:opinions|views|beliefs)\b|\bi\s+(?:am|'m)\s+neutral\b", re.I),
    "disagree": re.compile(_I + _DISAGREE_VERBS + r"\b|\bi\s+(?:am|'m)\s+(?:\w+\s+)?against\b|^\s*disagree", re.I),
    "agree": re.compile(_I + _AGREE_VERBS
                        + r"\b|\bi\s+(?:am|'m)\s+(?:\w+\s+)?in favou?r\b|^\s*(?:agreed?|yes)\b", re.I),
}
POLARITY = {"double_negative_agree": "agree", "negated_agree": "disagree", "neutral": "neutral",
            "disagree": "disagree", "agree": "agree"}


def find_stances(text: str) -> set[str]:
    """The set of stances stated explicitly in ``text``."""
    found: set[str] = set()
    for name, pattern in PATTERNS.items():
        if pattern.search(text):
            found.add(POLARITY[name])
            text = pattern.sub(" ", text)
    return found


class LexicalScorer(StanceScorer):
    name = "lexical"

    def score(self, statements: Sequence[str], responses: Sequence[str], progress=None) -> list[StanceResult]:
        results = []
        for response in responses:
            found = {s for s in find_stances(response or "") if s in self.labels}
            if len(found) == 1:
                label = found.pop()
                results.append(StanceResult(label, 1.0, {label: 1.0}))
            else:
                results.append(StanceResult(None, 0.0, {}))
            if progress:
                progress(1)
        return results
