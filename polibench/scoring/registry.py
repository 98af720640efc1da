"""Stance scorers by name, imported lazily (the NLI and classifier scorers need torch)."""

from __future__ import annotations

from polibench.errors import PolibenchError
from polibench.kit.registry import Registry, subclass_of
from polibench.scoring.base import StanceScorer

# name -> "module:Class"; the NLI and classifier scorers need torch, imported only when chosen.
BUILTIN_SCORERS = {
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

# Every scorer by name: the built-in ones, then those of installed families and of plugin packages (entry-point
# group ``polibench.scorers``; a plugin never replaces a built-in name).
SCORERS: Registry[type[StanceScorer]] = Registry("scorer", group="scorers", part="scorers",
                                                 check=subclass_of(StanceScorer), entries=BUILTIN_SCORERS)

# Used by `polibench run` on the embedded model, which must work offline: the MiniLM stance classifier
# trained on the gold data on first use (polibench.stance.embedded, named by string: the core never imports
# polibench.stance).
OFFLINE_DEFAULT = "embedded"


def register_scorer(name: str, target: str, replace: bool = False) -> None:
    """Register a scorer implemented outside polibench (``"package.module:Class"``)."""
    SCORERS.add(name, target, replace=replace)


def scorer_class(name: str) -> type[StanceScorer]:
    """The class of scorer ``name``, imported now; an unknown name is one error."""
    return SCORERS.get(name)


def judges_ideology(name: str) -> bool:
    """Whether scorer ``name`` is an ideology judge (:mod:`polibench.scoring.ideology`), not a stance scorer."""
    return name in SCORERS and scorer_class(name).judges_ideology


def judges_issue(name: str) -> bool:
    """Whether scorer ``name`` grades IssueBench stances (:mod:`polibench.scoring.issue_judge`)."""
    return name in SCORERS and scorer_class(name).judges_issue


def judges_pairs(name: str) -> bool:
    """Whether scorer ``name`` grades paired prompts (:mod:`polibench.scoring.pair_judge`)."""
    return name in SCORERS and scorer_class(name).judges_pairs


def create_scorer(name: str, labels, **kwargs) -> StanceScorer:
    cls = scorer_class(name)
    try:
        return cls(labels=labels, **kwargs)
    except (TypeError, ValueError) as exc:  # unknown keyword, or a value/label the scorer refuses
        raise PolibenchError(f"scorer '{name}': bad arguments ({exc})") from None
