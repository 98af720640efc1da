"""Benchmark: training the embedded default stance scorer, and scoring speed of the stance scorers.

Prints the wall and CPU seconds of training the MiniLM default on the gold train split (into a fresh
temporary cache, so it always trains), then examples per second of the embedded classifier, the lexical
baseline and (with --judge N) the llamacpp judge on the embedded SmolLM2 over the gold test split.

Target: training <= 300 s on 2 CPU cores.  Run:  taskset -c 0,1 python benchmarks/bench_stance.py [--judge 20]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import tempfile
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--judge", type=int, default=0, help="also time the judge on this many test examples")
    parser.add_argument("--threads", type=int, help="torch threads (default: torch's choice)")
    parser.add_argument("--smoke", action="store_true", help="the recipe for 1 step on 40 train examples, scored on "
                                                             "40 test examples (only checks that the script runs)")
    args = parser.parse_args()

    import torch

    if args.threads:
        torch.set_num_threads(args.threads)
    from polibench.scorers.stance.classifier import ClassifierScorer
    from polibench.scorers.stance.data import load_examples
    from polibench.scorers.stance.embedded import EmbeddedStanceScorer, ensure_default_checkpoint, minilm_path, recipe
    from polibench.scorers.stance.evaluate import evaluate_scorer, row_at
    from polibench.scorers.stance.train import read_metadata, train_classifier
    from polibench.scoring.registry import create_scorer

    print(f"torch threads: {torch.get_num_threads()}, cpu count: {os.cpu_count()}")
    with tempfile.TemporaryDirectory() as cache:
        os.environ["POLIBENCH_CACHE"] = cache
        started = time.time()
        if args.smoke:
            path = Path(cache) / "smoke-model"
            train_classifier(str(minilm_path()), load_examples("gold:train")[:40], path,
                             dataclasses.replace(recipe(), steps=1), show_progress=False)
            trained = ClassifierScorer(model=str(path))
        else:
            path = ensure_default_checkpoint(show_progress=False)
            trained = EmbeddedStanceScorer()
        meta = read_metadata(path)
        print(f"train embedded default: {time.time() - started:.1f} s wall (training alone {meta['train_seconds']} s, "
              f"{meta['train_cpu_seconds']} s CPU), {meta['n_train']} examples, {meta['steps']} steps, "
              f"final loss {meta['final_train_loss']}")
        test = load_examples("gold:test")[:40 if args.smoke else None]
        for scorer in (trained, create_scorer("lexical", ["agree", "disagree", "neutral", "unrelated"])):
            report, _ = evaluate_scorer(scorer, test, show_progress=False)
            row = row_at(report, 0.9)
            rate = f"{len(test) / report['seconds']:.1f}" if report["seconds"] > 0 else "too fast to time"
            print(f"{scorer.name}: {rate} examples/s over {len(test)}; macro-F1 at 0.9 "
                  f"{row['macro_f1']:.3f} with {100 * row['retained_share']:.1f}% retained")
    if args.judge:
        judge = create_scorer("judge", ["agree", "disagree", "neutral", "unrelated"])
        report, _ = evaluate_scorer(judge, test[:args.judge], show_progress=False)
        print(f"judge (embedded SmolLM2, llamacpp): {args.judge / report['seconds']:.2f} examples/s")


if __name__ == "__main__":
    main()
