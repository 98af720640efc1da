"""The ``vllm`` backend's ``data_parallel_size`` on a real local Ray cluster (2 CPUs and 2 declared GPUs that do not
exist, started once for the module), with the fake engine of tests/fake_vllm_engine.py inside every Ray actor (two
real vLLM CPU engines take minutes and 7 GB: docs/backends.md says what one manual run of them gave)."""

from __future__ import annotations

import json
import os
import sys
import types

import pytest
from fake_vllm_engine import FakeEngines, PlatformEngines, fake_text, start_local_ray, stop_local_ray

from polibench.cache.caching_backend import CachingBackend
from polibench.cache.store import ResponseCache
from polibench.cli.main import main
from polibench.errors import BackendError
from polibench.models.vllm import VLLMBackend
from polibench.models.vllm_ray import replica_resources
from polibench.pipeline.run import RunOptions, evaluate
from polibench.records import GenerationSettings, Prompt
from polibench.taskspec.loader import load_registry

SETTINGS = GenerationSettings(max_new_tokens=8, temperature=0.7)


@pytest.fixture(scope="module")
def ray_cluster():
    pytest.importorskip("ray")
    ray, folder = start_local_ray(num_cpus=2, num_gpus=2)
    yield ray
    stop_local_ray(ray, folder)


def served_by(log) -> dict[int, int]:
    """Requests each process generated, from the fake engine's log (a process that started an engine and generated
    nothing: 0)."""
    counts: dict[int, int] = {}
    for line in log.read_text().splitlines():
        pid, n = map(int, line.split())
        counts[pid] = counts.get(pid, 0) + n
    return counts


def test_two_replicas_write_the_samples_of_one_engine(ray_cluster, tmp_path, monkeypatch):
    """The whole pipeline (pct, chat prompts, 3 samples each, sent as one request of n=3 with group_samples) on
    1 in-process engine and on 2 Ray replicas: samples.jsonl byte-identical (so no group was split or merged
    across shares); both replicas served, and the driver started no engine (results.json's chat_template comes
    from a tokenizer loaded there, not from a third engine)."""
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
    assert json.loads((tmp_path / "two" / "results.json").read_text())["model"]["chat_template"] is True
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


def plant_platform(monkeypatch, cpu: bool) -> None:
    """A ``vllm`` module whose ``vllm.platforms.current_platform`` is vLLM's CPU platform (``cpu``) or a GPU one."""
    vllm, platforms = types.ModuleType("vllm"), types.ModuleType("vllm.platforms")
    platforms.current_platform = types.SimpleNamespace(is_cpu=lambda: cpu)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "vllm", vllm)
    monkeypatch.setitem(sys.modules, "vllm.platforms", platforms)


def placement(ray, actor) -> tuple[dict, dict]:
    """What Ray gave a replica's actor, and the thread settings its engine's processes inherit."""
    def look(replica):
        import os

        import ray as ray_here

        names = ("VLLM_CPU_OMP_THREADS_BIND", "OMP_NUM_THREADS")
        return (ray_here.get_runtime_context().get_assigned_resources(),
                {name: os.environ.get(name) for name in names if name in os.environ})

    return ray.get(actor.__ray_call__.remote(look), timeout=60)


@pytest.mark.parametrize("build", ["cpu", "gpu"])
def test_a_replica_asks_ray_for_the_device_its_engine_runs_on(ray_cluster, monkeypatch, build):
    """vLLM's CPU build (``current_platform.is_cpu()``): each of 2 replicas holds 1 CPU of the 2 and no GPU, and its
    engine runs 1 unpinned thread; a GPU build: 1 GPU each (the cluster declares 2) and no CPU. A cluster that
    cannot hold the replicas is one error before any actor starts."""
    plant_platform(monkeypatch, cpu=build == "cpu")
    backend = VLLMBackend("org/m", engine_factory=PlatformEngines(), data_parallel_size=2)
    prompts = [Prompt(text=f"Statement {i}", seed=i) for i in range(4)]
    assert [c.text for c in backend.generate(prompts, SETTINGS)] == [fake_text(p.text, p.seed, 0).strip()
                                                                     for p in prompts]
    pool = backend.replicas
    assert sorted(pool.served) == [1, 1] or min(pool.served) >= 1  # both replicas served
    given = [placement(ray_cluster, actor) for actor in pool.actors]
    if build == "cpu":
        assert given == [({"CPU": 1.0}, {"VLLM_CPU_OMP_THREADS_BIND": "nobind", "OMP_NUM_THREADS": "1"})] * 2
    else:
        assert [resources["GPU"] for resources, _ in given] == [1.0, 1.0]  # (and Ray's default CPU of an actor)
        assert all("VLLM_CPU_OMP_THREADS_BIND" not in env for _, env in given)
    backend.close()
    too_many = {"cpu": "3 replicas on vLLM's CPU build need 3 CPUs or more .*; the Ray cluster has 2",
                "gpu": "need 3 GPUs; the Ray cluster has 2"}[build]
    with pytest.raises(BackendError, match=too_many):
        VLLMBackend("org/m", engine_factory=PlatformEngines(), data_parallel_size=3).generate(prompts, SETTINGS)
    if build == "cpu":
        with pytest.raises(BackendError, match="with 2 CPU each need 4 CPUs; the Ray cluster has 2"):
            VLLMBackend("org/m", engine_factory=PlatformEngines(), data_parallel_size=2,
                        cpus_per_replica=2).generate(prompts, SETTINGS)


