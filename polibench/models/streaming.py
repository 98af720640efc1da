"""Backends that hand back each completion as soon as it exists (API clients, one-request-at-a-time models).

The generation stage passes ``on_result(index, completion)``, which the response cache uses to persist
every response the moment it arrives, so a killed run loses at most the requests in flight.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Callable, Optional

from polibench.models.base import ModelBackend, ProgressFn
from polibench.records import Completion, GenerationSettings, Prompt

ResultFn = Callable[[int, Completion], None]


class StreamingBackend(ModelBackend):
    """A backend that reports completions one by one, in any order."""

    streaming = True

    @abstractmethod
    def generate_each(self, prompts: list[Prompt], settings: GenerationSettings, on_result: ResultFn) -> None:
        """Call ``on_result(i, completion)`` once for every ``prompts[i]``, as each is done."""

    def generate(self, prompts: list[Prompt], settings: GenerationSettings,
                 progress: Optional[ProgressFn] = None) -> list[Completion]:
        return collect_each(self.generate_each, prompts, settings, progress)


def collect_each(generate_each: Callable[[list[Prompt], GenerationSettings, ResultFn], None], prompts: list[Prompt],
                 settings: GenerationSettings, progress: Optional[ProgressFn] = None) -> list[Completion]:
    """``generate`` in terms of a ``generate_each``: the completions in prompt order, ticking ``progress`` as
    each one arrives."""
    results: list[Optional[Completion]] = [None] * len(prompts)

    def collect(index: int, completion: Completion) -> None:
        results[index] = completion
        if progress:
            progress(1)

    generate_each(prompts, settings, collect)
    return results  # type: ignore[return-value]
