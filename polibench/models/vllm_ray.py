"""vLLM data parallelism on Ray: the ``vllm`` backend's ``data_parallel_size=N`` runs N engine replicas.

Each replica is a Ray actor that holds a single-engine :class:`~polibench.models.vllm.VLLMBackend`, built inside
the actor from the driver's engine factory, with the Ray resources its engine uses (:func:`replica_resources`):
on a GPU build the ``tensor_parallel_size`` x ``pipeline_parallel_size`` GPUs of its workers, which then run as
processes of the actor; on vLLM's CPU build CPUs, ``cpus_per_replica`` of them (by default the cluster's CPUs
shared evenly), and the engine's threads are as many (its workers are not pinned to cores: Ray counts CPUs but
does not hand out core ids, and vLLM's ``auto`` binding would pin every replica to the same cores).

As in lm-eval's vLLM data parallelism the requests are dealt to the replicas interleaved, so long and short
prompts spread evenly; unlike it, the actors live for the whole run (one engine start per replica, not per call),
and the requests are cut into several shares per replica, handed out as replicas become free.

A request is rendered and seeded inside its replica exactly as on one engine, so a response depends only on
its prompt and seed, never on the replica or the share that served it. When a replica dies (its process or
node is lost, or it is killed), the shares it held go to the replicas still alive. A share is reported once,
when it comes back whole, so the response cache receives every response once. When no replica is left the
run stops with an error; what was reported is cached already, and a re-run resumes from there.

Ray: ``ray.init()`` joins the cluster named by ``RAY_ADDRESS`` or started on this machine with ``ray start``,
else starts a local one for the run and shuts it down at the end.
"""

from __future__ import annotations

import os
import sys
from collections import deque
from typing import Any, Callable, Optional

from polibench.errors import BackendError
from polibench.models.base import ProgressFn
from polibench.models.streaming import ResultFn
from polibench.records import Completion, GenerationSettings, Prompt

# a run's requests are cut into this many shares per replica: more balance the load better and lose less to a
# dead replica, fewer waste less of each engine's batch at the end of a share (it drains to its longest request)
SHARES_PER_REPLICA = 2
IN_FLIGHT = 2  # shares queued at one replica at a time: it never idles waiting for the driver between two
RESOURCES = {"num_gpus": "GPU", "num_cpus": "CPU"}  # actor option -> cluster resource


def require_ray() -> Any:
    """The ``ray`` module, or the one error that says how to install it."""
    try:
        import ray
    except ImportError:
        raise BackendError("vllm: data_parallel_size > 1 runs its engine replicas on Ray, which is not installed: "
                           "pip install -e '.[ray]'") from None
    return ray


class VLLMReplica:
    """One engine replica; runs as a Ray actor (``ray.remote(VLLMReplica)``). ``env`` is set in the actor's process
    before the engine starts (on first use), and the engine's processes inherit it."""

    def __init__(self, backend_class: type, model: str, args: dict, env: dict):
        os.environ.update(env)
        self.backend = backend_class(model, **args)

    def generate(self, prompts: list[Prompt], groups: list[list[int]],
                 settings: GenerationSettings) -> list[Completion]:
        return self.backend.generate_groups(prompts, groups, settings)

    def score_choices(self, prompts: list[Prompt], options: list[list[str]]) -> list[list[float]]:
        return self.backend.score_choices(prompts, options)

    def close(self) -> None:
        """Stop the engine and its worker processes; the actor is killed next, and its GPU memory goes with it."""
        self.backend.close()


def deal(groups: list[list[int]], shares: int) -> list[list[list[int]]]:
    """``groups`` dealt round-robin into at most ``shares`` non-empty shares (a group is never split)."""
    count = max(1, min(shares, len(groups)))
    return [groups[k::count] for k in range(count)]


