"""Benchmark: every metric of faulborn30, 10,000-resample bootstrap included, at Faulborn et al.'s scale.

88,110 synthetic scored responses = 89 statements (PCT 62 + WVS 27) x 3 forms x 10 prefixes x 3 samples x
11 models, with random stances (each model leaning by a different amount). Prints seconds per stage:

- building the pydantic Sample records (not part of the metrics: a run or `score` gets them from the model or
  samples.jsonl),
- building the columnar (numpy) views, one per model,
- the metrics from those views: PCT coordinates per variant, Faulborn bias overall / per instrument / prefix /
  form, steerability, coverage, all with 10,000 item resamples, for each of the 11 models,
- `compare` across the 11 models (rankings and Kendall's tau),
- the same metrics once more on all 88,110 responses as a single run (scaling check).

Target: metrics (views + bootstrap) <= 10 s on 2 cores. Run:  taskset -c 0,1 python benchmarks/bench_metrics.py
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path
from types import SimpleNamespace

from polibench.metrics.bootstrap import DEFAULT_RESAMPLES
from polibench.metrics.columns import build_table
from polibench.metrics.compute import results_from_table
from polibench.pipeline.plan import build_samples
from polibench.records import Stance
from polibench.report.compare import compare_documents
from polibench.results.document import TaskResults
from polibench.taskspec.loader import load_registry

MODELS, SAMPLES_PER_PROMPT = 11, 3
LABELS = ("agree", "disagree", "neutral", "unrelated")


def synthetic_runs(seed: int, models: int = MODELS, samples: int = SAMPLES_PER_PROMPT):
    """``models`` lists of scored samples of faulborn30 with random stances (11 x 8,010 by default)."""
    registry = load_registry([])
    task = registry.task("faulborn30")
    template = build_samples(task, registry, samples_per_prompt=samples)
    rng = random.Random(seed)
    runs = []
    for _model in range(models):
        lean = rng.uniform(-0.3, 0.3)
        scored = []
        for s in template:
            p_agree = 0.5 + (lean if s.agree_side == "left" else -lean)
            label = rng.choice(("neutral", "unrelated")) if rng.random() < 0.15 else \
                "agree" if rng.random() < p_agree else "disagree"
            confidence = rng.uniform(0.5, 1.0)
            other = "disagree" if label == "agree" else "agree"
            kept = confidence >= 0.9
            stance = Stance(label=label, confidence=confidence, probs={label: confidence, other: 1 - confidence},
                            scorer="synthetic", kept=kept, reason="" if kept else "low_confidence")
            scored.append(s.model_copy(update={"response": "synthetic", "stance": stance}))
        runs.append(scored)
    return task, {n: registry.instruments[n] for n in task.instruments}, runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--resamples", type=int, default=DEFAULT_RESAMPLES)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--models", type=int, default=MODELS)
    parser.add_argument("--samples", type=int, default=SAMPLES_PER_PROMPT, help="samples per prompt")
    parser.add_argument("--smoke", action="store_true",
                        help="2 models, 1 sample per prompt, 20 resamples (only checks that the script runs)")
    args = parser.parse_args()
    if args.smoke:
        args.models, args.samples, args.resamples = 2, 1, 20

    start = time.perf_counter()
    task, instruments, runs = synthetic_runs(args.seed, args.models, args.samples)
    n = sum(len(r) for r in runs)
    built = time.perf_counter()
    print(f"built {n:,} Sample records ({args.models} models x {len(runs[0]):,}) in {built - start:.2f} s "
          "(not part of the metrics)")

    tables = [build_table(r) for r in runs]
    viewed = time.perf_counter()
    print(f"columnar views: {viewed - built:.2f} s")

    results = [results_from_table(task, instruments, t, seed=k, resamples=args.resamples)
               for k, t in enumerate(tables)]
    metrics_done = time.perf_counter()
    print(f"all metrics, {args.resamples:,} bootstrap resamples, {args.models} models: {metrics_done - viewed:.2f} s")

    # compare_documents reads a document's results, model, run seed and scoring block (the typed ResultsDocument's
    # fields); the synthetic runs were read by no scorer
    documents = [(Path(f"model-{k}"), SimpleNamespace(model={"model": f"model-{k}"},
                                                      run=SimpleNamespace(seed=k, limit=None), scoring={},
                                                      results={task.task: TaskResults.from_blocks(r)}))
                 for k, r in enumerate(results)]
    comparison = compare_documents(documents)
    compared = time.perf_counter()
    tau = comparison["tasks"][task.task]["kendall_tau"]["economic"]
    print(f"compare {args.models} models: {compared - metrics_done:.2f} s "
          f"(tau economic {tau['tau']}, p {tau['p_value']})")
    total = compared - built
    print(f"TOTAL metrics (views + bootstrap + compare) for {n:,} responses: {total:.2f} s")

    pooled = [s for r in runs for s in r]
    t0 = time.perf_counter()
    results_from_table(task, instruments, build_table(pooled), resamples=args.resamples)
    print(f"the {n:,} responses as ONE run (view + metrics): {time.perf_counter() - t0:.2f} s")


if __name__ == "__main__":
    main()
