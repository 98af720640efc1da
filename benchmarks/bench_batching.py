"""One sequence at a time against batched decoding on the embedded model, through polibench's backends.

``--backend llamacpp`` (the demo's path): the PCT task's own sampling (10 samples per statement, temperature
1, top-k 50, each sample with its seed) for ``--statements`` statements, at batch size 1 and at
``--batch-size``; llama.cpp's batched decoder must give identical responses at both sizes, so the benchmark
also counts them. ``--backend hf``: greedy decoding of one sample per statement (transformers seeds each
batch from its members, so only greedy outputs are comparable across batch sizes).

    python benchmarks/bench_batching.py --backend llamacpp --statements 4 --batch-size 16
    python benchmarks/bench_batching.py --backend hf --statements 16 --batch-size 16 --max-new-tokens 32

Two llama.cpp builds side by side (docs/records.md, "Across machines"): ``--batched-only --save A.json`` with
one build, then ``--batched-only --compare A.json`` with the other (``PYTHONPATH=<folder of the other build>``)
prints how many responses are identical and both builds' CPU features.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from polibench.models.embedded import embedded_gguf_path
from polibench.models.stage import prompt_of
from polibench.pipeline.plan import build_samples
from polibench.records import GenerationSettings
from polibench.taskspec.loader import load_registry


def make_backend(name: str, batch_size: int, threads: int | None):
    if name == "llamacpp":
        from polibench.models.llamacpp import LlamaCppBackend

        return LlamaCppBackend(str(embedded_gguf_path()), batch_size=batch_size, n_threads=threads)
    from polibench.models.hf import HFBackend

    return HFBackend(str(embedded_gguf_path()), device="cpu", batch_size=batch_size)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=("llamacpp", "hf"), default="llamacpp")
    parser.add_argument("--statements", type=int, default=4)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--max-new-tokens", type=int, default=100)
    parser.add_argument("--threads", type=int, default=None, help="llamacpp threads (default: every core)")
    parser.add_argument("--batched-only", action="store_true", help="skip the one-at-a-time run")
    parser.add_argument("--save", type=Path, help="write the batched responses (and the build) to this JSON file")
    parser.add_argument("--compare", type=Path, help="count batched responses identical to a --save file's")
    parser.add_argument("--smoke", action="store_true",
                        help="4 prompts of 1 statement, batch 2, 4 new tokens (only checks that the script runs)")
    args = parser.parse_args()
    if args.smoke:
        args.statements, args.batch_size, args.max_new_tokens = 1, 2, 4

    registry = load_registry()
    task = registry.task("pct")
    if args.backend == "llamacpp":
        samples = build_samples(task, registry, limit=args.statements)
        settings = task.generation.model_copy(update={"max_new_tokens": args.max_new_tokens})
    else:
        samples = build_samples(task, registry, limit=args.statements, samples_per_prompt=1)
        settings = GenerationSettings(samples=1, max_new_tokens=args.max_new_tokens, temperature=0)
    prompts = [prompt_of(s) for s in samples][:4 if args.smoke else None]  # smoke: two batches of 2

    print(f"{args.backend}: {len(prompts)} prompts ({args.statements} statements), temperature "
          f"{settings.temperature}, {settings.max_new_tokens} new tokens at most")
    timings, outputs = {}, {}
    runs = [("batched", args.batch_size)] + ([] if args.batched_only else [("one-at-a-time", 1)])
    for label, size in runs:
        with make_backend(args.backend, size, args.threads) as backend:  # a fresh model for each size
            info = backend.describe()
            backend.generate(prompts[:2], settings)  # warm-up (and, for llamacpp, the decoder's context)
            t0 = time.perf_counter()
            outputs[label] = backend.generate(prompts, settings)
            timings[label] = time.perf_counter() - t0
        tokens = sum(c.usage.completion_tokens for c in outputs[label])
        where = (f"threads {backend.n_threads}" if args.backend == "llamacpp"
                 else f"{info['dtype']} on {info['device']}")
        print(f"{label:>14} (batch {size:>2}, {where}): {timings[label]:7.1f} s, {tokens} new tokens "
              f"({tokens / timings[label]:.1f} tok/s)")
    texts = [c.text for c in outputs["batched"]]
    build = info.get("build", "")
    if args.backend == "llamacpp":
        print(f"build: {build}")
    if args.save:
        args.save.write_text(json.dumps({"build": build, "texts": texts}, indent=1) + "\n", encoding="utf-8")
        print(f"saved {len(texts)} responses to {args.save}")
    if args.compare:
        other = json.loads(args.compare.read_text(encoding="utf-8"))
        same = sum(a == b for a, b in zip(texts, other["texts"]))
        print(f"identical to {args.compare} ({other['build'] or 'no build recorded'}): {same}/{len(texts)}")
    if not args.batched_only:
        same = sum(a.text == b.text for a, b in zip(outputs["batched"], outputs["one-at-a-time"]))
        print(f"identical responses: {same}/{len(prompts)}")
        print(f"speed-up batched / one-at-a-time: {timings['one-at-a-time'] / timings['batched']:.2f}x")


if __name__ == "__main__":
    main()
