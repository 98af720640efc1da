"""Batched vs one-prompt-at-a-time generation on the embedded model through polibench's hf backend.

Generates the same responses (greedy decoding, so both paths must produce identical text) for N PCT
prompts with ``--batch-size B`` and with batch size 1, and prints both times and the speed-up.

    python benchmarks/bench_batching.py --prompts 16 --batch-size 16 --max-new-tokens 32
"""

from __future__ import annotations

import argparse
import time

from polibench.models.embedded import embedded_gguf_path
from polibench.models.hf import HFBackend
from polibench.models.stage import prompt_of
from polibench.records import GenerationSettings
from polibench.request_building import build_samples
from polibench.taskspec.loader import load_registry


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prompts", type=int, default=16)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--max-new-tokens", type=int, default=32)
    args = parser.parse_args()

    registry = load_registry()
    samples = build_samples(registry.task("pct"), registry, limit=args.prompts, samples_per_prompt=1)
    prompts = [prompt_of(s) for s in samples]
    settings = GenerationSettings(samples=1, max_new_tokens=args.max_new_tokens, temperature=0)

    t0 = time.perf_counter()
    backend = HFBackend(str(embedded_gguf_path()), device="cpu", batch_size=args.batch_size)
    print(f"load: {time.perf_counter() - t0:.1f} s ({backend.describe()['dtype']}, device {backend.device})")
    backend.generate(prompts[:2], settings)  # warm-up

    timings = {}
    outputs = {}
    for label, size in (("batched", args.batch_size), ("one-at-a-time", 1)):
        backend.batch_size = size
        t0 = time.perf_counter()
        outputs[label] = backend.generate(prompts, settings)
        timings[label] = time.perf_counter() - t0
        tokens = sum(c.usage.completion_tokens for c in outputs[label])
        print(f"{label:>14}: {timings[label]:7.1f} s for {len(prompts)} prompts, {tokens} new tokens "
              f"({tokens / timings[label]:.1f} tok/s)")
    same = sum(a.text == b.text for a, b in zip(outputs["batched"], outputs["one-at-a-time"]))
    print(f"identical greedy outputs: {same}/{len(prompts)}")
    print(f"speed-up batched / one-at-a-time: {timings['one-at-a-time'] / timings['batched']:.2f}x")


if __name__ == "__main__":
    main()
