"""``planted`` backend: a positive control for generation bias, continuing prompts with partisan text of known
leaning (hand-written, ``polibench/data/controls/liu_planted.json``).

It finds the keyword of a Liu et al. prompt (the longest keyword of ``instrument`` in the prompt, so
"West Virginia" is not "Virginia") and the prompt's trigger ("democrat"/"Hillary": liberal,
"republican"/"Trump": conservative, else indirect), then picks a continuation:

- ``plant=balanced``: every prompt gets the *balanced mixture* (liberal, conservative or neutral text with equal
  chance), so no option differs: the control that must not be flagged;
- ``plant=indirect``: keywords of the ``conservative`` option (default ``red``) get conservative text, those of
  the ``liberal`` option (``blue``) liberal text, under every prompt; other options get the balanced mixture;
- ``plant=direct``: under liberal ("democrat") triggers, as ``indirect``; under conservative ("republican")
  triggers, neutral text for every keyword; indirect prompts get the balanced mixture. So the options differ
  only under one trigger, which is what Liu's direct bias measures.

``strength`` (default 0.8) is the share of planted continuations; the rest come from the balanced mixture.
The choice is a hash of the prompt's seed and text, so resuming and re-batching never change a response.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from functools import lru_cache
from typing import Optional

from polibench.errors import BackendError
from polibench.hashing import file_sha256
from polibench.models.base import ModelBackend, ProgressFn
from polibench.paths import PACKAGE_DIR
from polibench.records import Completion, GenerationSettings, Prompt, Usage

CONTINUATIONS = PACKAGE_DIR / "data" / "controls" / "liu_planted.json"
PLANTS = ("balanced", "indirect", "direct")
LEANINGS = ("liberal", "conservative", "neutral")
LIBERAL_TRIGGER = re.compile(r"democrat|hillary", re.IGNORECASE)
CONSERVATIVE_TRIGGER = re.compile(r"republican|trump", re.IGNORECASE)


@lru_cache(maxsize=1)
def continuations() -> dict[str, tuple[str, ...]]:
    data = json.loads(CONTINUATIONS.read_text(encoding="utf-8"))
    return {leaning: tuple(data[leaning]) for leaning in LEANINGS}


@lru_cache(maxsize=8)
def keyword_groups(instrument: str) -> dict[str, Optional[str]]:
    """{keyword: its option} of a built-in instrument (the registry is read once per process)."""
    from polibench.taskspec.loader import load_registry

    registry = load_registry()
    if instrument not in registry.instruments:
        raise BackendError(f"planted: unknown instrument '{instrument}'")
    return {item.text: item.group for item in registry.instruments[instrument].items}


def planted_leaning(text: str) -> Optional[str]:
    """The leaning of the pool a planted continuation was drawn from (None for any other text): what a
    perfect judge of these controls would read."""
    text = text.strip()
    return next((leaning for leaning, pool in continuations().items() if text in pool), None)


def trigger_of_prompt(text: str) -> str:
    if LIBERAL_TRIGGER.search(text):
        return "liberal"
    return "conservative" if CONSERVATIVE_TRIGGER.search(text) else "indirect"


class PlantedBackend(ModelBackend):
    name = "planted"

    def __init__(self, model: Optional[str] = None, *, plant: str = "indirect", instrument: str = "liu-location",
                 conservative: str = "red", liberal: str = "blue", strength: float = 0.8):
        if plant not in PLANTS:
            raise BackendError(f"planted: plant must be one of {list(PLANTS)} (got '{plant}')")
        strength = float(strength)
        if not 0.0 <= strength <= 1.0:
            raise BackendError(f"planted: strength must be in [0, 1] (got {strength})")
        groups = keyword_groups(instrument)
        if conservative not in groups.values() or liberal not in groups.values():
            raise BackendError(f"planted: options '{conservative}' and '{liberal}' must be groups of '{instrument}' "
                               f"({', '.join(sorted({str(g) for g in groups.values()}))})")
        super().__init__(model or f"planted-{plant}", plant=plant, instrument=instrument, conservative=conservative,
                         liberal=liberal, strength=strength)
        self.plant, self.strength = plant, strength
        self.leaning_of_group = {conservative: "conservative", liberal: "liberal"}
        self.keywords = sorted(groups.items(), key=lambda kv: -len(kv[0]))  # longest first
        self.patterns = [(re.compile(rf"(?<![A-Za-z]){re.escape(k)}(?![A-Za-z])"), g) for k, g in self.keywords]

    def cache_identity(self) -> dict:
        # the pools' file decides the responses too: an edited pool must not be served from the response cache
        return {**super().cache_identity(), "continuations_sha256": file_sha256(CONTINUATIONS)}

    def group_of(self, text: str) -> Optional[str]:
        return next((group for pattern, group in self.patterns if pattern.search(text)), None)

    def leaning_for(self, prompt: Prompt, rng: random.Random) -> str:
        """The leaning of the continuation of ``prompt``: the plant's with chance ``strength``, else balanced."""
        trigger = trigger_of_prompt(prompt.text)
        planted = self.leaning_of_group.get(self.group_of(prompt.text) or "")
        if self.plant == "direct" and trigger == "conservative":
            planted = "neutral"
        elif self.plant == "balanced" or (self.plant == "direct" and trigger == "indirect"):
            planted = None
        if planted is not None and rng.random() < self.strength:
            return planted
        return rng.choice(LEANINGS)

    def continue_prompt(self, prompt: Prompt) -> str:
        digest = hashlib.sha256(f"{prompt.seed}\0{prompt.text}".encode()).hexdigest()
        rng = random.Random(int(digest[:16], 16))
        return " " + rng.choice(continuations()[self.leaning_for(prompt, rng)])

    def generate(self, prompts: list[Prompt], settings: GenerationSettings,
                 progress: Optional[ProgressFn] = None) -> list[Completion]:
        out = [Completion(text=self.continue_prompt(p), finish_reason="stop",
                          usage=Usage(prompt_tokens=len(p.text.split()), completion_tokens=None)) for p in prompts]
        if progress:
            progress(len(prompts))
        return out
