"""Positive controls for Liu et al.'s generation bias at full size (issue 22 §3).

Runs the planted backend (polibench.models.planted: hand-written partisan continuations of known leaning)
through the whole pipeline on ``liu-location`` (all 50 keywords, Liu's 10 samples per keyword and prompt:
5,000 continuations per plant) with each judge of tests/liu_controls.py:

- ``default``: the liu tasks' own judge (the offline default ideology judge, whatever it is now);
- ``pool-oracle``: the planted pools' labels (0 / 0.5 / 1): what a judge that reads the plant perfectly sees.

For the indirect plant, the direct plant and the balanced control it prints the observed bias, the permutation
null's mean, the excess with its 95% interval and the p-value, for the indirect and the direct bias (attribute
means), and whether the pipeline flags it (p < 0.05). Then the balanced control's false-flag rate over
``--null-seeds`` task seeds at the CI size (24 keywords, 2 samples), which should stay near 5% per measure.

    PYTHONPATH=.:tests python benchmarks/bench_liu_controls.py            # full size (minutes)
    PYTHONPATH=.:tests python benchmarks/bench_liu_controls.py --smoke    # 8 keywords, 1 seed: only checks it runs
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "tests")]

from liu_controls import JUDGES, run_control  # noqa: E402

from polibench.families.generation_bias.null import ALPHA  # noqa: E402

PLANTS = ("indirect", "direct", "balanced")


def cell(block, measure: str) -> str:
    value, null = getattr(block, measure), getattr(block, f"{measure}_null")
    excess, ci, p = getattr(block, f"{measure}_excess"), getattr(block.ci, f"{measure}_excess"), getattr(
        block, f"{measure}_p")
    interval = f" [{ci.low:+.4f}, {ci.high:+.4f}]" if ci is not None else ""
    return f"{value:.4f} | {null:.4f} | {excess:+.4f}{interval} | {p:.3f}{' flagged' if p < ALPHA else ''}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--smoke", action="store_true",
                        help="8 keywords, 1 sample, 1 null seed: checks that the script runs "
                             "(tests/metrics/test_liu_controls.py runs the controls at CI size)")
    parser.add_argument("--limit", type=int, default=None, help="keywords (default: all 50)")
    parser.add_argument("--samples", type=int, default=10, help="samples per keyword and prompt (Liu: 10)")
    parser.add_argument("--null-seeds", type=int, default=20, help="task seeds for the balanced control's rate")
    parser.add_argument("--judges", default=",".join(JUDGES), help=f"comma-separated, of {', '.join(JUDGES)}")
    args = parser.parse_args(argv)
    if args.smoke:
        args.limit, args.samples, args.null_seeds = 8, 1, 1
    null_limit, null_samples = (args.limit, args.samples) if args.smoke else (24, 2)
    judges = [j for j in args.judges.split(",") if j]
    work = Path(tempfile.mkdtemp(prefix="liu-controls-"))
    size = f"liu-location, {args.limit or 50} keywords x 10 prompts x {args.samples} samples"
    print(f"## Planted controls ({size}); values are raw W2, attribute means over the 4 options\n")
    print("| plant | judge | indirect | null | excess [95% CI] | p | direct | null | excess [95% CI] | p | min |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for plant in PLANTS:
        for judge in judges:
            start = time.time()
            block = run_control(plant, judge, work / f"{plant}-{judge}", args.limit, args.samples)
            print(f"| {plant} | {judge} | {cell(block, 'indirect')} | {cell(block, 'direct')} | "
                  f"{(time.time() - start) / 60:.1f} |", flush=True)
    if args.null_seeds:
        print(f"\n## Balanced control over {args.null_seeds} task seeds ({null_limit} keywords, {null_samples} "
              f"samples): flagged at p < {ALPHA:g}\n")
        print("| judge | indirect flagged | direct flagged | mean p indirect | mean p direct |")
        print("|---|---|---|---|---|")
        for judge in judges:
            blocks = [run_control("balanced", judge, work / f"null-{judge}-{seed}", null_limit, null_samples,
                                  seed=seed)
                      for seed in range(1, args.null_seeds + 1)]
            flags = [sum(getattr(b, f"{m}_p") < ALPHA for b in blocks) for m in ("indirect", "direct")]
            means = [sum(getattr(b, f"{m}_p") for b in blocks) / len(blocks) for m in ("indirect", "direct")]
            print(f"| {judge} | {flags[0]}/{len(blocks)} | {flags[1]}/{len(blocks)} | {means[0]:.3f} | "
                  f"{means[1]:.3f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
