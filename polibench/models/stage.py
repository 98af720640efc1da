"""Stage 3: send each sample's prompt to a backend and copy the completion into the record.

Prompts go to the backend in chunks cut from the full, ordered sample list. A streaming backend
(``backend.streaming``) reports each completion as soon as it exists, the others return a chunk at a time;
wrapped in :class:`polibench.cache.CachingBackend`, every response is therefore persisted per response or
per chunk. Because chunks are cut from the full list (the caching wrapper then sends only the missing
prompts of a chunk), a resumed run sends a batched backend the same batches as an uninterrupted run would
have; this is what keeps ``hf``'s per-batch seeding reproducible across an interruption.
"""

from __future__ import annotations

from typing import Callable, Optional

from polibench.models.base import ModelBackend
from polibench.models.choice_stage import LOGPROB, score_option_samples
from polibench.models.eta import EtaBar, EtaEstimator, decode_batch
from polibench.records import Completion, GenerationSettings, Prompt, Sample


def prompt_of(sample: Sample) -> Prompt:
    return Prompt(text=sample.prompt, seed=sample.seed,
                  messages=tuple(sample.messages) if sample.messages else None)


def _fill(sample: Sample, completion: Completion) -> Sample:
    return sample.model_copy(update={"response": completion.text, "finish_reason": completion.finish_reason,
                                     "usage": completion.usage, "mask_fills": completion.mask_fills})


def generate_samples(samples: list[Sample], backend: ModelBackend, settings: GenerationSettings, *,
                     chunk_size: Optional[int] = None, on_chunk: Optional[Callable[[list[Sample]], None]] = None,
                     show_progress: bool = True, desc: str = "generating", estimator: Optional[EtaEstimator] = None,
                     on_warm: Optional[Callable[[EtaEstimator], None]] = None) -> list[Sample]:
    """Return copies of ``samples`` with ``response``, ``finish_reason``, ``usage`` (and ``mask_fills``).
    ``scoring: logprob`` samples get their ``option_logprobs`` instead (:mod:`polibench.models.choice_stage`).
    ``estimator`` gives the progress bar its ETA (:mod:`polibench.models.eta`; it measures the generation only)
    and ``on_warm`` is called once it has measured the first 5%."""
    if any(s.scoring == LOGPROB for s in samples):
        by_option = [i for i, s in enumerate(samples) if s.scoring == LOGPROB]
        rest = [i for i, s in enumerate(samples) if s.scoring != LOGPROB]
        done = dict(zip(by_option, score_option_samples([samples[i] for i in by_option], backend,
                                                        show_progress=show_progress, desc=desc.replace(
                                                            "generating", "scoring options"))))
        if rest:
            done.update(zip(rest, generate_samples([samples[i] for i in rest], backend, settings,
                                                   chunk_size=chunk_size, on_chunk=on_chunk,
                                                   show_progress=show_progress, desc=desc, estimator=estimator,
                                                   on_warm=on_warm)))
        return [done[i] for i in range(len(samples))]
    chunk_size = chunk_size or backend.chunk_size
    reused_before = getattr(backend, "reused", 0)  # a caching backend's count, from earlier tasks too
    prompts = [prompt_of(s) for s in samples]
    results: list[Optional[Completion]] = [None] * len(samples)
    estimator = estimator or EtaEstimator(len(samples), batch=decode_batch(backend))
    with EtaBar(total=len(samples), desc=desc, unit="resp", disable=not show_progress, estimator=estimator,
                reused=lambda: getattr(backend, "reused", 0) - reused_before, on_warm=on_warm) as bar:
        for start in range(0, len(samples), chunk_size):
            end = min(start + chunk_size, len(samples))
            _generate_chunk(backend, settings, prompts, list(range(start, end)), results, bar)
            if on_chunk:
                on_chunk([_fill(samples[i], results[i]) for i in range(start, end)])
    return [_fill(s, c) for s, c in zip(samples, results)]


def _generate_chunk(backend: ModelBackend, settings: GenerationSettings, prompts: list[Prompt], todo: list[int],
                    results: list[Optional[Completion]], bar) -> None:
    chunk_prompts = [prompts[i] for i in todo]
    if backend.streaming:
        def on_result(j: int, completion: Completion) -> None:
            index = todo[j]
            if results[index] is not None:
                return  # a backend reporting one request twice must not duplicate it
            results[index] = completion
            bar.update(1)

        backend.generate_each(chunk_prompts, settings, on_result)  # type: ignore[attr-defined]
        missing = [i for i in todo if results[i] is None]
        if missing:
            raise RuntimeError(f"backend '{backend.name}' returned no completion for {len(missing)} prompts")
        return
    completions = backend.generate(chunk_prompts, settings, progress=bar.update)
    if len(completions) != len(todo):
        raise RuntimeError(f"backend '{backend.name}' returned {len(completions)} completions for {len(todo)} prompts")
    for index, completion in zip(todo, completions):
        results[index] = completion
