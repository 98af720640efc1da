"""Stage 3: send each sample's prompt to a backend and copy the completion into the record.

With a :class:`~polibench.cache.ResponseCache`, responses already in the cache are taken from it and every
new response is stored as soon as it exists: per response for a :class:`StreamingBackend`, per chunk for
the others. Chunks are cut from the full, ordered sample list (not from the samples still missing), so a
resumed run sends a batched backend the same batches as an uninterrupted run would have; this is what
keeps ``hf``'s per-batch seeding reproducible across an interruption.
"""

from __future__ import annotations

from typing import Callable, Optional

from tqdm.auto import tqdm

from polibench.models.base import Completion, ModelBackend, Prompt
from polibench.models.streaming import StreamingBackend
from polibench.records import GenerationSettings, Sample

DEFAULT_CHUNK = 64


def prompt_of(sample: Sample) -> Prompt:
    return Prompt(text=sample.prompt, seed=sample.seed,
                  messages=tuple(sample.messages) if sample.messages else None)


def _fill(sample: Sample, completion: Completion) -> Sample:
    return sample.model_copy(update={"response": completion.text, "finish_reason": completion.finish_reason,
                                     "usage": completion.usage})


def generate_samples(samples: list[Sample], backend: ModelBackend, settings: GenerationSettings, *,
                     chunk_size: Optional[int] = None, on_chunk: Optional[Callable[[list[Sample]], None]] = None,
                     show_progress: bool = True, desc: str = "generating", cache=None) -> list[Sample]:
    """Return copies of ``samples`` with ``response``, ``finish_reason`` and ``usage`` filled in."""
    chunk_size = chunk_size or getattr(backend, "chunk_size", DEFAULT_CHUNK)
    prompts = [prompt_of(s) for s in samples]
    results: list[Optional[Completion]] = [None] * len(samples)
    keys: list[str] = []
    model_key = ""
    if cache is not None:
        from polibench.cache import model_identity, request_key

        identity = model_identity(backend)
        model_key = cache.register_model(identity)
        keys = [request_key(identity, settings, p) for p in prompts]
        found = cache.get_many(keys)
        results = [found.get(k) for k in keys]
    with tqdm(total=len(samples), desc=desc, unit="resp", disable=not show_progress) as bar:
        bar.update(sum(r is not None for r in results))
        for start in range(0, len(samples), chunk_size):
            todo = [i for i in range(start, min(start + chunk_size, len(samples))) if results[i] is None]
            if todo:
                _generate_chunk(backend, settings, prompts, todo, results, keys, model_key, cache, bar)
            if on_chunk:
                end = min(start + chunk_size, len(samples))
                on_chunk([_fill(samples[i], results[i]) for i in range(start, end)])
    return [_fill(s, c) for s, c in zip(samples, results)]


def _generate_chunk(backend, settings, prompts, todo, results, keys, model_key, cache, bar) -> None:
    chunk_prompts = [prompts[i] for i in todo]
    if isinstance(backend, StreamingBackend):
        def on_result(j: int, completion: Completion) -> None:
            index = todo[j]
            if results[index] is not None:
                return  # a backend reporting one request twice must not duplicate it
            results[index] = completion
            if cache is not None:
                cache.put(model_key, keys[index], completion)
            bar.update(1)

        backend.generate_each(chunk_prompts, settings, on_result)
        missing = [i for i in todo if results[i] is None]
        if missing:
            raise RuntimeError(f"backend '{backend.name}' returned no completion for {len(missing)} prompts")
        return
    completions = backend.generate(chunk_prompts, settings, progress=bar.update)
    for index, completion in zip(todo, completions):
        results[index] = completion
    if cache is not None:
        cache.put_many(model_key, [(keys[i], results[i]) for i in todo])