def test_replica_resources_per_build_and_parallel_size():
    """The resources of one replica out of N, as a function of the build, the workers and the cluster."""
    cluster = {"CPU": 64.0, "GPU": 8.0}
    tp2 = {"tensor_parallel_size": 2}
    assert replica_resources(False, tp2, 4, cluster) == ({"num_gpus": 2}, {})
    assert replica_resources(False, {**tp2, "pipeline_parallel_size": 2}, 2, cluster) == ({"num_gpus": 4}, {})
    assert replica_resources(False, tp2, 4, cluster, cpus_per_replica=8) == ({"num_gpus": 2, "num_cpus": 8}, {})
    # the CPU build: the cluster's CPUs shared evenly, the threads shared by the workers
    assert replica_resources(True, {}, 4, cluster) == (
        {"num_cpus": 16, "num_gpus": 0}, {"VLLM_CPU_OMP_THREADS_BIND": "nobind", "OMP_NUM_THREADS": "16"})
    assert replica_resources(True, tp2, 3, cluster)[1]["OMP_NUM_THREADS"] == "10"  # 21 CPUs, 2 workers
    assert replica_resources(True, tp2, 2, cluster, cpus_per_replica=6)[0] == {"num_cpus": 6, "num_gpus": 0}
    with pytest.raises(BackendError, match="need 9 GPUs; the Ray cluster has 8"):
        replica_resources(False, {}, 9, cluster)
    with pytest.raises(BackendError, match="need 80 CPUs; the Ray cluster has 64"):
        replica_resources(True, {}, 4, cluster, cpus_per_replica=20)
    with pytest.raises(BackendError, match="need 80 CPUs or more"):
        replica_resources(True, tp2, 40, cluster)


def test_resources_arguments_and_a_missing_ray_are_one_message(ray_cluster, monkeypatch, capsys, tmp_path):
    plant_platform(monkeypatch, cpu=False)
    backend = VLLMBackend("org/m", engine_factory=PlatformEngines(), data_parallel_size=4, tensor_parallel_size=2)
    assert backend.replica_args()["distributed_executor_backend"] == "mp"
    assert backend.describe()["model_args"]["data_parallel_size"] == 4
    assert backend.cache_identity() == VLLMBackend("org/m", engine_factory=FakeEngines()).cache_identity()
    with pytest.raises(BackendError, match="need 8 GPUs; the Ray cluster has 2"):
        backend.generate([Prompt(text="x", seed=1)], SETTINGS)
    for bad in ({"cpus_per_replica": 0, "data_parallel_size": 2}, {"cpus_per_replica": 2}):
        with pytest.raises(BackendError, match="cpus_per_replica is the CPUs each of data_parallel_size > 1"):
            VLLMBackend("org/m", engine_factory=FakeEngines(), **bad)
    with pytest.raises(BackendError, match="distributed_executor_backend"):
        VLLMBackend("org/m", engine_factory=FakeEngines(), data_parallel_size=2, distributed_executor_backend="ray")
    monkeypatch.setitem(sys.modules, "vllm", types.ModuleType("vllm"))
    monkeypatch.setenv("POLIBENCH_CACHE", str(tmp_path / "cache"))
    for bad in ("data_parallel_size=0", "engine_factory=x"):
        assert main(["run", "--backend", "vllm", "--model", "org/m", "--model-args", bad, "--tasks", "pct",
                     "--scorer", "lexical", "--output", str(tmp_path / "o")]) == 2
        assert capsys.readouterr().err.count("polibench: error:") == 1
    plant_platform(monkeypatch, cpu=True)  # vLLM's CPU build: 3 replicas of at least 1 CPU on the 2 CPUs
    assert main(["run", "--backend", "vllm", "--model", "org/m", "--model-args", "data_parallel_size=3",
                 "--tasks", "pct", "--scorer", "lexical", "--output", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert err.count("polibench: error:") == 1 and "Traceback" not in err and "the Ray cluster has 2" in err
    assert "need 3 CPUs or more" in err and not (tmp_path / "o").exists()
    monkeypatch.setitem(sys.modules, "ray", None)  # Ray not installed
    assert main(["run", "--backend", "vllm", "--model", "org/m", "--model-args", "data_parallel_size=2",
                 "--tasks", "pct", "--scorer", "lexical", "--output", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert err.count("polibench: error:") == 1 and "Traceback" not in err and "pip install -e '.[ray]'" in err
    assert not (tmp_path / "o").exists()
