"""Forced-choice answers in every language of :data:`polibench.scoring.option_lexicon.TABLES`.

One answer reader per language, ``forced_choice_<language>`` (``forced_choice_de`` ... ``forced_choice_tr``;
English is the plain ``forced_choice``), registered with :func:`polibench.scoring.readers.register_reader`: a
variant of a task in that language names it as its ``scoring``. The reader rewrites the response's options and
negations into English with the language's :class:`~polibench.scoring.option_lexicon.OptionTable` and hands the
result to the English parser (:func:`polibench.scoring.forced_choice.parse_forced_choice`), whose rules it leaves
alone; a parsed option becomes the same stance as in English (:func:`~polibench.scoring.forced_choice.
forced_choice_stance`).
"""

from __future__ import annotations

from typing import Callable, Optional

from polibench.records import Sample, Stance
from polibench.scoring.forced_choice import OPTIONS, forced_choice_stance, parse_forced_choice
from polibench.scoring.option_lexicon import TABLES, OptionTable

PREFIX = "forced_choice_"


def reader_name(language: str) -> str:
    """The answer format (variant ``scoring``) of a forced choice in ``language``."""
    return "forced_choice" if language == "en" else PREFIX + language.replace("-", "_")


def parse_in_language(response: Optional[str], language: str) -> Optional[int]:
    """The option 0-3 a response in ``language`` chooses, or None (the English parser's rules, see the module doc)."""
    if not response or not response.strip():
        return None
    table = TABLES[language]
    return parse_forced_choice(response if language == "en" else table.in_english(response))


def _reader(table: OptionTable) -> Callable[[Sample], Optional[Stance]]:
    def read(sample: Sample) -> Optional[Stance]:
        option = parse_in_language(sample.response, table.language)
        if option is None:
            return None
        label, probs = forced_choice_stance(option)
        return Stance(label=label, confidence=1.0, probs=probs, scorer=f"forced_choice:{OPTIONS[option]}", kept=True)
    return read


def language_reads() -> dict[str, Callable[[Sample], Optional[Stance]]]:
    """The forced-choice reader of every language with an option table but English, by answer format name
    (``forced_choice_<language>``); :mod:`polibench.scoring.readers` registers them."""
    return {reader_name(language): _reader(table) for language, table in TABLES.items() if language != "en"}
