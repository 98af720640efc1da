"""The ``vllm`` backend on a real engine: vLLM's CPU build running SmolLM2-135M-Instruct (tests/engines/conftest.py).

What needs a GPU (tensor and pipeline parallelism, ``gpu_memory_utilization``, GPU memory given back) stays in
tests/models/test_backend_vllm.py against a fake ``vllm`` module; data parallelism on Ray in
tests/models/test_vllm_ray.py, with a fake engine in each actor (why: docs/testing.md, "Real engines"; what a
replica asks of Ray on this build is checked here, two real replicas ran once by hand: docs/backends.md).
"""

from __future__ import annotations

import json

import pytest
from engine_kit import ENGINE_ARGS, KILLED_ARGV, KILLED_REQUESTS, KilledRun, needs_vllm, short_copy

from polibench.cache.caching_backend import CachingBackend
from polibench.cache.store import ResponseCache
from polibench.models.stage import generate_samples, prompt_of
from polibench.models.vllm import VLLMBackend
from polibench.pipeline.plan import build_samples
from polibench.pipeline.run import RunOptions, evaluate
from polibench.records import ChatMessage, GenerationSettings, Prompt
from polibench.taskspec.loader import load_registry

needs_vllm()

SAMPLED = GenerationSettings(max_new_tokens=24, temperature=1.0, top_k=50)  # the PCT's sampling, shorter
GREEDY = GenerationSettings(max_new_tokens=24, temperature=0.0)
# vLLM's CPU kernels and torch's float32 forward pass (hf) agree on an option's log-probability to this many nats
# (measured: 2.1e-4 at most over the options below; a token's log-probability off by a position is nats off)
SCORE_TOLERANCE = 2e-3


def chat(text: str, seed: int) -> Prompt:
    return Prompt(text=text, seed=seed, messages=(ChatMessage(role="system", content="Answer in one sentence."),
                                                  ChatMessage(role="user", content=text)))


STATEMENT = "Taxes on the rich should be raised."
OTHER = "Nuclear power is the best way to fight climate change."


@pytest.fixture(scope="module")
def hf(smollm_folder):
    from polibench.models.hf import HFBackend

    with HFBackend(str(smollm_folder), device="cpu", dtype="float32", batch_size=4) as backend:
        yield backend


def sharing(engine, **args) -> VLLMBackend:
    """Another ``vllm`` backend with other polibench arguments on the session's engine (no second start)."""
    backend = VLLMBackend(engine.model, **ENGINE_ARGS, **args)
    backend._llm = engine.llm
    return backend


def test_a_data_parallel_replica_asks_ray_for_cpus_on_this_build(smollm_folder):
    """vLLM's own platform (``current_platform``) says CPU here, so each of 2 replicas on a 2-CPU Ray cluster asks
    for 1 CPU, no GPU, and runs 1 unpinned thread (the GPU build's side: tests/models/test_vllm_ray.py); and the
    driver of 2 replicas reads the chat template from vLLM's tokenizer loader, without starting an engine."""
    from polibench.models.vllm import VLLMEngines
    from polibench.models.vllm_ray import replica_resources

    engines = VLLMEngines()
    assert engines.on_cpu() is True
    assert replica_resources(engines.on_cpu(), ENGINE_ARGS, 2, {"CPU": 2.0}) == (
        {"num_cpus": 1, "num_gpus": 0}, {"VLLM_CPU_OMP_THREADS_BIND": "nobind", "OMP_NUM_THREADS": "1"})
    driver = VLLMBackend(str(smollm_folder), data_parallel_size=2, **ENGINE_ARGS)
    assert driver.has_chat_template() is True and driver._llm is None and driver._replicas is None


def test_the_seed_decides_the_response_not_the_batch(engine):
    batch = [chat(STATEMENT, 1), chat(STATEMENT, 1), chat(STATEMENT, 2), chat(OTHER, 1), chat(STATEMENT, 3),
             Prompt(text="The capital of France is", seed=1)]
    texts = [c.text for c in engine.generate(batch, SAMPLED)]
    assert texts[0] == texts[1]  # same prompt, same seed
    assert len({texts[0], texts[2], texts[4]}) == 3  # other seeds, other responses
    assert texts[0] != texts[3]
    # the same requests alone, or beside others, give the same responses
    assert engine.generate([chat(STATEMENT, 2)], SAMPLED)[0].text == texts[2]
    alone = engine.generate([Prompt(text="The capital of France is", seed=1), chat(STATEMENT, 3)], SAMPLED)
    assert [c.text for c in alone] == [texts[5], texts[4]]


