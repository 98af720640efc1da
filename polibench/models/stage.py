"""Stage 3: send each sample's prompt to a backend and copy the completion into the record.

Work goes to the backend in chunks so that ``on_chunk`` (e.g. a results writer or cache) can persist
finished samples as soon as they exist.
"""

from __future__ import annotations

from typing import Callable, Optional

from tqdm.auto import tqdm

from polibench.models.base import ModelBackend, Prompt
from polibench.records import GenerationSettings, Sample


def prompt_of(sample: Sample) -> Prompt:
    return Prompt(text=sample.prompt, seed=sample.seed,
                  messages=tuple(sample.messages) if sample.messages else None)


def generate_samples(samples: list[Sample], backend: ModelBackend, settings: GenerationSettings, *,
                     chunk_size: int = 64, on_chunk: Optional[Callable[[list[Sample]], None]] = None,
                     show_progress: bool = True, desc: str = "generating") -> list[Sample]:
    """Return copies of ``samples`` with ``response``, ``finish_reason`` and ``usage`` filled in."""
    done: list[Sample] = []
    with tqdm(total=len(samples), desc=desc, unit="resp", disable=not show_progress) as bar:
        for start in range(0, len(samples), chunk_size):
            chunk = samples[start:start + chunk_size]
            completions = backend.generate([prompt_of(s) for s in chunk], settings, progress=bar.update)
            filled = [s.model_copy(update={"response": c.text, "finish_reason": c.finish_reason,
                                           "usage": c.usage})
                      for s, c in zip(chunk, completions)]
            if on_chunk:
                on_chunk(filled)
            done.extend(filled)
    return done
