"""Throughput of the ``vllm`` backend with 1 and with N engine replicas (``data_parallel_size``, on Ray).

The PCT task's own sampling (its samples per statement, temperature and seeds) for ``--statements``
statements goes through one engine in this process, then through each ``--replicas`` count of Ray actors.
Each configuration first starts its engines (timed apart, with one request per replica), then generates every
request; the figures are responses and new tokens per second of that second step. The responses must be the
same whatever the replica count (each request keeps its seed), so the script also counts identical ones.

On a machine with GPUs (vLLM and Ray installed: ``pip install -e '.[vllm,ray]'``)::

    python benchmarks/bench_vllm_dp.py --model Qwen/Qwen2.5-1.5B-Instruct --replicas 2 --statements 62

``--smoke`` runs the fake engine of tests/fake_vllm_engine.py (20 ms a request) in a local 2-CPU Ray cluster:
it checks that the script runs; its figures measure nothing about vLLM.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from polibench.models.stage import prompt_of
from polibench.models.vllm import VLLMBackend
from polibench.pipeline.plan import build_samples
from polibench.taskspec.loader import load_registry

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", help="a hub id or local folder vLLM can load")
    parser.add_argument("--replicas", default="2", help="comma-separated replica counts to compare with 1")
    parser.add_argument("--tensor-parallel-size", type=int, default=1, help="GPUs of each replica")
    parser.add_argument("--statements", type=int, default=62, help="PCT statements (62: all)")
    parser.add_argument("--max-new-tokens", type=int, default=None, help="default: the task's")
    parser.add_argument("--smoke", action="store_true",
                        help="the fake engine on CPU, 2 statements (only checks that the script runs)")
    args = parser.parse_args()
    engines, cluster = None, None
    if args.smoke:
        sys.path.insert(0, str(ROOT / "tests"))
        from fake_vllm_engine import FakeEngines, start_local_ray, stop_local_ray

        cluster = start_local_ray(num_cpus=2)
        engines, args.model, args.replicas, args.statements = FakeEngines(per_request=0.02), "fake/engine", "2", 2
    elif not args.model:
        parser.error("--model is needed (or --smoke)")

    registry = load_registry()
    task = registry.task("pct")
    prompts = [prompt_of(s) for s in build_samples(task, registry, limit=args.statements)]
    settings = task.generation
    if args.max_new_tokens:
        settings = settings.model_copy(update={"max_new_tokens": args.max_new_tokens})
    print(f"vllm: {args.model}, {len(prompts)} requests ({args.statements} PCT statements), temperature "
          f"{settings.temperature}, {settings.max_new_tokens} new tokens at most, tensor_parallel_size "
          f"{args.tensor_parallel_size} per replica")
    texts: dict[int, list[str]] = {}
    speed: dict[int, float] = {}
    for replicas in [1] + [int(n) for n in args.replicas.split(",") if int(n) > 1]:
        with VLLMBackend(args.model, tensor_parallel_size=args.tensor_parallel_size, data_parallel_size=replicas,
                         engine_factory=engines) as backend:
            t0 = time.perf_counter()
            backend.generate(prompts[:replicas], settings)  # starts every engine
            started = time.perf_counter() - t0
            t0 = time.perf_counter()
            outputs = backend.generate(prompts, settings)
            took = time.perf_counter() - t0
        tokens = sum(c.usage.completion_tokens or 0 for c in outputs)
        texts[replicas], speed[replicas] = [c.text for c in outputs], len(outputs) / took
        print(f"{replicas} replica(s): engines started in {started:6.1f} s; {len(outputs)} responses in "
              f"{took:6.1f} s = {speed[replicas]:.2f} responses/s, {tokens / took:.0f} new tokens/s")
    for replicas in sorted(texts)[1:]:
        same = sum(a == b for a, b in zip(texts[1], texts[replicas]))
        print(f"{replicas} replicas vs 1: {same}/{len(prompts)} identical responses, "
              f"throughput x{speed[replicas] / speed[1]:.2f}")
    if cluster:
        stop_local_ray(*cluster)
        print("smoke: a fake engine on CPU; these figures say nothing about vLLM on a GPU")


if __name__ == "__main__":
    main()
