"""The one small interface every model backend implements.

A backend turns :class:`~polibench.records.Prompt` objects into :class:`~polibench.records.Completion`
objects under some :class:`~polibench.records.GenerationSettings`. It knows nothing about tasks, stances,
metrics or the response cache: the generation stage (:mod:`polibench.models.stage`) copies completions into
the flowing ``Sample`` records, and :class:`polibench.cache.CachingBackend` wraps any backend to reuse and
persist its responses.

What a backend can do is declared in :attr:`ModelBackend.capabilities`:

- ``"generate"``: :meth:`ModelBackend.generate` (every backend);
- ``"score_choices"``: :meth:`ModelBackend.score_choices`, the log-probability of given continuations
  (lm-eval's ``loglikelihood`` requests). Callers check ``backend.supports("score_choices")``; calling it on
  a backend without the capability raises :class:`UnsupportedCapability`.

Before the first prompt, a run calls :meth:`ModelBackend.preflight`: cheap checks that the backend will
answer (the ``openai`` backend sends one free request); the default checks nothing.

A backend holds memory (model weights, a GPU engine) until :meth:`ModelBackend.close`; backends are context
managers (``with create_backend(...) as backend:``), and ``close()`` may be called more than once.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from pathlib import Path
from typing import Callable, Optional

from polibench.errors import BackendError
from polibench.models.identity import default_identity
from polibench.records import Completion, GenerationSettings, Prompt

ProgressFn = Callable[[int], None]

GENERATE = "generate"
SCORE_CHOICES = "score_choices"

__all__ = ["GENERATE", "SCORE_CHOICES", "Completion", "ModelBackend", "ProgressFn", "Prompt", "UnsupportedCapability",
           "cut_at_stop", "display_name", "parse_batch_size"]


class UnsupportedCapability(BackendError):
    """A caller asked a backend for something it does not declare in ``capabilities``."""

    def __init__(self, backend: str, capability: str, supported: frozenset[str] = frozenset()):
        self.backend, self.capability = backend, capability
        super().__init__(f"backend '{backend}' does not support '{capability}' "
                         f"(it supports: {', '.join(sorted(supported)) or 'nothing'})")


class ModelBackend(ABC):
    """Base class of all backends. Subclasses set ``name`` and implement :meth:`generate`; those that can
    score continuations add ``"score_choices"`` to ``capabilities`` and implement :meth:`score_choices`."""

    name: str = "base"
    capabilities: frozenset[str] = frozenset({GENERATE})
    streaming: bool = False  # True for backends that report each completion as it exists (StreamingBackend)
    chunk_size: int = 64  # prompts the generation stage hands over at once (and the cache persists together)
    # what a reader of the run's results must know about this model (results.json's model.warnings, report.md's
    # header), e.g. a debiasing method guided by the judge that grades it; never part of the cache identity
    warnings: tuple[str, ...] = ()

    def __init__(self, model: Optional[str], **model_args):
        self.model = model
        self.model_args = model_args
        self.closed = False

    def describe(self) -> dict:
        """Identity of the model as written to results.json (never includes secrets)."""
        info = {"backend": self.name, "model": self.model, "model_args": dict(self.model_args)}
        if self.warnings:
            info["warnings"] = list(self.warnings)
        return info

    def cache_identity(self) -> dict:
        """What decides this backend's responses (the model part of a cache key); see
        :mod:`polibench.models.identity`. Override when ``describe()`` holds things that do not matter."""
        return default_identity(self)

    @property
    def display_name(self) -> str:
        """The short name filled into ``{model_name}`` in prompt templates (:func:`display_name`)."""
        return display_name(self.model or self.name)

    def has_chat_template(self) -> Optional[bool]:
        """Whether chat prompts (a variant with ``chat: true``) are framed by the model's chat template; False
        when they go out as plain text for want of one; None when this backend cannot tell (a server applies its
        own, a scripted model). Recorded as results.json's ``model.chat_template`` (the ``answering`` warnings,
        :mod:`polibench.families.answering.metric`)."""
        return None

    def supports(self, capability: str) -> bool:
        return capability in self.capabilities

    def unsupported(self, capability: str) -> UnsupportedCapability:
        return UnsupportedCapability(self.name, capability, self.capabilities)

    @abstractmethod
    def generate(self, prompts: list[Prompt], settings: GenerationSettings,
                 progress: Optional[ProgressFn] = None) -> list[Completion]:
        """One completion per prompt, in order. Call ``progress(k)`` as k more are done."""

    def score_choices(self, prompts: list[Prompt], options: list[list[str]],
                      progress: Optional[ProgressFn] = None) -> list[list[float]]:
        """Per prompt, the log-probability of each of its option strings as the continuation of the prompt.

        The log-probability is summed over the option's tokens. A chat prompt (one with ``messages``) is
        framed by the model's chat template with the assistant header, and the option continues after that
        header; a plain prompt is continued directly (so an option usually starts with a space there). Only
        backends with ``"score_choices"`` in :attr:`capabilities` implement this."""
        raise self.unsupported(SCORE_CHOICES)

    @classmethod
    def check_model(cls, model: Optional[str]) -> None:
        """Raise :class:`~polibench.errors.BackendError` when ``model`` evidently cannot be loaded (a missing
        file); called before the backend is built, so it must not load anything. The default checks nothing."""
        return None

    @classmethod
    def check_settings(cls, model: Optional[str], model_args: dict) -> None:
        """Raise :class:`~polibench.errors.BackendError` when the backend evidently cannot start with these
        arguments and this environment (for ``openai``: no API key); like :meth:`check_model`, before anything
        is built or sent, and before the stance scorers are checked. The default checks nothing."""
        return None

    def preflight(self) -> None:
        """Raise :class:`~polibench.errors.BackendError` when the backend evidently cannot answer prompts (an
        API key the server refuses, an endpoint nobody answers). Called once before the first prompt; must
        cost seconds and no generation. The default checks nothing (a local backend failed in its constructor)."""
        return None

    def close(self) -> None:
        """Free what the backend holds (weights, engines, connections). Safe to call more than once."""
        self.closed = True

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def display_name(model: str) -> str:
    """The short name of a model id or path, as ``run`` and ``import`` fill it into ``{model_name}``: the last
    path part, without a ``.gguf`` extension and its quantisation tag
    (``models/SmolLM2-135M-Instruct.Q4_1.gguf`` -> ``SmolLM2-135M-Instruct``, ``org/Model-7B`` -> ``Model-7B``)."""
    name = model.rstrip("/").split("/")[-1] or model
    if name.lower().endswith(".gguf"):
        name = re.sub(r"[.-](?:I?Q\d\w*|F16|F32|BF16)$", "", name[:-5], flags=re.I) or name
    return name


def parse_batch_size(value, backend: str) -> Optional[int]:
    """``--batch-size`` / ``batch_size=`` as a backend receives it: a positive whole number, or ``"auto"``
    (returned as None: the backend picks its own, as lm-eval's ``--batch_size auto``)."""
    if value == "auto":
        return None
    try:
        number = int(value)
    except (TypeError, ValueError):
        number = 0
    if number < 1 or str(number) != str(value).strip():
        raise BackendError(f"{backend}: batch_size must be a positive whole number or 'auto' (got '{value}')")
    return number


def cut_at_stop(text: str, stops: list[str]) -> tuple[str, bool]:
    """Cut ``text`` at the first stop string, if any; for backends that cannot stop by themselves."""
    cuts = [text.find(s) for s in stops if s and s in text]
    return (text[:min(cuts)], True) if cuts else (text, False)


def check_local_model(backend: str, model: Optional[str]) -> None:
    """A ``--model`` written as a path (``/``, ``./``, ``../`` or ``~`` first, or more than one ``/``: a hub id
    is ``name`` or ``org/name``) must exist: a mistyped folder is reported as such, not as a hub lookup."""
    if not model:
        return
    looks_like_path = model.startswith(("/", ".", "~")) or model.count("/") > 1 or model.endswith("/")
    if looks_like_path and not Path(model).expanduser().exists():
        raise BackendError(f"{backend}: --model '{model}' is written as a path, and no such file or folder exists "
                           "(a hub id is 'name' or 'org/name')")
