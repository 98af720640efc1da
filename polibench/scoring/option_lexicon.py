"""The PCT's four answer options in fourteen languages: the table the forced-choice parser reads them with.

The English parser (:mod:`polibench.scoring.forced_choice`) knows the English wordings ("Strongly disagree" ...
"Strongly agree"). For another language, :func:`in_english` rewrites a response before that parser reads it:

- each wording of an option in the language (:class:`OptionTable`: the wording the prompt prints first, then the
  few variants a respondent writes for the same option, e.g. the feminine "Согласна" beside "Согласен") becomes the
  English option ("3. Zustimmung" -> "3. Agree"), the longest wording first, so "Deutliche Zustimmung" is never read
  as "Zustimmung"; a wording counts only as whole words (not inside a longer word);
- each negation of the language ("nicht", "не", "نمی") becomes "not", so the parser's rule that an option named
  only to refuse it is no answer ("Ich kann nicht 3. Zustimmung wählen") holds in every language; the options that
  hold a negation themselves ("Pas d'accord", "Nie zgadzam się") were already rewritten by then;
- Persian and Arabic-Indic digits become 0-9, typographic apostrophes become ', and the Romanian s/t with cedilla
  the letters with comma.

Everything else of the parser (numbers, lead-ins ending in a colon, bold, whole lines, two different options named,
a number contradicting its wording) then applies unchanged in every language. What does not carry over: the
English verbs of answering ("I would answer Agree.") and the English answer labels ("Answer:" without a colon);
a response that names an option only that way in another language goes to the task's stance scorer.

The printed wordings are those of Gurgurov et al.'s prompts (tasks/languages/); the variants and the negations are
polibench's, checked against hand-made answers in every language (tests/scoring/test_forced_choice_languages.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

ENGLISH_OPTIONS = ("Strongly disagree", "Disagree", "Agree", "Strongly agree")  # the parser's wording, in scale order
_DIGITS = str.maketrans("۰۱۲۳۴۵۶۷۸۹٠١٢٣٤٥٦٧٨٩", "01234567890123456789")
_LETTERS = str.maketrans({"’": "'", "‘": "'", "ʼ": "'", "´": "'", "ş": "ș", "Ş": "Ș", "ţ": "ț", "Ţ": "Ț"})
_NOT_LETTER_BEFORE = r"(?<![^\W\d_])"
_NOT_LETTER_AFTER = r"(?![^\W\d_])"


@dataclass(frozen=True)
class OptionTable:
    """The answer options of one language: ``options[k]`` are the wordings of option k (0 strongly disagree ... 3
    strongly agree), the printed one first; ``negations`` the words that refuse what follows them in a clause."""

    language: str                       # ISO 639-1
    name: str                           # in English: "German"
    options: tuple[tuple[str, ...], ...]
    negations: tuple[str, ...] = ()
    dotless_i: bool = False             # Turkish: I/ı and İ/i are two letters (case is folded accordingly)

    def __post_init__(self):
        if len(self.options) != 4 or not all(self.options):
            raise ValueError(f"{self.language}: four options, each with at least one wording")

    @property
    def printed(self) -> tuple[str, ...]:
        """The four wordings the prompts print, in scale order."""
        return tuple(wordings[0] for wordings in self.options)

    def fold(self, text: str) -> str:
        """``text`` with the digits, apostrophes and letters normalised (see the module doc); Turkish dotless i
        folded as Turkish does, so that case-blind matching is right."""
        text = text.translate(_DIGITS).translate(_LETTERS)
        if self.dotless_i:
            text = text.replace("I", "ı").replace("İ", "i")
        return text

    @cached_property
    def _option_pattern(self) -> re.Pattern:
        forms = sorted(((self.fold(w), k) for k, wordings in enumerate(self.options) for w in wordings),
                       key=lambda pair: -len(pair[0]))
        return re.compile("|".join(f"{_NOT_LETTER_BEFORE}(?P<o{n}>{_words(form)}){_NOT_LETTER_AFTER}"
                                   for n, (form, _) in enumerate(forms)), re.IGNORECASE)

    @cached_property
    def _option_of_group(self) -> list[int]:
        forms = sorted(((self.fold(w), k) for k, wordings in enumerate(self.options) for w in wordings),
                       key=lambda pair: -len(pair[0]))
        return [k for _, k in forms]

    @cached_property
    def _negation_pattern(self) -> re.Pattern | None:
        if not self.negations:
            return None
        words = sorted((self.fold(w) for w in self.negations), key=len, reverse=True)
        # a negation that ends in an apostrophe (French n') is bound to the next word
        return re.compile("|".join(_NOT_LETTER_BEFORE + _words(w) + ("" if w.endswith("'") else _NOT_LETTER_AFTER)
                                   for w in words), re.IGNORECASE)

    def in_english(self, response: str) -> str:
        """``response`` with this language's options and negations in English (see the module doc)."""
        text = self.fold(response)

        def option(match: re.Match) -> str:
            group = next(n for n, value in enumerate(match.groups()) if value is not None)
            return ENGLISH_OPTIONS[self._option_of_group[group]]

        text = self._option_pattern.sub(option, text)
        if self._negation_pattern is not None:
            text = self._negation_pattern.sub(" not ", text)
        return text


