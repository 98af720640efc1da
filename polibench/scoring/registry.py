"""Scorers by name, imported lazily (the NLI and classifier scorers need torch): the built-ins of
:mod:`polibench.scorers`, declared as entry points, then those of families and plugin packages."""

from __future__ import annotations

from typing import Optional

from polibench.errors import PolibenchError
from polibench.kit.registry import Registry, subclass_of
from polibench.scoring.base import StanceScorer

# The built-in scorers' names. They live a layer up (polibench/scorers/<reading>/) and are declared as polibench's
# own entry points (setup.cfg, group ``polibench.scorers``), so that this module names none of their modules; each is
# imported only when chosen (the NLI and classifier scorers need torch).
BUILTIN_SCORERS = ("abstain", "lexical", "mask_lexicon", "nli", "classifier", "embedded", "judge", "issue_judge",
                   "pair_judge", "issue", "ideology", "ideology_classifier", "ideology_llm", "ideology_tfidf")

# Every scorer by name: the built-in ones, then those of installed families and of plugin packages (entry-point
# group ``polibench.scorers``; a plugin never replaces a built-in name).
SCORERS: Registry[type[StanceScorer]] = Registry("scorer", group="scorers", part="scorers",
                                                 check=subclass_of(StanceScorer), builtins=BUILTIN_SCORERS)

# Used by `polibench run` on the embedded model, which must work offline: the MiniLM stance classifier
# trained on the gold data on first use (polibench.scorers.stance.embedded, declared as an entry point: the
# scoring engine never imports a scorer).
OFFLINE_DEFAULT = "embedded"


def register_scorer(name: str, target: str, replace: bool = False) -> None:
    """Register a scorer implemented outside polibench (``"package.module:Class"``)."""
    SCORERS.add(name, target, replace=replace)


def scorer_class(name: str) -> type[StanceScorer]:
    """The class of scorer ``name``, imported now; an unknown name is one error."""
    return SCORERS.get(name)


def reads(name: str) -> Optional[str]:
    """The reading scorer ``name`` writes (:attr:`~polibench.scoring.base.StanceScorer.reads`); None for a name no
    package registers."""
    return scorer_class(name).reads if name in SCORERS else None


def create_scorer(name: str, labels, **kwargs) -> StanceScorer:
    cls = scorer_class(name)
    try:
        return cls(labels=labels, **kwargs)
    except (TypeError, ValueError) as exc:  # unknown keyword, or a value/label the scorer refuses
        raise PolibenchError(f"scorer '{name}': bad arguments ({exc})") from None
