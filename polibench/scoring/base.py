"""The stance-scorer interface: (statement, response) pairs in, a label with a confidence out.

Scorers see only text. The scoring stage (:mod:`polibench.scoring.stage`) decides which samples go to
the Likert parser and which to the stance scorer, and applies the confidence filter.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Optional, Sequence

LABELS = ("agree", "disagree", "neutral", "unrelated")


@dataclass(frozen=True)
class StanceResult:
    """``label`` is None when the scorer abstains (it saw no usable stance)."""

    label: Optional[str]
    confidence: float
    probs: dict[str, float] = field(default_factory=dict)


class StanceScorer(ABC):
    """Base class of all stance scorers. ``labels`` are the labels this instance may return."""

    name: str = "base"

    def __init__(self, labels: Sequence[str] = ("agree", "disagree"), **kwargs):
        unknown = [label for label in labels if label not in LABELS]
        if unknown:
            raise ValueError(f"unknown stance labels {unknown}; expected a subset of {LABELS}")
        self.labels = tuple(labels)
        self.options = kwargs

    def describe(self) -> dict:
        return {"scorer": self.name, "labels": list(self.labels), **self.options}

    @abstractmethod
    def score(self, statements: Sequence[str], responses: Sequence[str],
              progress=None) -> list[StanceResult]:
        """One result per (statement, response) pair, in order."""
