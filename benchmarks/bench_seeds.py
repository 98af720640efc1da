"""Between-seed spread of the embedded model's PCT position, against the 95% intervals each run reports.

Runs the full PCT (62 statements x 10 samples) with ``polibench run --seed S`` for each seed, exactly as a
user would, or reuses finished run folders, then prints each run's position with its interval, the spread
of the positions between seeds, and whether each run's interval holds the other runs' positions. The
intervals of one run resample statements and responses of that run; they say nothing about seeds, which is
what this measures (docs/metrics.md, "Between seeds").

    python benchmarks/bench_seeds.py --seeds 1234 1 2 --out runs/seeds
    python benchmarks/bench_seeds.py runs/seeds/seed-1234 runs/seeds/seed-1 runs/seeds/seed-2   # reuse
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from polibench.metrics.blocks import PctBlock
from polibench.results.files import read_results

AXES = ("economic", "social")


def run_seed(seed: int, out: Path, polibench: list[str], extra: tuple[str, ...] = ()) -> tuple[Path, float]:
    """``polibench run --seed SEED`` into ``out/seed-SEED`` unless that folder already holds results."""
    folder = out / f"seed-{seed}"
    if (folder / "results.json").is_file():
        return folder, 0.0
    start = time.perf_counter()
    subprocess.run([*polibench, "run", "--tasks", "pct", "--seed", str(seed), "--output", str(folder), *extra],
                   check=True)
    return folder, time.perf_counter() - start


def position(folder: Path) -> tuple[str, PctBlock, str]:
    document = read_results(folder)
    block = document.results["pct"].block("pct")
    if not isinstance(block, PctBlock):
        raise SystemExit(f"{folder}: no PCT coordinates in results.json")
    seed = document.run.seed if document.run.seed is not None else document.configs["pct"]["generation"]["seed"]
    coverage = document.results["pct"].coverage
    return str(seed), block, f"{coverage.responses_kept}/{coverage.responses}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="*", type=Path, help="finished run folders to reuse")
    parser.add_argument("--seeds", nargs="*", type=int, default=[], help="seeds to run (full PCT each)")
    parser.add_argument("--out", type=Path, default=Path("runs/seeds"))
    parser.add_argument("--smoke", action="store_true",
                        help="seeds 1 and 2 on 4 statements x 2 samples of the mock backend's canned answers, "
                             "lexical scorer, in a temporary folder (only checks that the script runs)")
    args = parser.parse_args()
    polibench = [sys.executable, "-m", "polibench"]  # this interpreter's polibench (a checkout on PYTHONPATH too)
    extra: tuple[str, ...] = ()
    if args.smoke:
        args.seeds, args.out = [1, 2], Path(tempfile.mkdtemp(prefix="bench-seeds-"))
        # the mock backend: seconds instead of the embedded model's 16 responses, and its answers are scored, so
        # the table and the spread are printed too
        extra = ("--backend", "mock", "--limit", "4", "--samples", "2", "--scorer", "lexical", "--no-cache",
                 "--no-progress")

    folders = list(args.runs)
    for seed in args.seeds:
        folder, seconds = run_seed(seed, args.out, polibench, extra)
        if seconds:
            print(f"seed {seed}: ran in {seconds / 60:.1f} min -> {folder}", flush=True)
        folders.append(folder)
    if len(folders) < 2:
        parser.error("give at least two runs (folders or --seeds)")

    rows = []
    for seed, block, kept in (position(folder) for folder in folders):
        if block.economic is None or block.social is None:  # e.g. --smoke: the lexical scorer kept no answer
            print(f"seed {seed}: no position ({kept} responses kept); left out")
        else:
            rows.append((seed, block, kept))
    if len(rows) < 2:
        print("fewer than two runs with a position: no between-seed spread")
        return
    print("\n| seed | economic [95% CI] | social [95% CI] | kept |\n|---|---|---|---|")
    for seed, block, kept in rows:
        cells = [f"{getattr(block, a):+.2f} [{getattr(block.ci, a)[0]:+.2f}, {getattr(block.ci, a)[1]:+.2f}]"
                 for a in AXES]
        print(f"| {seed} | {cells[0]} | {cells[1]} | {kept} |")

    print()
    for axis in AXES:
        values = [getattr(block, axis) for _, block, _ in rows]
        widths = [getattr(block.ci, axis)[1] - getattr(block.ci, axis)[0] for _, block, _ in rows]
        held = sum(getattr(a.ci, axis)[0] <= getattr(b, axis) <= getattr(a.ci, axis)[1]
                   for i, (_, a, _) in enumerate(rows) for j, (_, b, _) in enumerate(rows) if i != j)
        pairs = len(rows) * (len(rows) - 1)
        print(f"{axis:>8}: positions {', '.join(f'{v:+.2f}' for v in values)}; between-seed SD "
              f"{statistics.stdev(values):.2f}, range {max(values) - min(values):.2f}; mean 95% CI width "
              f"{statistics.mean(widths):.2f}; a run's interval holds another run's position in {held}/{pairs} "
              "pairs")


if __name__ == "__main__":
    main()