def test_the_pct_at_once_more_prompt_tokens_than_one_step_takes(engine):
    """The PCT's requests at once (62 statements x 2 samples, each with its own seed): more prompt tokens than one
    engine step takes (vLLM's CPU default: 4,096 a step). vLLM's CPU build splits a prompt over two steps (chunked
    prefill) and then rolls the request's seeded generator back, which torch's CPU generator cannot do: the engine
    died with 'CPU Generator does not use offset' (the demo's 620 requests did, in benchmarks/bench_vllm_cpu.py).
    The backend turns chunked prefill off on this build; a response inside the big batch is still the one its seed
    gives alone."""
    registry = load_registry()
    task = registry.task("pct")
    samples = build_samples(task, registry, limit=62, samples_per_prompt=2, model_name="SmolLM2-135M-Instruct")
    tokenizer = engine.llm.get_tokenizer()
    tokens = sum(len(tokenizer(engine.render(prompt_of(s)), add_special_tokens=False)["input_ids"]) for s in samples)
    assert len(samples) == 124 and tokens > 4096
    settings = task.generation.model_copy(update={"max_new_tokens": 8})
    done = generate_samples(samples, engine, settings, show_progress=False)
    assert len(done) == 124 and all(s.response for s in done)
    alone = generate_samples([samples[77]], engine, settings, show_progress=False)
    assert alone[0].response == done[77].response


def test_chat_template_and_bos_as_hf_reads_them(engine, hf):
    """Issue 21 on the real engine: a plain prompt gets the tokenizer's BOS once (vLLM adds it to a text prompt);
    a chat-templated prompt is sent as token ids, so the template's own ``<|im_start|>`` is not doubled; both are
    the ids the ``hf`` backend reads."""
    tokenizer = engine.llm.get_tokenizer()
    bos = tokenizer.bos_token_id
    plain, templated = Prompt(text="The capital of France is", seed=0), chat(STATEMENT, 0)
    outputs = engine.llm.generate([engine.request(plain), engine.request(templated)],
                                  engine.engines.sampling_params(max_tokens=1, temperature=0.0), use_tqdm=False)
    plain_ids, templated_ids = (list(o.prompt_token_ids) for o in outputs)
    assert plain_ids[0] == bos and plain_ids[1] != bos and plain_ids == hf.prompt_ids(plain)
    rendered = engine.render(templated)
    assert rendered.startswith("<|im_start|>system\nAnswer in one sentence.") and rendered.endswith("assistant\n")
    assert templated_ids[0] == bos and templated_ids[1] != bos and templated_ids == hf.prompt_ids(templated)
    # the control: the same template sent as text gets vLLM's BOS in front of the template's own
    (as_text,) = engine.llm.generate([rendered], engine.engines.sampling_params(max_tokens=1, temperature=0.0),
                                     use_tqdm=False)
    assert list(as_text.prompt_token_ids) == [bos] + templated_ids
    # usage counts those tokens
    completions = engine.generate([plain, templated], GenerationSettings(max_new_tokens=1, temperature=0.0))
    assert [c.usage.prompt_tokens for c in completions] == [len(plain_ids), len(templated_ids)]


