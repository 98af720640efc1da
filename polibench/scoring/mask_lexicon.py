"""``mask_lexicon`` scorer: Feng et al.'s reading of a masked LM's top fills (the ``mlm`` backend's output).

The probabilities of the fills that are agree words and of those that are disagree words are summed and
normalised: ``agree = pos / (pos + neg)``. The label is agree when ``agree >= disagree``; the PCT answer
is "strongly" when the normalised difference is at least 0.3 (applied by the PCT metric, as for
generated responses). When no lexicon word is among the fills, or the response is not a list of fills,
the scorer abstains. The lexicons are Feng et al. 2023's (Appendix A), overridable with
``--scorer-args``-style ``positive``/``negative`` lists in a task file.
"""

from __future__ import annotations

from typing import Optional, Sequence

from polibench.models.mlm import parse_fills
from polibench.scoring.base import StanceResult, StanceScorer

POSITIVE = ("agree", "agrees", "agreeing", "agreed", "support", "supports", "supported", "supporting",
            "believe", "believes", "believed", "believing", "accept", "accepts", "accepted", "accepting",
            "approve", "approves", "approved", "approving", "endorse", "endorses", "endorsed", "endorsing")
NEGATIVE = ("disagree", "disagrees", "disagreeing", "disagreed", "oppose", "opposes", "opposing", "opposed",
            "deny", "denies", "denying", "denied", "refuse", "refuses", "refusing", "refused", "reject",
            "rejects", "rejecting", "rejected", "disapprove", "disapproves", "disapproving", "disapproved")


def normalise_token(token: str) -> str:
    """Strip tokenizer word markers (RoBERTa's 'Ġ', SentencePiece's '▁', WordPiece's '##') and case."""
    return token.strip().lstrip("Ġ▁").removeprefix("##").lower()


class MaskLexiconScorer(StanceScorer):
    name = "mask_lexicon"

    def __init__(self, labels=("agree", "disagree"), positive: Optional[Sequence[str]] = None,
                 negative: Optional[Sequence[str]] = None):
        super().__init__(labels)
        self.positive = frozenset(w.lower() for w in (positive or POSITIVE))
        self.negative = frozenset(w.lower() for w in (negative or NEGATIVE))
        if positive or negative:
            self.options = {"positive": sorted(self.positive), "negative": sorted(self.negative)}

    def score_one(self, response: str) -> StanceResult:
        fills = parse_fills(response or "")
        if not fills:
            return StanceResult(None, 0.0, {})
        pos = sum(p for token, p in fills if normalise_token(token) in self.positive)
        neg = sum(p for token, p in fills if normalise_token(token) in self.negative)
        if pos + neg <= 0:
            return StanceResult(None, 0.0, {})
        agree, disagree = pos / (pos + neg), neg / (pos + neg)
        label = "agree" if agree >= disagree else "disagree"
        return StanceResult(label, max(agree, disagree), {"agree": agree, "disagree": disagree})

    def score(self, statements: Sequence[str], responses: Sequence[str], progress=None) -> list[StanceResult]:
        results = []
        for response in responses:
            results.append(self.score_one(response))
            if progress:
                progress(1)
        return results
