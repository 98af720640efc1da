"""Which stance scorer may read a task asked in another language than English (the run's preflight asks).

A task in another language (``language:`` in its file, e.g. the PCT in German, tasks/languages/) sends the
responses its answer readers do not decide to its stance scorer. polibench's offline scorers read English only, and
an English scorer reading German text gives a number that means nothing without any error. So, before any model
call (:func:`check_scorer_languages`, called by :func:`polibench.pipeline.preflight.run_preflight`):

- a scorer that reads **English only** (:data:`ENGLISH_ONLY`: the offline ``embedded`` and ``lexical`` scorers, the
  English mask lexicon, ``nli`` with its default English checkpoint) is refused for such a task: one error, exit
  code 2, nothing generated;
- ``abstain`` (the default of those tasks) reads nothing, so an answer the reader cannot decide stays unanswered;
- any other scorer (``nli`` or ``classifier`` with a checkpoint the user names, an LLM ``judge``, a plugin's) is
  allowed with one note saying that polibench has not validated its reading of that language;
- a task whose every prompt is read without text (the log-probability channel) needs no scorer at all.
"""

from __future__ import annotations

import sys
from typing import Iterable, Optional, TextIO

from polibench.errors import PolibenchError
from polibench.scoring.option_lexicon import language_name
from polibench.scoring.readers import reader_for

# scorer name -> why it reads English only; nli's entry holds only for its default checkpoint
ENGLISH_ONLY = {
    "embedded": "polibench's offline stance scorer is a MiniLM fine-tuned on English gold data",
    "lexical": "its cue lexicon is English",
    "mask_lexicon": "its lexicon of mask fills is English",
    "nli": "its default checkpoint, facebook/bart-large-mnli, is English",
}
READS_ANY = {"abstain"}
NLI_DEFAULT = "facebook/bart-large-mnli"


def english_only_reason(scorer: str, args: dict) -> Optional[str]:
    """Why ``scorer`` with ``args`` reads only English, or None when it may read another language."""
    if scorer == "nli" and args.get("model", NLI_DEFAULT) != NLI_DEFAULT:
        return None
    return ENGLISH_ONLY.get(scorer)


def reads_text(scorings: Iterable[str]) -> bool:
    """Whether any of these answer formats sends text to the stance scorer (every reader but the log-probability
    channel's does, for the responses it cannot decide)."""
    return any(reader_for(scoring).reads_text for scoring in scorings)


def check_scorer_languages(tasks: Iterable[tuple[str, str, Iterable[str], str, dict]],
                           notes: TextIO = sys.stderr) -> None:
    """``tasks``: ``(task, language, its variants' answer formats, scorer, scorer args)`` per task. One error for the
    first task in another language than English whose scorer reads English only; a note for each scorer whose
    reading of the language is not validated (see the module doc)."""
    noted: set[tuple[str, str]] = set()
    for task, language, scorings, scorer, args in tasks:
        if language == "en" or not reads_text(scorings) or scorer in READS_ANY:
            continue
        name = language_name(language)
        reason = english_only_reason(scorer, args)
        if reason is not None:
            raise PolibenchError(
                f"task '{task}' asks in {name}, and stance scorer '{scorer}' reads English only ({reason}): it "
                f"would read the {name} answers the task's answer reader cannot decide as if they were English. "
                "Use --scorer abstain (they stay unanswered; the task's default) or a scorer that reads "
                f"{name}: --scorer nli --scorer-args model=<multilingual NLI checkpoint>, --scorer judge "
                "(docs/languages.md); nothing was generated")
        if (scorer, language) not in noted:
            noted.add((scorer, language))
            print(f"polibench: note: task '{task}' asks in {name}; the answers its reader cannot decide go to stance "
                  f"scorer '{scorer}', whose reading of {name} polibench has not validated", file=notes)