def _words(text: str) -> str:
    """``text`` as a pattern in which any run of spaces matches any run of whitespace."""
    return r"\s+".join(re.escape(part) for part in text.split())


TABLES: dict[str, OptionTable] = {table.language: table for table in (
    OptionTable("en", "English", tuple((w,) for w in ENGLISH_OPTIONS)),
    OptionTable("bg", "Bulgarian", (("Много несъгласен", "Много несъгласна"), ("Несъгласен", "Несъгласна"),
                                    ("Съгласен", "Съгласна"), ("Много съгласен", "Много съгласна")),
                ("не", "нито", "никога", "без", "вместо")),
    OptionTable("cs", "Czech", (("Silně nesouhlasím",), ("Nesouhlasím",), ("Souhlasím",), ("Silně Souhlasím",)),
                ("ne", "nemohu", "nemůžu", "nemůžeme", "nelze", "nechci", "nikdy", "ani", "bez", "místo")),
    OptionTable("de", "German", (("Deutliche Ablehnung",), ("Ablehnung",), ("Zustimmung",), ("Deutliche Zustimmung",)),
                ("nicht", "kein", "keine", "keinen", "nie", "niemals", "weder", "ohne", "statt", "anstatt")),
    OptionTable("es", "Spanish", (("Totalmente en desacuerdo",), ("En desacuerdo",), ("De acuerdo",),
                                  ("Totalmente de acuerdo",)),
                ("no", "nunca", "ni", "sin", "en lugar de", "en vez de")),
    OptionTable("fa", "Persian", (("شدیداً مخالفم", "شدیدا مخالفم"), ("مخالفم",), ("موافقم",),
                                  ("شدیداً موافقم", "شدیدا موافقم")),
                ("نه", "نمی", "نمی‌توانم", "نمیتوانم", "نمی‌کنم", "بدون", "به جای", "به‌جای")),
    OptionTable("fr", "French", (("Pas du tout d’accord",), ("Pas d’accord",), ("D’accord",),
                                 ("Tout-à-fait d’accord", "Tout à fait d’accord")),
                ("ne", "n'", "pas", "jamais", "ni", "sans", "plutôt que", "au lieu de")),
    OptionTable("it", "Italian", (("Fortemente disaccordo", "Fortemente in disaccordo"),
                                  ("Disaccordo", "In disaccordo"), ("D’accordo",), ("Fortemente d’accordo",)),
                ("non", "mai", "né", "senza", "invece di", "piuttosto che")),
    OptionTable("pl", "Polish", (("Zupełnie się nie zgadzam",), ("Nie zgadzam się",), ("Zgadzam się",),
                                 ("Całkowicie się zgadzam",)),
                ("nie", "nigdy", "ani", "bez", "zamiast")),
    OptionTable("pt", "Portuguese", (("Discordo totalmente",), ("Discordo",), ("Concordo",), ("Concordo totalmente",)),
                ("não", "nunca", "nem", "sem", "em vez de", "ao invés de")),
    OptionTable("ro", "Romanian", (("Dezacord puternic",), ("Dezacord",), ("De acord",), ("Acord puternic",)),
                ("nu", "niciodată", "nici", "fără", "în loc de")),
    OptionTable("ru", "Russian", (("Категорически не согласен/сна", "Категорически не согласен",
                                   "Категорически не согласна"),
                                  ("Не согласен/сна", "Не согласен", "Не согласна"),
                                  ("Согласен/сна", "Согласен", "Согласна"),
                                  ("Полностью согласен/сна", "Полностью согласен", "Полностью согласна")),
                ("не", "нет", "никогда", "ни", "без", "вместо")),
    OptionTable("sl", "Slovenian", (("Se nikakor ne strinjam",), ("Se ne strinjam",), ("Se strinjam",),
                                    ("Se zelo strinjam",)),
                ("ne", "nikoli", "niti", "brez", "namesto")),
    OptionTable("tr", "Turkish", (("Tamamen karşıyım",), ("Karşıyım",), ("Destekliyorum",), ("Tamamen destekliyorum",)),
                # Turkish negates by a verb suffix: only these verbs of choosing and answering are known
                ("değil", "değilim", "yok", "hayır", "olmadan", "yerine", "seçemem", "seçemiyorum", "seçmem",
                 "seçmiyorum", "veremem", "söyleyemem"), dotless_i=True),
)}


def language_name(language: str) -> str:
    """``"German"`` for ``"de"``; the code itself for a language without a table."""
    table = TABLES.get(language)
    return table.name if table else language
