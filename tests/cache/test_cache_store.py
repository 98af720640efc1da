"""The response cache: what its key covers, how it stores, and how a backend wrapped in ``CachingBackend``
resumes from it through the generation stage."""

from __future__ import annotations

import hashlib
import sqlite3

import pytest

from polibench.cache import CachingBackend, ResponseCache, default_cache_path, model_identity, request_key
from polibench.models.base import ModelBackend
from polibench.models.identity import default_identity
from polibench.models.mock import MockBackend
from polibench.models.stage import generate_samples
from polibench.models.streaming import StreamingBackend
from polibench.records import ChatMessage, Completion, GenerationSettings, Prompt, Sample, TokenProb, Usage


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
    out_a = generate_samples(samples, CachingBackend(a, cache), SETTINGS, show_progress=False)
    out_b = generate_samples(samples, CachingBackend(b, cache), SETTINGS, show_progress=False)
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
    first = generate_samples(samples, CachingBackend(first_backend, cache), SETTINGS, chunk_size=4,
                             show_progress=False)
    again_backend = BatchDependentBackend()
    again = generate_samples(samples, CachingBackend(again_backend, cache), SETTINGS, chunk_size=4,
                             show_progress=False)
    assert first_backend.calls == [4, 4, 2]
    assert again_backend.calls == []
    assert [s.model_dump() for s in again] == [s.model_dump() for s in first]


def test_resume_of_a_batched_backend_matches_an_uninterrupted_run(tmp_path):
    samples = make_samples(10)
    clean = generate_samples(samples, BatchDependentBackend(), SETTINGS, chunk_size=4,
                             show_progress=False)
    cache = ResponseCache(tmp_path / "c.sqlite")
    with pytest.raises(KeyboardInterrupt):
        generate_samples(samples, CachingBackend(BatchDependentBackend(fail_after_calls=1), cache), SETTINGS,
                         chunk_size=4, show_progress=False)
    assert cache.count() == 4  # the first chunk was persisted before the crash
    resumed_backend = BatchDependentBackend()
    resumed = generate_samples(samples, CachingBackend(resumed_backend, cache), SETTINGS, chunk_size=4,
                               show_progress=False)
    assert resumed_backend.calls == [4, 2]  # only what was missing, in the same chunks as the clean run
    assert [s.response for s in resumed] == [s.response for s in clean]


def test_streaming_backend_persists_each_response_before_a_crash(tmp_path):
    samples = make_samples(6)
    cache = ResponseCache(tmp_path / "c.sqlite")
    with pytest.raises(KeyboardInterrupt):
        generate_samples(samples, CachingBackend(CountingStream(crash_at=4), cache), SETTINGS, show_progress=False)
    assert cache.count() == 4
    backend = CountingStream()
    resumed = generate_samples(samples, CachingBackend(backend, cache), SETTINGS, show_progress=False)
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


def test_the_wrapper_is_the_wrapped_backend_to_its_callers(tmp_path):
    inner = MockBackend("m", score_choices=True)
    with ResponseCache(tmp_path / "c.sqlite") as cache:
        wrapped = CachingBackend(inner, cache)
        assert wrapped.describe() == inner.describe() and wrapped.display_name == inner.display_name
        assert wrapped.cache_identity() == model_identity(inner)  # so keys are the same as before the wrapper
        prompt = Prompt(text="p", seed=3)
        assert wrapped.score_choices([prompt], [["a", "b"]]) == inner.score_choices([prompt], [["a", "b"]])
        with wrapped:
            assert not inner.closed
        assert inner.closed and wrapped.closed


def test_keys_and_identity_are_unchanged_by_the_wrapper(tmp_path):
    """A cache filled before the wrapper existed still serves its rows: same key for the same request."""
    backend = BatchDependentBackend("model-a")
    prompt = Prompt(text="prompt 0", seed=1000)
    legacy_key = request_key({"backend": "batchy", "model": "model-a", "model_args": {}}, SETTINGS, prompt)
    with ResponseCache(tmp_path / "c.sqlite") as cache:
        cache.put(cache.register_model({}), legacy_key, Completion(text="from the old cache"))
        (out,) = generate_samples(make_samples(1), CachingBackend(backend, cache), SETTINGS, show_progress=False)
    assert out.response == "from the old cache" and backend.calls == []


def test_mask_fills_round_trip_and_old_databases_gain_the_column(tmp_path):
    path = tmp_path / "old.sqlite"
    old = sqlite3.connect(path)
    old.executescript("CREATE TABLE responses (key TEXT PRIMARY KEY, model_key TEXT NOT NULL, text TEXT NOT NULL, "
                      "finish_reason TEXT, prompt_tokens INTEGER, completion_tokens INTEGER, created REAL NOT NULL);"
                      "CREATE TABLE models (model_key TEXT PRIMARY KEY, identity TEXT NOT NULL);")
    old.execute("INSERT INTO responses VALUES ('legacy', 'm', ?, 'mask_filled', 5, 1, 0)",
                ('{"mask_fills": [["agree", 0.75], ["table", 0.25]]}',))
    old.commit()
    old.close()
    fills = [TokenProb(token="disagree", prob=0.6), TokenProb(token="agree", prob=0.4)]
    with ResponseCache(path) as cache:
        cache.put("m", "new", Completion(text="disagree 0.600, agree 0.400", mask_fills=fills))
        got = cache.get_many(["legacy", "new"])
    assert got["new"].mask_fills == fills
    # an mlm response cached before the typed field existed: its JSON text becomes the typed fills
    assert got["legacy"].mask_fills == [TokenProb(token="agree", prob=0.75), TokenProb(token="table", prob=0.25)]


def test_models_never_import_the_cache():
    import ast
    from pathlib import Path

    import polibench.models

    offenders = []
    for path in Path(polibench.models.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[:2] == ["polibench", "cache"]]
    assert offenders == []
