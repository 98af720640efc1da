"""The response cache: what its key covers, how it stores, and how the generation stage resumes from it."""

from __future__ import annotations

import hashlib
import sqlite3

import pytest

from polibench.cache import ResponseCache, default_cache_path, model_identity, request_key
from polibench.cache.identity import default_identity
from polibench.models.base import Completion, ModelBackend, Prompt
from polibench.models.stage import generate_samples
from polibench.models.streaming import StreamingBackend
from polibench.records import ChatMessage, GenerationSettings, Sample, Usage


@pytest.fixture(autouse=True)
def _own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("POLIBENCH_CACHE", str(tmp_path / "cache"))


class BatchDependentBackend(ModelBackend):
    """Like ``hf``: a response depends on the other prompts of its call (one RNG stream per batch)."""

    name = "batchy"

    def __init__(self, model="m", fail_after_calls=None, **args):
        super().__init__(model, **args)
        self.calls: list[int] = []
        self.fail_after_calls = fail_after_calls

    def generate(self, prompts, settings, progress=None):
        if self.fail_after_calls is not None and len(self.calls) >= self.fail_after_calls:
            raise KeyboardInterrupt("simulated crash")
        self.calls.append(len(prompts))
        batch = hashlib.sha256(repr([p.seed for p in prompts]).encode()).hexdigest()[:6]
        if progress:
            progress(len(prompts))
        return [Completion(text=f"{p.text}|{p.seed}|{batch}", finish_reason="stop",
                           usage=Usage(prompt_tokens=3, completion_tokens=4)) for p in prompts]


class CountingStream(StreamingBackend):
    name = "stream"

    def __init__(self, model="s", crash_at=None):
        super().__init__(model)
        self.sent = 0
        self.crash_at = crash_at

    def generate_each(self, prompts, settings, on_result):
        for i in reversed(range(len(prompts))):  # out of order, like an async client
            if self.crash_at is not None and self.sent >= self.crash_at:
                raise KeyboardInterrupt("simulated crash")
            self.sent += 1
            on_result(i, Completion(text=f"r{prompts[i].seed}", finish_reason="stop"))


def make_samples(n: int) -> list[Sample]:
    return [Sample(task="t", instrument="pct", item_id=f"i{k // 2}", statement="s", variant="v",
                   sample_index=k % 2, seed=1000 + k, prompt=f"prompt {k // 2}") for k in range(n)]


SETTINGS = GenerationSettings(samples=2, max_new_tokens=20, temperature=1.0, top_k=50, seed=7)


def test_key_covers_model_settings_prompt_messages_and_seed():
    ident = {"backend": "hf", "model": "a", "revision": "main"}
    prompt = Prompt(text="p", seed=1)
    base = request_key(ident, SETTINGS, prompt)
    changed = [
        request_key({**ident, "model": "b"}, SETTINGS, prompt),
        request_key({**ident, "revision": "abc"}, SETTINGS, prompt),
        request_key(ident, SETTINGS.model_copy(update={"temperature": 0.5}), prompt),
        request_key(ident, SETTINGS.model_copy(update={"max_new_tokens": 21}), prompt),
        request_key(ident, SETTINGS.model_copy(update={"top_k": 40}), prompt),
        request_key(ident, SETTINGS.model_copy(update={"top_p": 0.9}), prompt),
        request_key(ident, SETTINGS.model_copy(update={"stop": ["\n"]}), prompt),
        request_key(ident, SETTINGS, Prompt(text="q", seed=1)),
        request_key(ident, SETTINGS, Prompt(text="p", seed=2)),
        request_key(ident, SETTINGS, Prompt(text="p", seed=1, messages=(ChatMessage(role="user", content="p"),))),
    ]
    assert base not in changed and len(set(changed)) == len(changed)
    # Neither the number of samples nor the run seed changes one sample's response.
    assert request_key(ident, SETTINGS.model_copy(update={"samples": 9, "seed": 99}), prompt) == base


