"""``mock`` backend: deterministic canned responses, for tests and for trying the pipeline without a model.

``polibench run --backend mock --model-args responses=I agree.|I disagree.`` answers every prompt with one
of the canned texts (``responses``: a list, or one string split on ``|``; default :data:`DEFAULT_RESPONSES`):

- ``order=seed`` (default): text number ``(prompt seed + shift) % len(responses)``, so a response depends
  only on its prompt's seed (resuming, re-batching and caching never change it);
- ``order=script``: the texts in order, one per generated response across calls (a fixed script).

``score_choices=true`` adds the ``score_choices`` capability, with deterministic log-probabilities derived
from a hash of the prompt text and the option (or, with ``prefer=WORD``, 0.0 for options containing WORD
and -5.0 for the others). The backend records what it was asked (``calls``: the prompts of each
``generate`` call; ``choice_calls``) and whether it was closed (``closed``); ``fail_after_calls=N`` raises
:class:`~polibench.errors.BackendError` on call N+1, to test interruptions.
"""

from __future__ import annotations

import hashlib
from typing import Optional, Union

from polibench.errors import BackendError
from polibench.models.base import GENERATE, SCORE_CHOICES, ModelBackend, ProgressFn
from polibench.records import Completion, GenerationSettings, Prompt, Usage

DEFAULT_RESPONSES = ("I agree with this statement.", "I disagree with this statement.", "I strongly agree.",
                     "I strongly disagree.", "I have no opinion on this.")
ORDERS = ("seed", "script")


def as_bool(value: Union[bool, str]) -> bool:
    return value if isinstance(value, bool) else str(value).strip().lower() in ("1", "true", "yes", "on")


class MockBackend(ModelBackend):
    name = "mock"

    def __init__(self, model: Optional[str] = None, *, responses: Union[str, list[str], tuple[str, ...], None] = None,
                 order: str = "seed", shift: int = 0, score_choices: Union[bool, str] = False,
                 prefer: Union[str, int, float, None] = None, fail_after_calls: Optional[int] = None):
        # --model-args parses "prefer=2" as a number; the option text it marks is still the word "2"
        prefer = None if prefer is None else str(prefer)
        texts = responses.split("|") if isinstance(responses, str) else list(responses or DEFAULT_RESPONSES)
        if not texts:
            raise BackendError("mock: responses must name at least one text")
        if order not in ORDERS:
            raise BackendError(f"mock: order must be one of {list(ORDERS)} (got '{order}')")
        super().__init__(model or "mock", responses=texts, order=order, shift=int(shift),
                         score_choices=as_bool(score_choices), prefer=prefer)
        self.responses, self.order, self.shift, self.prefer = texts, order, int(shift), prefer
        self.fail_after_calls = None if fail_after_calls is None else int(fail_after_calls)
        if as_bool(score_choices):
            self.capabilities = frozenset({GENERATE, SCORE_CHOICES})
        self.calls: list[list[Prompt]] = []
        self.choice_calls: list[tuple[list[Prompt], list[list[str]]]] = []
        self._next = 0

    def _check_open(self) -> None:
        if self.closed:
            raise BackendError("mock: used after close()")
        if self.fail_after_calls is not None and len(self.calls) + len(self.choice_calls) >= self.fail_after_calls:
            raise BackendError(f"mock: simulated failure after {self.fail_after_calls} calls")

    def response_for(self, prompt: Prompt) -> str:
        if self.order == "script":
            text = self.responses[self._next % len(self.responses)]
            self._next += 1
            return text
        return self.responses[(prompt.seed + self.shift) % len(self.responses)]

    def generate(self, prompts: list[Prompt], settings: GenerationSettings,
                 progress: Optional[ProgressFn] = None) -> list[Completion]:
        self._check_open()
        self.calls.append(list(prompts))
        out = [Completion(text=self.response_for(p), finish_reason="stop",
                          usage=Usage(prompt_tokens=len(p.text.split()), completion_tokens=None)) for p in prompts]
        if progress:
            progress(len(prompts))
        return out

    def choice_logprob(self, prompt: Prompt, option: str) -> float:
        if self.prefer is not None:
            return 0.0 if self.prefer.lower() in option.lower() else -5.0
        digest = hashlib.sha256(f"{prompt.text}\0{option}".encode()).hexdigest()
        return -0.1 - (int(digest[:8], 16) % 10_000) / 1_000  # in (-10.1, -0.1]

    def score_choices(self, prompts: list[Prompt], options: list[list[str]],
                      progress: Optional[ProgressFn] = None) -> list[list[float]]:
        if not self.supports(SCORE_CHOICES):
            raise self.unsupported(SCORE_CHOICES)
        self._check_open()
        self.choice_calls.append((list(prompts), [list(o) for o in options]))
        scores = [[self.choice_logprob(p, o) for o in opts] for p, opts in zip(prompts, options)]
        if progress:
            progress(len(prompts))
        return scores