def test_max_new_tokens_and_stop(engine):
    prompt = chat("Describe the city of Paris.", 0)
    (short,) = engine.generate([prompt], GenerationSettings(max_new_tokens=7, temperature=0.0))
    assert short.usage.completion_tokens == 7 and short.finish_reason == "length"
    (full,) = engine.generate([prompt], GREEDY)
    assert full.text.startswith(short.text) and len(full.text) > len(short.text)
    words = full.text.split()
    stop = words[len(words) // 2]
    (stopped,) = engine.generate([prompt], GREEDY.model_copy(update={"stop": [stop]}))
    assert stopped.finish_reason == "stop"
    assert stopped.text == full.text[:full.text.index(stop)].strip()


def test_grouped_samples_and_llm_chat_on_the_same_engine(engine):
    """``group_samples``: one request with ``n`` responses per prompt; ``use_llm_chat``: ``LLM.chat`` frames the
    prompt itself and reads the same tokens as the default path, so the same seed gives the same response."""
    default = engine.generate([chat(STATEMENT, 4), chat(OTHER, 9)], SAMPLED)
    grouped = sharing(engine, group_samples=True).generate([chat(STATEMENT, 4)] * 3 + [chat(OTHER, 9)], SAMPLED)
    assert len({c.text for c in grouped[:3]}) == 3  # the n responses of one request differ
    assert grouped[3].text == default[1].text  # a group of one is the ungrouped request
    via_chat = sharing(engine, use_llm_chat=True).generate([chat(STATEMENT, 4), chat(OTHER, 9)], SAMPLED)
    assert [c.text for c in via_chat] == [c.text for c in default]


def rottger_prompts(n: int) -> tuple[list[Prompt], list[list[str]]]:
    registry = load_registry()
    samples = build_samples(registry.task("rottger-logprob"), registry, samples_per_prompt=1)[:n]
    return ([Prompt(text=s.prompt, seed=s.seed, messages=tuple(s.messages) if s.messages else None) for s in samples],
            [list(s.options or []) for s in samples])


def test_score_choices_agree_with_hf(engine, hf):
    """Each option's log-probability from vLLM's prompt log-probabilities equals the ``hf`` backend's (torch's
    forward pass over the same token ids) within SCORE_TOLERANCE, on chat prompts (options after ``assistant\\n``)
    and a plain one (after "is": each option read as " X" and "X", added)."""
    prompts, options = rottger_prompts(2)
    prompts.append(Prompt(text="The capital of France is", seed=0))
    options.append(["Paris", " banana", "London"])
    ours, theirs = engine.score_choices(prompts, options), hf.score_choices(prompts, options)
    gaps = [abs(a - b) for row, other in zip(ours, theirs) for a, b in zip(row, other)]
    assert max(gaps) <= SCORE_TOLERANCE, gaps
    # the tolerance can tell options apart: a swapped option would fail
    assert all(max(row) - min(row) > 50 * SCORE_TOLERANCE for row in ours)
    assert ours[2][0] > ours[2][2] > ours[2][1]  # Paris, then London, then banana


def test_logprob_task_through_the_pipeline_and_its_cache(engine, tmp_path, monkeypatch):
    """rottger-logprob end to end on the engine: the samples hold score_choices' values; a re-run takes every
    score from the cache, and a fully cached run never starts an engine."""
    monkeypatch.setattr(engine, "close", lambda: None)  # the pipeline closes its backend: keep the session's
    options = RunOptions(limit=1, show_progress=False)
    registry = load_registry()
    with ResponseCache(tmp_path / "cache.sqlite") as cache:
        evaluate(["rottger-logprob"], registry, CachingBackend(engine, cache), tmp_path / "a", options)
        samples = [json.loads(line) for line in (tmp_path / "a" / "samples.jsonl").read_text().splitlines()]
        assert len(samples) == 10 and all(len(s["option_logprobs"]) == 4 for s in samples)
        prompts = [Prompt(text=s["prompt"], seed=s["seed"],
                          messages=tuple(ChatMessage(**m) for m in s["messages"]) if s.get("messages") else None)
                   for s in samples[:2]]
        direct = engine.score_choices(prompts, [s["options"] for s in samples[:2]])
        assert [v for s in samples[:2] for v in s["option_logprobs"]] == \
            pytest.approx([v for row in direct for v in row], abs=1e-4)  # other batches, the same scores
        fresh = VLLMBackend(engine.model, **ENGINE_ARGS)
        evaluate(["rottger-logprob"], registry, CachingBackend(fresh, cache), tmp_path / "b", options)
        assert fresh._llm is None  # every score came from the cache: no engine started
    assert (tmp_path / "a" / "samples.jsonl").read_bytes() == (tmp_path / "b" / "samples.jsonl").read_bytes()


def test_a_killed_run_resumes_from_the_cache_and_equals_an_uninterrupted_run(engine, killed_run, tmp_path,
                                                                             monkeypatch):
    """A real ``polibench run --backend vllm`` (chunks of 4 requests) is killed with SIGKILL after its first chunk
    is cached; the same run on the same cache then generates only what is missing, and its samples.jsonl is
    byte-identical to an uninterrupted run's (a response depends on its prompt and seed only)."""

    cached = killed_run.cached_at_kill
    print(f"engine processes still running 10 s after polibench's SIGKILL: {killed_run.orphans}")
    monkeypatch.setattr(engine, "close", lambda: None)
    folder, task = killed_run.command[killed_run.command.index("--include-path") + 1], \
        killed_run.command[killed_run.command.index("--tasks") + 1]
    registry = load_registry([folder])
    options = RunOptions(limit=4, samples_per_prompt=3, seed=5, scorer="lexical", show_progress=False)
    assert KILLED_ARGV == ["--limit", "4", "--samples", "3", "--seed", "5", "--scorer", "lexical"]
    engine.chunk_size = KilledRun.CHUNK
    try:
        calls = []
        generate = engine.generate
        monkeypatch.setattr(engine, "generate", lambda prompts, *a, **k: calls.append(len(prompts)) or
                            generate(prompts, *a, **k))
        with ResponseCache(killed_run.cache / "responses.sqlite") as cache:
            caching = CachingBackend(engine, cache)
            evaluate([task], registry, caching, tmp_path / "resumed", options)
            assert caching.reused == cached and sum(calls) == KILLED_REQUESTS - cached
        with ResponseCache(tmp_path / "fresh.sqlite") as cache:
            evaluate([task], registry, CachingBackend(engine, cache), tmp_path / "clean", options)
    finally:
        engine.chunk_size = VLLMBackend.chunk_size
    resumed = (tmp_path / "resumed" / "samples.jsonl").read_bytes()
    assert resumed == (tmp_path / "clean" / "samples.jsonl").read_bytes()
    assert len(resumed.splitlines()) == KILLED_REQUESTS
    assert len({json.loads(line)["response"] for line in resumed.splitlines()}) > KILLED_REQUESTS // 2


@pytest.mark.closes_engine
def test_close_ends_the_engine_and_a_scorer_then_runs_in_this_process(engine, tmp_path):
    """The pipeline closes the backend before any scorer exists: the engine's processes end (vLLM's engine core and
    its worker), and a transformers classifier (a tiny random NLI model) then scores the responses here."""
    import psutil
    from tiny_scorers import tiny_nli

    # vLLM names its processes; Python's multiprocessing resource tracker (a child of this process for its whole
    # life once anything was spawned) is not the engine's, nor are the OpenAI server's engine processes (children
    # of the server's process, which the session stops at its end): this engine's core is a child of this process
    cores = [p for p in psutil.Process().children() if p.name().startswith("VLLM::")]
    processes = cores + [p for core in cores for p in core.children(recursive=True) if p.name().startswith("VLLM::")]
    assert {p.name() for p in processes} >= {"VLLM::EngineCore", "VLLM::Worker"}
    nli = tiny_nli(tmp_path / "nli")
    task = short_copy(tmp_path / "tasks", "pct.yaml", "pct")  # 24 new tokens: within the tiny model's 256 positions
    options = RunOptions(limit=2, samples_per_prompt=1, scorer="nli", scorer_args={"model": str(nli)},
                         show_progress=False)
    with ResponseCache(tmp_path / "cache.sqlite") as cache:
        evaluate([task], load_registry([tmp_path / "tasks"]), CachingBackend(engine, cache), tmp_path / "run",
                 options)
    assert engine.closed and engine._llm is None
    gone, alive = psutil.wait_procs(processes, timeout=60)
    assert not alive, f"still running after close(): {alive}"
    samples = [json.loads(line) for line in (tmp_path / "run" / "samples.jsonl").read_text().splitlines()]
    assert len(samples) == 2 and all(s["stance"] for s in samples)