def test_model_b_is_never_served_model_a(tmp_path):
    cache = ResponseCache(tmp_path / "c.sqlite")
    samples = make_samples(4)
    a, b = BatchDependentBackend("model-a"), BatchDependentBackend("model-b")
    out_a = generate_samples(samples, a, SETTINGS, cache=cache, show_progress=False)
    out_b = generate_samples(samples, b, SETTINGS, cache=cache, show_progress=False)
    assert a.calls == [4] and b.calls == [4]
    assert cache.hits == 0 and cache.writes == 8
    assert model_identity(a) != model_identity(b)
    assert [s.response for s in out_a] == [s.response for s in out_b]  # same fake text, but both generated


def test_store_persists_first_write_wins_and_default_location(tmp_path):
    path = default_cache_path()
    assert path.parent == tmp_path / "cache"
    with ResponseCache() as cache:
        mk = cache.register_model({"backend": "x"})
        cache.put(mk, "k1", Completion(text="first", finish_reason="stop", usage=Usage(prompt_tokens=1)))
        cache.put(mk, "k1", Completion(text="second"))
    with ResponseCache(path) as again:
        got = again.get_many(["k1", "k2"])
        assert list(got) == ["k1"] and got["k1"].text == "first" and got["k1"].usage.prompt_tokens == 1
        assert again.count() == 1
    mode = sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_rerun_makes_zero_calls_and_gives_the_same_samples(tmp_path):
    cache = ResponseCache(tmp_path / "c.sqlite")
    samples = make_samples(10)
    first_backend = BatchDependentBackend()
    first = generate_samples(samples, first_backend, SETTINGS, cache=cache, chunk_size=4, show_progress=False)
    again_backend = BatchDependentBackend()
    again = generate_samples(samples, again_backend, SETTINGS, cache=cache, chunk_size=4, show_progress=False)
    assert first_backend.calls == [4, 4, 2]
    assert again_backend.calls == []
    assert [s.model_dump() for s in again] == [s.model_dump() for s in first]


def test_resume_of_a_batched_backend_matches_an_uninterrupted_run(tmp_path):
    samples = make_samples(10)
    clean = generate_samples(samples, BatchDependentBackend(), SETTINGS, cache=None, chunk_size=4,
                             show_progress=False)
    cache = ResponseCache(tmp_path / "c.sqlite")
    with pytest.raises(KeyboardInterrupt):
        generate_samples(samples, BatchDependentBackend(fail_after_calls=1), SETTINGS, cache=cache, chunk_size=4,
                         show_progress=False)
    assert cache.count() == 4  # the first chunk was persisted before the crash
    resumed_backend = BatchDependentBackend()
    resumed = generate_samples(samples, resumed_backend, SETTINGS, cache=cache, chunk_size=4, show_progress=False)
    assert resumed_backend.calls == [4, 2]  # only what was missing, in the same chunks as the clean run
    assert [s.response for s in resumed] == [s.response for s in clean]


def test_streaming_backend_persists_each_response_before_a_crash(tmp_path):
    samples = make_samples(6)
    cache = ResponseCache(tmp_path / "c.sqlite")
    with pytest.raises(KeyboardInterrupt):
        generate_samples(samples, CountingStream(crash_at=4), SETTINGS, cache=cache, show_progress=False)
    assert cache.count() == 4
    backend = CountingStream()
    resumed = generate_samples(samples, backend, SETTINGS, cache=cache, show_progress=False)
    assert backend.sent == 2
    assert [s.response for s in resumed] == [f"r{s.seed}" for s in samples]


def test_default_identity_uses_file_hash_not_path_and_fingerprints_folders(tmp_path):
    class FileBackend(ModelBackend):
        name = "f"

        def describe(self):
            return {**super().describe(), "gguf_sha256": "abc"}

        def generate(self, prompts, settings, progress=None):
            return []

    assert default_identity(FileBackend("/one/place/m.gguf")) == default_identity(FileBackend("/other/m.gguf"))
    folder = tmp_path / "model"
    folder.mkdir()
    (folder / "config.json").write_text('{"layers": 2}')
    before = default_identity(BatchDependentBackend(str(folder)))
    (folder / "config.json").write_text('{"layers": 3}')
    after = default_identity(BatchDependentBackend(str(folder)))
    assert before["folder_sha256"] != after["folder_sha256"]
