"""``CachingBackend``: any backend, with its responses reused from and persisted to a :class:`ResponseCache`.

Like lm-eval's ``CachingLM`` or HELM's ``CachingClient``, the wrapper is itself a backend. For each request
it looks the key up (:func:`polibench.cache.keys.request_key`: the wrapped backend's ``cache_identity()``,
the generation settings, the prompt and its seed); only the missing prompts reach the wrapped backend, and
each new response is committed to the cache as soon as the wrapped backend hands it over: one by one for a
streaming backend, per chunk for a batched one. A finished run re-runs with zero model calls, and a killed
run resumes where it stopped. ``score_choices`` is cached the same way, per (prompt, options) request
(:func:`polibench.cache.keys.choice_key`), so a re-run of a log-probability task makes no model call.
"""

from __future__ import annotations

from typing import Optional

from polibench.cache.keys import choice_key, request_key
from polibench.cache.store import ResponseCache
from polibench.models.base import SCORE_CHOICES, ModelBackend, ProgressFn
from polibench.models.choices import check_options
from polibench.models.streaming import ResultFn, StreamingBackend
from polibench.records import Completion, GenerationSettings, Prompt


class CachingBackend(StreamingBackend):
    """Wrap ``backend`` so that its responses go through ``cache``. Closing the wrapper closes the backend
    (not the cache, which its owner closes)."""

    def __init__(self, backend: ModelBackend, cache: ResponseCache):
        super().__init__(backend.model, **backend.model_args)
        self.backend, self.cache = backend, cache
        self.name = backend.name
        self.capabilities = backend.capabilities
        self.streaming = backend.streaming
        self.chunk_size = backend.chunk_size
        self._identity: Optional[dict] = None
        self._model_key = ""
        self.reused = 0  # responses handed over from the cache so far (the progress bar's ETA leaves them out)

    # -- identity: the wrapped backend's ----------------------------------------------------------------

    def describe(self) -> dict:
        return self.backend.describe()

    def has_chat_template(self):
        return self.backend.has_chat_template()

    def cache_identity(self) -> dict:
        if self._identity is None:  # may hash a model folder: once per run
            self._identity = self.backend.cache_identity()
            self._model_key = self.cache.register_model(self._identity)
        return self._identity

    @property
    def display_name(self) -> str:
        return self.backend.display_name

    # -- generation -------------------------------------------------------------------------------------

    def _lookup(self, prompts: list[Prompt], settings: GenerationSettings) -> tuple[list[str], dict[str, Completion]]:
        identity = self.cache_identity()
        keys = [request_key(identity, settings, p) for p in prompts]
        return keys, self.cache.get_many(keys)

    def cached_count(self, prompts: list[Prompt], settings: GenerationSettings) -> int:
        """How many of ``prompts`` the cache answers already (for the run's plan; nothing is generated)."""
        identity = self.cache_identity()
        keys = [request_key(identity, settings, p) for p in prompts]
        found = self.cache.get_many(keys, count_hits=False)
        return sum(key in found for key in keys)

    def generate_each(self, prompts: list[Prompt], settings: GenerationSettings, on_result: ResultFn) -> None:
        """Cached completions first; then the wrapped backend's, each persisted before it is reported."""
        keys, found = self._lookup(prompts, settings)
        todo = [i for i, key in enumerate(keys) if key not in found]
        for i, key in enumerate(keys):
            if key in found:
                self.reused += 1
                on_result(i, found[key])
        if not todo:
            return
        if not self.backend.streaming:
            completions = self.backend.generate([prompts[i] for i in todo], settings)
            self._store_and_report(todo, keys, completions, on_result)
            return
        reported: set[int] = set()

        def persist(j: int, completion: Completion) -> None:
            index = todo[j]
            if index in reported:
                return
            reported.add(index)
            self.cache.put(self._model_key, keys[index], completion)
            on_result(index, completion)

        self.backend.generate_each([prompts[i] for i in todo], settings, persist)  # type: ignore[attr-defined]

    def generate(self, prompts: list[Prompt], settings: GenerationSettings,
                 progress: Optional[ProgressFn] = None) -> list[Completion]:
        if self.backend.streaming:
            return super().generate(prompts, settings, progress)
        keys, found = self._lookup(prompts, settings)
        results: list[Optional[Completion]] = [found.get(k) for k in keys]
        todo = [i for i, r in enumerate(results) if r is None]
        self.reused += len(prompts) - len(todo)
        if progress and len(todo) < len(prompts):
            progress(len(prompts) - len(todo))
        if todo:
            completions = self.backend.generate([prompts[i] for i in todo], settings, progress=progress)

            def fill(index: int, completion: Completion) -> None:
                results[index] = completion

            self._store_and_report(todo, keys, completions, fill)
        return results  # type: ignore[return-value]

    def _store_and_report(self, todo: list[int], keys: list[str], completions: list[Completion],
                          on_result: ResultFn) -> None:
        """One transaction for a batch: committed before any of it is handed on."""
        if len(completions) != len(todo):
            raise RuntimeError(f"backend '{self.name}' returned {len(completions)} completions for {len(todo)} prompts")
        self.cache.put_many(self._model_key, [(keys[i], c) for i, c in zip(todo, completions)])
        for index, completion in zip(todo, completions):
            on_result(index, completion)

    # -- option log-probabilities ------------------------------------------------------------------------

    def score_choices(self, prompts: list[Prompt], options: list[list[str]],
                      progress: Optional[ProgressFn] = None) -> list[list[float]]:
        """Cached option scores first; only the missing requests reach the wrapped backend, and its scores are
        committed before they are returned."""
        if not self.backend.supports(SCORE_CHOICES):
            raise self.backend.unsupported(SCORE_CHOICES)
        check_options(prompts, options, self.name)
        identity = self.cache_identity()
        keys = [choice_key(identity, p, list(o)) for p, o in zip(prompts, options)]
        found = self.cache.get_scores(keys)
        todo = [i for i, key in enumerate(keys) if key not in found]
        if progress and len(todo) < len(prompts):
            progress(len(prompts) - len(todo))
        if todo:
            rows = self.backend.score_choices([prompts[i] for i in todo], [options[i] for i in todo], progress)
            if len(rows) != len(todo):
                raise RuntimeError(f"backend '{self.name}' returned {len(rows)} score rows for {len(todo)} prompts")
            self.cache.put_scores(self._model_key, [(keys[i], list(row)) for i, row in zip(todo, rows)])
            found.update((keys[i], [float(v) for v in row]) for i, row in zip(todo, rows))
        return [found[key] for key in keys]

    # -- the rest is the wrapped backend's ---------------------------------------------------------------

    def preflight(self) -> None:
        self.backend.preflight()

    def close(self) -> None:
        self.backend.close()
        super().close()
