"""The ``vllm`` backend's ``data_parallel_size`` on a real local Ray cluster (2 CPUs, started once for the
module), with the fake engine of tests/fake_vllm_engine.py inside every Ray actor (vLLM itself needs a GPU)."""

from __future__ import annotations

import json
import os
import sys
import types

import pytest
from fake_vllm_engine import FakeEngines, fake_text, start_local_ray, stop_local_ray

from polibench.cache.caching_backend import CachingBackend
from polibench.cache.store import ResponseCache
from polibench.cli.main import main
from polibench.errors import BackendError
from polibench.models.vllm import VLLMBackend, VLLMEngines
from polibench.pipeline.run import RunOptions, evaluate
from polibench.records import GenerationSettings, Prompt
from polibench.taskspec.loader import load_registry

SETTINGS = GenerationSettings(max_new_tokens=8, temperature=0.7)


@pytest.fixture(scope="module")
def ray_cluster():
    pytest.importorskip("ray")
    ray, folder = start_local_ray(num_cpus=2)
    yield ray
    stop_local_ray(ray, folder)


def served_by(log) -> dict[int, int]:
    """Requests each process generated, from the fake engine's log."""
    counts: dict[int, int] = {}
    for line in log.read_text().splitlines():
        pid, n = map(int, line.split())
        counts[pid] = counts.get(pid, 0) + n
    return counts


def test_two_replicas_write_the_samples_of_one_engine(ray_cluster, tmp_path, monkeypatch):
    """The whole pipeline (pct, chat prompts, 3 samples each, sent as one request of n=3 with group_samples) on
    1 in-process engine and on 2 Ray replicas: samples.jsonl byte-identical (so no group was split or merged
    across shares); both replicas served, the driver none."""
    monkeypatch.setenv("POLIBENCH_CACHE", str(tmp_path / "cache"))  # the speed records of the ETA
    options = RunOptions(limit=8, samples_per_prompt=3, scorer="lexical", show_progress=False)
    registry = load_registry()
    for name, args in (("one", {}), ("two", {"data_parallel_size": 2})):
        args["group_samples"] = True
        log = tmp_path / f"{name}.log"
        backend = VLLMBackend("org/fake-model", engine_factory=FakeEngines(log=str(log)), **args)
        with ResponseCache(tmp_path / f"{name}.sqlite") as cache:
            evaluate(["pct"], registry, CachingBackend(backend, cache), tmp_path / name, options)
        assert backend.closed and backend._replicas is None
        served = served_by(log)
        if name == "two":
            assert len(served) == 2 and os.getpid() not in served and sum(served.values()) == 8  # 8 groups of 3
    one = (tmp_path / "one" / "samples.jsonl").read_bytes()
    assert one == (tmp_path / "two" / "samples.jsonl").read_bytes()
    assert len(set(json.loads(line)["response"] for line in one.splitlines())) == 24  # the seeds matter


def test_a_killed_replica_loses_no_response_and_caches_none_twice(ray_cluster, tmp_path, capsys):
    """Option scores over 2 replicas equal one engine's; then replica 1 is killed mid-run (every response
    arrives once, none is cached twice), then replica 0 (the run stops; a re-run resumes from the cache)."""
    backend = VLLMBackend("org/fake-model", engine_factory=FakeEngines(delay=0.3), data_parallel_size=2)
    prompts = [Prompt(text=f"Statement {'x' * i}:", seed=i) for i in range(8)]
    choices = [[" Agree", " Disagree", " Neither"]] * 8
    single = VLLMBackend("org/fake-model", engine_factory=FakeEngines()).score_choices(prompts, choices)
    assert backend.score_choices(prompts, choices) == single and len({tuple(row) for row in single}) > 1
    pool = backend.replicas
    assert pool.served == [2, 2]
    assert backend.generate([], SETTINGS) == [] and backend.score_choices([], []) == [] and pool.served == [2, 2]

    prompts = [Prompt(text=f"Statement {i}", seed=1000 + i) for i in range(24)]
    expected = {i: fake_text(p.text, p.seed, 0).strip() for i, p in enumerate(prompts)}
    texts: dict[int, str] = {}
    reported: list[int] = []

    def on_result(index, completion):
        if not reported:  # the first share is back: replica 1 still holds queued ones
            ray_cluster.kill(pool.actors[1])
        reported.append(index)
        texts[index] = completion.text

    with ResponseCache(tmp_path / "c.sqlite") as cache:
        caching = CachingBackend(backend, cache)
        caching.generate_each(prompts, SETTINGS, on_result)
        assert pool.alive == [0] and pool.requeued >= 1  # the kill landed mid-run, and its shares moved
        assert sorted(reported) == list(range(24)) and texts == expected  # every response, each once
        assert cache.count() == 24
        assert "replica 1 is gone" in capsys.readouterr().err

        more = [Prompt(text=f"Another {i}", seed=i) for i in range(12)]
        with pytest.raises(BackendError, match="all 2 data-parallel replicas died"):
            caching.generate_each(more, SETTINGS, lambda i, c: ray_cluster.kill(pool.actors[0]))
        caching.close()
        kept = cache.count() - 24
        assert 0 < kept < 12  # the share that came back first is cached
        fresh = CachingBackend(VLLMBackend("org/fake-model", engine_factory=FakeEngines()), cache)
        out = fresh.generate(prompts + more, SETTINGS)
        assert fresh.reused == 24 + kept and cache.count() == 36
        assert [c.text for c in out] == [fake_text(p.text, p.seed, 0).strip() for p in prompts + more]


class GPUFakeEngines(FakeEngines):
    replica_options = VLLMEngines.replica_options  # vLLM's: tensor x pipeline parallel GPUs per replica


def test_resources_arguments_and_a_missing_ray_are_one_message(ray_cluster, monkeypatch, capsys, tmp_path):
    backend = VLLMBackend("org/m", engine_factory=GPUFakeEngines(), data_parallel_size=4, tensor_parallel_size=2)
    assert backend.replica_args()["distributed_executor_backend"] == "mp"
    assert backend.describe()["model_args"]["data_parallel_size"] == 4
    assert backend.cache_identity() == VLLMBackend("org/m", engine_factory=FakeEngines()).cache_identity()
    with pytest.raises(BackendError, match="need 8 GPUs; the Ray cluster has 0"):
        backend.generate([Prompt(text="x", seed=1)], SETTINGS)
    with pytest.raises(BackendError, match="distributed_executor_backend"):
        VLLMBackend("org/m", engine_factory=FakeEngines(), data_parallel_size=2, distributed_executor_backend="ray")
    monkeypatch.setitem(sys.modules, "vllm", types.ModuleType("vllm"))
    monkeypatch.setenv("POLIBENCH_CACHE", str(tmp_path / "cache"))
    for bad in ("data_parallel_size=0", "engine_factory=x"):
        assert main(["run", "--backend", "vllm", "--model", "org/m", "--model-args", bad, "--tasks", "pct",
                     "--scorer", "lexical", "--output", str(tmp_path / "o")]) == 2
        assert capsys.readouterr().err.count("polibench: error:") == 1
    monkeypatch.setitem(sys.modules, "ray", None)  # Ray not installed
    assert main(["run", "--backend", "vllm", "--model", "org/m", "--model-args", "data_parallel_size=2",
                 "--tasks", "pct", "--scorer", "lexical", "--output", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert err.count("polibench: error:") == 1 and "Traceback" not in err and "pip install -e '.[ray]'" in err
    assert not (tmp_path / "o").exists()
