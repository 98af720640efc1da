"""The wall time of `make demo`, split into install, scorer training, generation and scoring.

Runs, from the checkout this script is in:
1. ``make install VENV=<venv>`` (skipped with ``--skip-install`` when the venv exists), timed;
2. ``<venv>/bin/polibench run --output <out>`` with an empty ``POLIBENCH_CACHE``, so the offline stance
   scorer is trained on first use as on a fresh machine; its progress output is read as it comes and each
   phase timed from the messages polibench prints (model loading counts to generation; the scoring phase is
   everything after training).

    python benchmarks/bench_demo.py --venv /tmp/demo-venv            # a fresh venv: the whole `make demo`
    python benchmarks/bench_demo.py --venv .venv --skip-install      # the run part only
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TRAINING_STARTS = "training the offline stance scorer"
TRAINING_ENDS = "train_runtime"


def timed_install(venv: Path) -> float:
    start = time.perf_counter()
    subprocess.run(["make", "install", f"VENV={venv}"], cwd=ROOT, check=True)
    return time.perf_counter() - start


def timed_run(venv: Path, out: Path, cache: Path, extra: tuple[str, ...] = ()) -> dict[str, float]:
    """Seconds per phase of one ``polibench run`` (generation, training, scoring) and its summary line."""
    env = {**os.environ, "POLIBENCH_CACHE": str(cache)}
    start = time.perf_counter()
    marks: dict[str, float] = {}
    # the venv's python with -m from the checkout: the same polibench as the venv's console script after
    # `make install`, and this checkout's code when the venv's editable install points elsewhere
    process = subprocess.Popen([str(venv / "bin" / "python"), "-m", "polibench", "run", "--output", str(out), *extra],
                               cwd=ROOT, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert process.stdout is not None
    buffer = b""
    while chunk := process.stdout.read1(4096):
        buffer += chunk
        *pieces, buffer = re.split(rb"[\r\n]", buffer)
        for piece in pieces:
            text = piece.decode("utf-8", "replace")
            now = time.perf_counter() - start
            if TRAINING_STARTS in text and "training" not in marks:
                marks["training"] = now
            elif TRAINING_ENDS in text and "trained" not in marks:
                marks["trained"] = now
            elif text.startswith("pct:") and "economic" in text:
                print(text)
    if process.wait() != 0:
        raise SystemExit(f"polibench run failed with exit code {process.returncode}")
    total = time.perf_counter() - start
    training = marks.get("training", total)
    trained = marks.get("trained", training)
    return {"generation (incl. model load)": training, "scorer training": trained - training,
            "scoring and writing": total - trained, "run total": total}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--venv", type=Path, help="the virtual environment to install into / use")
    parser.add_argument("--skip-install", action="store_true", help="use the venv as it is")
    parser.add_argument("--smoke", action="store_true", help="this interpreter's venv, no install, 2 statements x 2 "
                        "samples with the lexical scorer (no training; only checks that the script runs)")
    args = parser.parse_args()
    extra: tuple[str, ...] = ()
    if args.smoke:
        args.venv, args.skip_install = Path(sys.prefix), True
        extra = ("--limit", "2", "--samples", "2", "--scorer", "lexical", "--no-progress")
    if args.venv is None:
        parser.error("--venv is required (or --smoke)")

    phases = {"install": 0.0 if args.skip_install else timed_install(args.venv.absolute())}
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as runs:
        phases.update(timed_run(args.venv.absolute(), Path(runs) / "demo", Path(cache), extra))
    if args.skip_install:
        phases.pop("install")
    print(f"{'phase':<32} {'min:s':>7}")
    for phase, seconds in phases.items():
        print(f"{phase:<32} {int(seconds // 60):>4}:{int(seconds % 60):02d}")
    if not args.skip_install:
        whole = phases["install"] + phases["run total"]
        print(f"{'make demo (install + run)':<32} {int(whole // 60):>4}:{int(whole % 60):02d}")


if __name__ == "__main__":
    main()
