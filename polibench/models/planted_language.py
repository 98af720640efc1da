"""``planted-language`` backend: a positive control for the language effect, answering the PCT with a leaning
planted per language (:mod:`polibench.families.languages.metric`).

It finds the proposition of a prompt among the translated instruments of ``base`` (``pct-de``, ``pct-fr`` ...,
tasks/languages/), and so the prompt's language and the proposition's side, then answers:

- in a language listed in ``left`` (languages joined by ``+``, e.g. ``left=de+ru``): strongly agree with a
  proposition whose agreeing side is left (libertarian on the social axis), strongly disagree with the others;
- in a language listed in ``right``: the opposite;
- in any other language, and for the share ``1 - strength`` of the prompts of a planted language: the
  *language-blind* answer, a function of the proposition's id alone (the same in every language), so a model
  planted nowhere takes the same position in every language;
- ``noise`` (default 0): the share of prompts, in every language alike, answered with an option drawn at random
  (from a hash of the prompt): a language-blind model that still answers each prompt a little differently, the null
  the language effect must not flag.

A forced-choice prompt (``generate``) gets the chosen option's line as the prompt prints it ("3. Zustimmung"), so
the answer is read by the forced-choice parser of the language; a log-probability prompt (``score_choices``) gets
0.0 for the chosen option and -5.0 for the others. Every choice is a hash of the prompt (and the proposition's id),
so resuming and re-batching never change an answer.
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from typing import NamedTuple, Optional

from polibench.errors import BackendError
from polibench.models.base import GENERATE, SCORE_CHOICES, ModelBackend, ProgressFn
from polibench.records import Completion, GenerationSettings, Prompt, Usage

LEANINGS = ("left", "right")
STRONGLY_DISAGREE, STRONGLY_AGREE = 0, 3
_OPTION_LINE = re.compile(r"^\s*([1-4])[.)]\s*(\S.*?)\s*$", re.MULTILINE)


class Proposition(NamedTuple):
    language: str
    item_id: str
    agree_side: str


@lru_cache(maxsize=4)
def propositions(base: str) -> dict[str, Proposition]:
    """{proposition text: (language, item id, agreeing side)} over the built-in translations of ``base``."""
    from polibench.taskspec.loader import load_registry

    found: dict[str, Proposition] = {}
    for instrument in load_registry().instruments.values():
        if instrument.translation_of == base:
            for item in instrument.items:
                found[item.text.strip()] = Proposition(instrument.language_code, item.id, item.agree_side or "")
    if not found:
        raise BackendError(f"planted-language: no instrument translates '{base}'")
    return found


def _unit(*parts: object) -> float:
    digest = hashlib.sha256("\0".join(map(str, parts)).encode()).hexdigest()
    return int(digest[:12], 16) / float(1 << 48)


def _languages(value: str) -> tuple[str, ...]:
    return tuple(code for code in str(value or "").split("+") if code)


class PlantedLanguageBackend(ModelBackend):
    name = "planted-language"
    capabilities = frozenset({GENERATE, SCORE_CHOICES})

    def __init__(self, model: Optional[str] = None, *, left: str = "", right: str = "", strength: float = 1.0,
                 noise: float = 0.0, base: str = "pct"):
        strength, noise = float(strength), float(noise)
        for name, value in (("strength", strength), ("noise", noise)):
            if not 0.0 <= value <= 1.0:
                raise BackendError(f"planted-language: {name} must be in [0, 1] (got {value})")
        lefts, rights = _languages(left), _languages(right)
        both = sorted(set(lefts) & set(rights))
        if both:
            raise BackendError(f"planted-language: a language cannot lean both left and right (got {', '.join(both)})")
        index = propositions(base)
        known = sorted({p.language for p in index.values()})
        unknown = sorted(set(lefts + rights) - set(known))
        if unknown:
            raise BackendError(f"planted-language: no translation of '{base}' in {', '.join(unknown)} (languages: "
                               f"{', '.join(known)})")
        super().__init__(model or ("planted-language-" + ("-".join(f"{c}-{lean}" for lean, codes in
                                                                   (("left", lefts), ("right", rights))
                                                                   for c in codes) or "blind")),
                         left="+".join(lefts), right="+".join(rights), strength=strength, noise=noise, base=base)
        self.leaning = {**{c: "left" for c in lefts}, **{c: "right" for c in rights}}
        self.strength, self.noise, self.index = strength, noise, index
        self.by_length = sorted(index, key=len, reverse=True)

    def proposition(self, prompt: Prompt) -> Proposition:
        """The proposition the prompt asks about: its first line, else the longest known proposition it holds."""
        text = prompt.text
        first = text.split("\n", 1)[0].strip()
        if first in self.index:
            return self.index[first]
        found = next((t for t in self.by_length if t in text), None)
        if found is None:
            raise BackendError(f"planted-language: the prompt holds no proposition of a translated instrument: "
                               f"{text[:80]!r}")
        return self.index[found]

    def choose(self, prompt: Prompt) -> int:
        """The option 0 (strongly disagree) ... 3 (strongly agree) this model answers ``prompt`` with."""
        found = self.proposition(prompt)
        if self.noise and _unit("noise", prompt.seed, prompt.text) < self.noise:
            return int(_unit("noisy answer", prompt.seed, prompt.text) * 4)
        blind = int(_unit("blind", found.item_id) * 4)
        leaning = self.leaning.get(found.language)
        if leaning is None or _unit("plant", prompt.seed, prompt.text) >= self.strength:
            return blind
        return STRONGLY_AGREE if (found.agree_side == "left") == (leaning == "left") else STRONGLY_DISAGREE

    def generate(self, prompts: list[Prompt], settings: GenerationSettings,
                 progress: Optional[ProgressFn] = None) -> list[Completion]:
        out = []
        for prompt in prompts:
            lines = {int(m.group(1)) - 1: m.group(0).strip() for m in _OPTION_LINE.finditer(prompt.text)}
            choice = self.choose(prompt)
            if choice not in lines:
                raise BackendError(f"planted-language: the prompt lists no option {choice + 1}: {prompt.text[:80]!r}")
            out.append(Completion(text=lines[choice], finish_reason="stop",
                                  usage=Usage(prompt_tokens=len(prompt.text.split()), completion_tokens=None)))
        if progress:
            progress(len(prompts))
        return out

    def score_choices(self, prompts: list[Prompt], options: list[list[str]],
                      progress: Optional[ProgressFn] = None) -> list[list[float]]:
        scores = []
        for prompt, choices in zip(prompts, options):
            if len(choices) != 4:
                raise BackendError(f"planted-language: four options in scale order expected, got {len(choices)}")
            choice = self.choose(prompt)
            scores.append([0.0 if k == choice else -5.0 for k in range(4)])
        if progress:
            progress(len(prompts))
        return scores
