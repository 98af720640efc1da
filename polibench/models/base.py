"""The one small interface every model backend implements.

A backend turns :class:`Prompt` objects into :class:`Completion` objects under some
:class:`~polibench.records.GenerationSettings`. It knows nothing about tasks, stances or metrics: the
generation stage (:mod:`polibench.models.stage`) copies completions into the flowing ``Sample`` records.
"""

from __future__ import annotations

import re

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Callable, Optional

from polibench.records import ChatMessage, GenerationSettings, Usage

ProgressFn = Callable[[int], None]


@dataclass(frozen=True)
class Prompt:
    """What to send: the plain text, the chat messages when the variant uses chat framing, and a seed."""

    text: str
    seed: int
    messages: Optional[tuple[ChatMessage, ...]] = None

    def plain_text(self) -> str:
        """The prompt for a model without a chat template (a system message, if any, goes first)."""
        if self.messages and self.messages[0].role == "system":
            return self.messages[0].content + "\n\n" + self.text
        return self.text


@dataclass
class Completion:
    text: str
    finish_reason: Optional[str] = None
    usage: Usage = field(default_factory=Usage)


class ModelBackend(ABC):
    """Base class of all backends. Subclasses set ``name`` and implement :meth:`generate`."""

    name: str = "base"

    def __init__(self, model: Optional[str], **model_args):
        self.model = model
        self.model_args = model_args

    def describe(self) -> dict:
        """Identity of the model as written to results.json (never includes secrets)."""
        return {"backend": self.name, "model": self.model, "model_args": dict(self.model_args)}

    @property
    def display_name(self) -> str:
        """The short name filled into ``{model_name}`` in prompt templates: the last path part, without a
        ``.gguf`` extension and its quantisation tag (``SmolLM2-135M-Instruct.Q4_1.gguf`` -> ``SmolLM2-135M-Instruct``)."""
        name = (self.model or self.name).rstrip("/").split("/")[-1]
        if name.lower().endswith(".gguf"):
            name = re.sub(r"[.-](?:I?Q\d\w*|F16|F32|BF16)$", "", name[:-5], flags=re.I) or name
        return name

    @abstractmethod
    def generate(self, prompts: list[Prompt], settings: GenerationSettings,
                 progress: Optional[ProgressFn] = None) -> list[Completion]:
        """One completion per prompt, in order. Call ``progress(k)`` as k more are done."""

    def close(self) -> None:
        """Free memory held by the backend."""


def cut_at_stop(text: str, stops: list[str]) -> tuple[str, bool]:
    """Cut ``text`` at the first stop string, if any; for backends that cannot stop by themselves."""
    cuts = [text.find(s) for s in stops if s and s in text]
    return (text[:min(cuts)], True) if cuts else (text, False)
