"""Stance scorers by name, imported lazily (the NLI and classifier scorers need torch)."""

from __future__ import annotations

import importlib

from polibench.errors import PolibenchError
from polibench.scoring.base import StanceScorer

SCORERS: dict[str, str] = {
    "abstain": "polibench.scoring.abstain:AbstainScorer",
    "lexical": "polibench.scoring.lexical:LexicalScorer",
    "mask_lexicon": "polibench.scoring.mask_lexicon:MaskLexiconScorer",
    "nli": "polibench.scoring.nli:NLIScorer",
    "classifier": "polibench.scoring.classifier:ClassifierScorer",
    "embedded": "polibench.stance.embedded:EmbeddedStanceScorer",
    "judge": "polibench.scoring.judge:JudgeScorer",
    "issue_judge": "polibench.scoring.issue_judge:IssueJudgeScorer",
    "pair_judge": "polibench.scoring.pair_judge:PairJudgeScorer",
    "issue": "polibench.stance.issue:IssueStanceScorer",
    "ideology": "polibench.ideology.embedded:EmbeddedIdeologyScorer",
    "ideology_classifier": "polibench.scoring.ideology:ClassifierIdeologyScorer",
    "ideology_llm": "polibench.scoring.ideology:LLMIdeologyScorer",
    "ideology_tfidf": "polibench.ideology.lexical:TfidfIdeologyScorer",
}

# Used by `polibench run` on the embedded model, which must work offline: the MiniLM stance classifier
# trained on the gold data on first use (polibench.stance.embedded, named by string: the core never imports
# polibench.stance).
OFFLINE_DEFAULT = "embedded"


def available_scorers() -> dict[str, str]:
    """Every scorer by name: the built-in ones and those of installed plugin packages (entry-point group
    ``polibench.scorers``, :mod:`polibench.plugins`; a plugin does not replace a built-in name)."""
    from polibench import plugins

    for name, target in plugins.targets("scorers").items():
        SCORERS.setdefault(name, target)
    return SCORERS


def register_scorer(name: str, target: str) -> None:
    SCORERS[name] = target


def scorer_class(name: str) -> type[StanceScorer]:
    if name not in available_scorers():
        raise PolibenchError(f"unknown scorer '{name}'; available: {', '.join(sorted(SCORERS))}")
    module_name, _, class_name = SCORERS[name].partition(":")
    return getattr(importlib.import_module(module_name), class_name)


def judges_ideology(name: str) -> bool:
    """Whether scorer ``name`` is an ideology judge (:mod:`polibench.scoring.ideology`), not a stance scorer."""
    return name in available_scorers() and scorer_class(name).judges_ideology


def judges_issue(name: str) -> bool:
    """Whether scorer ``name`` grades IssueBench stances (:mod:`polibench.scoring.issue_judge`)."""
    return name in available_scorers() and scorer_class(name).judges_issue


def judges_pairs(name: str) -> bool:
    """Whether scorer ``name`` grades paired prompts (:mod:`polibench.scoring.pair_judge`)."""
    return name in available_scorers() and scorer_class(name).judges_pairs


def create_scorer(name: str, labels, **kwargs) -> StanceScorer:
    cls = scorer_class(name)
    try:
        return cls(labels=labels, **kwargs)
    except (TypeError, ValueError) as exc:  # unknown keyword, or a value/label the scorer refuses
        raise PolibenchError(f"scorer '{name}': bad arguments ({exc})") from None
