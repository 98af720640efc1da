"""``mask_lexicon`` scorer: Feng et al.'s reading of a masked LM's top fills (the ``mlm`` backend's output).

The fills come from each sample's typed ``mask_fills`` field (:class:`~polibench.records.TokenProb`), which
the ``mlm`` backend fills. The probabilities of the fills that are agree words and of those that are
disagree words are summed and normalised: ``agree = pos / (pos + neg)``. The label is agree when
``agree >= disagree``; the PCT answer is "strongly" when the normalised difference is at least 0.3 (applied
by the PCT metric, as for generated responses). When no lexicon word is among the fills, or a sample has no
fills (a response from any other backend), the scorer abstains. The lexicons are Feng et al. 2023's
(Appendix A), overridable with ``--scorer-args``-style ``positive``/``negative`` lists in a task file.
"""

from __future__ import annotations

from typing import Optional, Sequence

from polibench.errors import PolibenchError
from polibench.records import Sample, TokenProb
from polibench.scoring.base import StanceResult, StanceScorer

POSITIVE = ("agree", "agrees", "agreeing", "agreed", "support", "supports", "supported", "supporting",
            "believe", "believes", "believed", "believing", "accept", "accepts", "accepted", "accepting",
            "approve", "approves", "approved", "approving", "endorse", "endorses", "endorsed", "endorsing")
NEGATIVE = ("disagree", "disagrees", "disagreeing", "disagreed", "oppose", "opposes", "opposing", "opposed",
            "deny", "denies", "denying", "denied", "refuse", "refuses", "refusing", "refused", "reject",
            "rejects", "rejecting", "rejected", "disapprove", "disapproves", "disapproving", "disapproved")

ABSTAIN = StanceResult(None, 0.0, {})


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

    def preflight(self) -> None:
        """The lexicons only tell agree from disagree: a task asking for other labels does not fit."""
        other = [label for label in self.labels if label not in ("agree", "disagree")]
        if other:
            raise PolibenchError(f"mask_lexicon scorer: can only return agree or disagree, but the task also asks "
                                 f"for {other}; use it on 2-label tasks (e.g. pct-mlm)")

    def score_fills(self, fills: Optional[Sequence[TokenProb]]) -> StanceResult:
        if not fills:
            return ABSTAIN
        pos = sum(f.prob for f in fills if normalise_token(f.token) in self.positive)
        neg = sum(f.prob for f in fills if normalise_token(f.token) in self.negative)
        if pos + neg <= 0:
            return ABSTAIN
        agree, disagree = pos / (pos + neg), neg / (pos + neg)
        label = "agree" if agree >= disagree else "disagree"
        return StanceResult(label, max(agree, disagree), {"agree": agree, "disagree": disagree})

    def score_samples(self, samples: Sequence[Sample], progress=None) -> list[StanceResult]:
        results = []
        for sample in samples:
            results.append(self.score_fills(sample.mask_fills))
            if progress:
                progress(1)
        return results

    def score(self, statements: Sequence[str], responses: Sequence[str], progress=None) -> list[StanceResult]:
        """Text alone carries no mask fills: every pair is an abstention (score samples instead)."""
        if progress:
            progress(len(responses))
        return [ABSTAIN for _ in responses]