class ReplicaPool:
    """The replicas of one backend, and the hand-out of shares to them."""

    def __init__(self, ray: Any, actors: list, owns_ray: bool):
        self.ray, self.actors, self.owns_ray = ray, actors, owns_ray
        self.alive = list(range(len(actors)))
        self.requeued = 0  # shares handed to another replica after theirs died
        self.served = [0] * len(actors)  # shares each replica returned

    @classmethod
    def start(cls, backend) -> ReplicaPool:
        """Start ``backend.data_parallel_size`` actors (joining or starting a Ray cluster); refuse when the cluster
        evidently lacks the resources (the actors would wait for them forever)."""
        ray = require_ray()
        owns_ray = not ray.is_initialized()
        if owns_ray:
            ray.init()
        try:
            count = backend.data_parallel_size
            options, env = replica_resources(backend.engines.on_cpu(), backend.engine_args, count,
                                             ray.cluster_resources(), backend.cpus_per_replica)
            actor = ray.remote(VLLMReplica).options(max_restarts=0, max_task_retries=0, **options)
            actors = [actor.remote(type(backend), backend.model, backend.replica_args(), env) for _ in range(count)]
        except BaseException:
            if owns_ray:
                ray.shutdown()
            raise
        return cls(ray, actors, owns_ray)

    def generate_each(self, prompts: list[Prompt], groups: list[list[int]], settings: GenerationSettings,
                      on_result: ResultFn) -> None:
        """Every request on some replica; ``on_result(i, completion)`` once per prompt, a share at a time."""
        if not prompts:
            return
        shares = []
        for share in deal(groups, len(self.alive) * SHARES_PER_REPLICA):
            indices = [i for group in share for i in group]
            local, at = [], 0
            for group in share:
                local.append(list(range(at, at + len(group))))
                at += len(group)
            shares.append((indices, ([prompts[i] for i in indices], local, settings)))

        def report(k: int, completions: list[Completion]) -> None:
            for index, completion in zip(shares[k][0], completions):
                on_result(index, completion)

        self.run("generate", [args for _, args in shares], report)

    def score_choices(self, prompts: list[Prompt], options: list[list[str]],
                      progress: Optional[ProgressFn] = None) -> list[list[float]]:
        if not prompts:
            return []
        rows: list[Optional[list[float]]] = [None] * len(prompts)
        shares = [[i for group in share for i in group]
                  for share in deal([[i] for i in range(len(prompts))], len(self.alive) * SHARES_PER_REPLICA)]

        def place(k: int, scores: list[list[float]]) -> None:
            for index, row in zip(shares[k], scores):
                rows[index] = row
            if progress:
                progress(len(shares[k]))

        self.run("score_choices", [([prompts[i] for i in s], [options[i] for i in s]) for s in shares], place)
        return rows  # type: ignore[return-value]

    def run(self, method: str, shares: list[tuple], on_share: Callable[[int, Any], None]) -> None:
        """Call ``method(*share)`` on the live replicas, at most :data:`IN_FLIGHT` shares queued at each; call
        ``on_share(k, result)`` once per share as it comes back. A share whose replica died goes to another."""
        ray = self.ray
        queue = deque(range(len(shares)))
        pending: dict[Any, tuple[int, int]] = {}  # object ref -> (replica, share)
        load = dict.fromkeys(range(len(self.actors)), 0)

        def feed() -> None:
            while queue:
                free = [r for r in self.alive if load[r] < IN_FLIGHT]
                if not free:
                    return
                replica = min(free, key=lambda r: (load[r], r))
                k = queue.popleft()
                pending[getattr(self.actors[replica], method).remote(*shares[k])] = (replica, k)
                load[replica] += 1

        self.require_alive()
        feed()
        while pending:
            (ref,), _ = ray.wait(list(pending), num_returns=1)
            replica, k = pending.pop(ref)
            load[replica] -= 1
            try:
                result = ray.get(ref)
            except ray.exceptions.RayActorError as exc:
                self.lost(replica, exc)
                queue.appendleft(k)
                self.requeued += 1
                self.require_alive()
            except ray.exceptions.RayTaskError as exc:
                cause = getattr(exc, "cause", None)
                if isinstance(cause, BackendError):
                    raise BackendError(f"{cause} (vllm replica {replica})") from None
                raise
            else:
                self.served[replica] += 1
                on_share(k, result)
            feed()

    def lost(self, replica: int, exc: Exception) -> None:
        if replica in self.alive:
            self.alive.remove(replica)
            reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            left = f"its requests go to the {len(self.alive)} left" if self.alive else "no replica is left"
            print(f"polibench: warning: vllm: replica {replica} is gone ({reason}); {left}", file=sys.stderr)
            self.ray.kill(self.actors[replica])

    def require_alive(self) -> None:
        if not self.alive:
            raise BackendError(f"vllm: all {len(self.actors)} data-parallel replicas died (the responses that came "
                               "back are cached: run again to resume)")

    def close(self) -> None:
        """Stop every live replica's engine, kill the actors, and shut Ray down if this pool started it."""
        for replica in self.alive:
            try:
                self.ray.get(self.actors[replica].close.remote(), timeout=120)
            except Exception:  # noqa: BLE001 - a replica that cannot stop cleanly is killed below all the same
                pass
        for actor in self.actors:
            self.ray.kill(actor)
        self.alive = []
        if self.owns_ray:
            self.ray.shutdown()


def replica_resources(on_cpu: bool, engine_args: dict, count: int, cluster: dict,
                      cpus_per_replica: Optional[int] = None) -> tuple[dict, dict]:
    """The Ray actor options of one of ``count`` replicas and the environment of its engine; raise
    :class:`BackendError` when ``cluster`` (``ray.cluster_resources()``) cannot hold them all.

    A GPU build: the ``tensor_parallel_size`` x ``pipeline_parallel_size`` GPUs of the engine's workers (and
    ``cpus_per_replica`` CPUs when given). vLLM's CPU build (``on_cpu``): ``cpus_per_replica`` CPUs and no GPU, by
    default the cluster's CPUs shared evenly (at least one per worker); the engine's workers then run
    ``cpus_per_replica`` / workers OpenMP threads each, unpinned (``VLLM_CPU_OMP_THREADS_BIND=nobind``)."""
    workers = int(engine_args.get("tensor_parallel_size", 1)) * int(engine_args.get("pipeline_parallel_size", 1))
    if not on_cpu:
        options: dict = {"num_gpus": workers}
        if cpus_per_replica:
            options["num_cpus"] = cpus_per_replica
        check_resources(cluster, options, count)
        return options, {}
    have = int(cluster.get("CPU", 0))
    cpus = cpus_per_replica or have // count
    if cpus < workers:
        raise BackendError(f"vllm: data_parallel_size={count} replicas on vLLM's CPU build need {count * workers} "
                           f"CPUs or more (one per tensor/pipeline-parallel worker); the Ray cluster has {have}")
    options = {"num_cpus": cpus, "num_gpus": 0}
    check_resources(cluster, options, count)
    return options, {"VLLM_CPU_OMP_THREADS_BIND": "nobind", "OMP_NUM_THREADS": str(cpus // workers)}


def check_resources(cluster: dict, options: dict, count: int) -> None:
    """Raise :class:`BackendError` when ``count`` actors with ``options`` cannot all fit in the cluster."""
    for option, resource in RESOURCES.items():
        need = float(options.get(option) or 0) * count
        have = float(cluster.get(resource, 0))
        if need > have:
            raise BackendError(f"vllm: data_parallel_size={count} replicas with {options[option]:g} {resource} each "
                               f"need {need:g} {resource}s; the Ray cluster has {have:g}")
