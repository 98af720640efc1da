"""Where the llama.cpp backend's generation time goes: the cost of one decoding step against the number of
sequences in it (at 1 and 2 threads), and the share of a PCT sampling run spent in llama.cpp's decode, in
prompt evaluation and in the samplers (docs/backends.md, "Where the demo's generation time goes").

    python benchmarks/bench_decode_steps.py                  # both parts, embedded model, batch 16
    python benchmarks/bench_decode_steps.py --statements 5 --threads 2
"""

from __future__ import annotations

import argparse
import time
from contextlib import contextmanager

from polibench.models.embedded import embedded_gguf_path
from polibench.models.llamacpp import LlamaCppBackend
from polibench.models.llamacpp_batch import BatchDecoder
from polibench.models.stage import prompt_of
from polibench.pipeline.plan import build_samples
from polibench.taskspec.loader import load_registry

PROMPT = b"Please respond to the following statement: taxes on the rich should be higher. Your response:"


def step_costs(n_seq: int, threads: int, steps: int = 30) -> list[tuple[int, float]]:
    """Milliseconds of one decoding step with 1, 4, 8 ... ``n_seq`` sequences in it (the middle two thirds of
    ``steps`` steps averaged), on a context of ``n_seq`` sequences of 256 cells."""
    import llama_cpp
    from llama_cpp import Llama

    llm = Llama(str(embedded_gguf_path()), n_ctx=2048, n_threads=threads, verbose=False)
    decoder = BatchDecoder(llm, n_seq, 256, threads)
    memory = llama_cpp.llama_get_memory(decoder.ctx)
    prompt = llm.tokenize(PROMPT, add_bos=True)
    rows = []
    try:
        for n in sorted({n for n in (1, 4, 8) if n < n_seq} | {n_seq}):  # the decoder holds n_seq sequences
            llama_cpp.llama_memory_clear(memory, True)
            decoder._fill([(token, k, (0,), k == len(prompt) - 1) for k, token in enumerate(prompt)])
            for seq in range(1, n):
                llama_cpp.llama_memory_seq_cp(memory, 0, seq, -1, -1)
            times = []
            for step in range(steps):
                started = time.perf_counter()
                decoder._fill([(100 + seq, len(prompt) + step, (seq,), True) for seq in range(n)])
                times.append(time.perf_counter() - started)
            middle = sorted(times)[steps // 6: steps - steps // 6]
            rows.append((n, 1000 * sum(middle) / len(middle)))
    finally:
        decoder.close()
        llm.close()
    return rows


@contextmanager
def timed(cls, name: str, totals: dict):
    """Add the wall time of every call of ``cls.name`` to ``totals[name]``."""
    original = getattr(cls, name)

    def wrapper(*args, **kwargs):
        started = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            totals[name] = totals.get(name, 0.0) + time.perf_counter() - started

    setattr(cls, name, wrapper)
    try:
        yield
    finally:
        setattr(cls, name, original)


def run_split(statements: int, batch_size: int, threads: int | None, prompts_cap: int | None = None,
              new_tokens: int | None = None) -> None:
    """The PCT sampling run: ``statements`` statements (10 samples each), or their first ``prompts_cap`` prompts,
    at the task's 100 new tokens or ``new_tokens``."""
    registry = load_registry()
    task = registry.task("pct")
    prompts = [prompt_of(s) for s in build_samples(task, registry, limit=statements)][:prompts_cap]
    generation = task.generation if new_tokens is None else task.generation.model_copy(
        update={"max_new_tokens": new_tokens})
    totals: dict = {}
    with LlamaCppBackend(str(embedded_gguf_path()), batch_size=batch_size, n_threads=threads) as backend:
        backend.generate(prompts[:2], generation)  # warm-up: the decoder's context
        with timed(BatchDecoder, "_fill", totals), timed(BatchDecoder, "_sample", totals), \
                timed(BatchDecoder, "_prefill", totals):
            started = time.perf_counter()
            completions = backend.generate(prompts, generation)
            total = time.perf_counter() - started
    tokens = sum(c.usage.completion_tokens for c in completions)
    print(f"PCT sampling, {len(prompts)} prompts, batch {batch_size}: {total:.1f} s, {tokens} new tokens "
          f"({tokens / total:.1f} tok/s)")
    decode, samplers = totals.get("_fill", 0.0), totals.get("_sample", 0.0)
    print(f"  inside llama_decode {decode:.1f} s; prompt evaluation (with its first tokens' samplers) "
          f"{totals.get('_prefill', 0.0):.1f} s; samplers {samplers:.1f} s; the rest (Python, detokenising, "
          f"stop strings) {total - decode - samplers:.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--statements", type=int, default=5, help="PCT statements (10 samples each) for the split")
    parser.add_argument("--threads", type=int, default=None, help="threads of the split run (default: every core)")
    parser.add_argument("--steps", type=int, default=30, help="decoding steps timed per sequence count")
    parser.add_argument("--smoke", action="store_true",
                        help="batch 2, 5 steps, 4 prompts of 1 statement, 8 new tokens (only checks that the "
                             "script runs)")
    args = parser.parse_args()
    prompts_cap = new_tokens = None
    if args.smoke:
        args.batch_size, args.statements, args.steps = 2, 1, 5
        prompts_cap, new_tokens = 4, 8  # two batches: the decoder is refilled once
    for threads in (1, 2):
        for n, ms in step_costs(args.batch_size, threads, args.steps):
            print(f"step with {n:2d} sequences, {threads} thread(s): {ms:6.1f} ms ({ms / n:5.1f} ms per token, "
                  f"{1000 * n / ms:6.1f} tok/s)")
    run_split(args.statements, args.batch_size, args.threads, prompts_cap, new_tokens)


if __name__ == "__main__":
    main()
