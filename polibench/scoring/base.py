"""The stance-scorer interface: (statement, response) pairs in, a label with a confidence out.

Scorers see text, through :meth:`StanceScorer.score`; a scorer that reads something else a backend
recorded (the ``mask_lexicon`` scorer reads a masked LM's ``mask_fills``) overrides
:meth:`StanceScorer.score_samples`, which the scoring stage calls. The scoring stage
(:mod:`polibench.scoring.stage`) decides which samples go to the Likert parser and which to the stance
scorer, and applies the confidence filter.

Scorers are built cheaply (no weights are loaded before the first :meth:`StanceScorer.score`), so a run
can build them before any model call and ask :meth:`StanceScorer.preflight` whether they will load and
whether their labels fit the task (:mod:`polibench.pipeline.preflight`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional, Sequence

from pydantic import BaseModel

from polibench.errors import PolibenchError
from polibench.records import Sample

LABELS = ("agree", "disagree", "neutral", "unrelated")


@dataclass(frozen=True)
class StanceResult:
    """``label`` is None when the scorer abstains (it saw no usable stance)."""

    label: Optional[str]
    confidence: float
    probs: dict[str, float] = field(default_factory=dict)
    # the record a scorer of another reading made itself (a paired-prompt grader's PairGrade), for its verdict
    reading: Optional[BaseModel] = None


class StanceScorer(ABC):
    """Base class of all stance scorers. ``labels`` are the labels this instance may return."""

    name: str = "base"
    # the reading it writes (polibench.records.READINGS): "stance", or the name of another reading whose verdict
    # turns its results into each sample's stance and record ("ideology": a score in the probs of a labelless
    # result; "issue_stance": IssueBench's 1-5 / refusal; "pair_grade": a PairGrade in the result's reading)
    reads: str = "stance"

    def __init__(self, labels: Sequence[str] = ("agree", "disagree"), **kwargs):
        unknown = [label for label in labels if label not in LABELS]
        if unknown:
            raise ValueError(f"unknown stance labels {unknown}; expected a subset of {LABELS}")
        self.labels = tuple(labels)
        self.options = kwargs

    def describe(self) -> dict:
        return {"scorer": self.name, "labels": list(self.labels), **self.options}

    def preflight(self) -> None:
        """Raise :class:`~polibench.errors.PolibenchError` when this scorer could not score the task: its
        model cannot be found, or it cannot return the task's labels. Must stay cheap: never load weights
        onto a device (the run checks scorers while the generating model may be resident). The default
        checks nothing beyond what the constructor checked."""
        return None

    @classmethod
    def first_use_plan(cls, **scorer_args) -> Optional[str]:
        """What using this scorer with ``scorer_args`` will cost first, for the run's plan, printed before
        generation (a scorer trained on first use says how long that takes); None when nothing. A class method:
        no scorer is created while the generating model is loaded. Cheap: no weights."""
        return None

    @abstractmethod
    def score(self, statements: Sequence[str], responses: Sequence[str],
              progress=None) -> list[StanceResult]:
        """One result per (statement, response) pair, in order."""

    def score_samples(self, samples: Sequence[Sample], progress=None) -> list[StanceResult]:
        """One result per sample: by default :meth:`score` over their statements and responses."""
        return self.score([s.statement for s in samples], [s.response or "" for s in samples], progress=progress)


def require_issues(samples: Sequence[Sample], scorer: str) -> None:
    """A scorer of IssueBench issues reads each sample's issue: one error naming the items that carry none (the
    preflight refuses such tasks before generating; this guards scoring an imported or earlier run)."""
    missing = [s.item_id for s in samples if s.issue is None]
    if missing:
        raise PolibenchError(f"the {scorer} scorer grades IssueBench tasks only: sample(s) of item(s) "
                             f"{', '.join(sorted(set(missing))[:5])} carry no issue")


def first_use_training(given: object, trained: Path, plan: Callable[[], str]) -> Optional[str]:
    """:meth:`StanceScorer.first_use_plan` of a scorer whose default model is trained on first use: None when
    ``given`` (a model the user named) or when ``trained`` (the default's file in this cache) exists, else
    ``plan()``, the training line (called only then: it reads the training data)."""
    return None if given or trained.is_file() else plan()
