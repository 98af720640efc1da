"""``polibench score RUN_DIR``: recompute results.json from samples.jsonl and the specs stored in the run."""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def add_parser(sub) -> None:
    p = sub.add_parser("score", help="recompute a run's results from its samples.jsonl")
    p.add_argument("run_dir", help="a finished run folder")
    p.add_argument("--check", action="store_true",
                   help="do not write; exit 1 if the stored results differ from the recomputation")
    p.set_defaults(handler=score_command)


def recompute(run_dir: Path) -> tuple[dict, dict]:
    """(stored results document, recomputed ``results`` block). The bootstrap uses the run's seed and the stored
    number of resamples, so an untouched run folder is reproduced exactly."""
    from polibench.metrics.bootstrap import DEFAULT_RESAMPLES
    from polibench.metrics.compute import compute_task_results
    from polibench.results.files import SAMPLES, read_results, read_samples
    from polibench.taskspec.schema import Instrument, TaskConfig

    document = read_results(run_dir)
    samples = read_samples(run_dir / SAMPLES)
    instruments = {n: Instrument.model_validate(d) for n, d in document["instruments"].items()}
    seed = (document.get("run") or {}).get("seed")
    recomputed = {}
    for name, config in document["configs"].items():
        task = TaskConfig.model_validate(config)
        stored = (document.get("results") or {}).get(name) or {}
        resamples = (stored.get("bootstrap") or {}).get("resamples", DEFAULT_RESAMPLES)
        recomputed[name] = compute_task_results(task, instruments, [s for s in samples if s.task == name],
                                                seed=seed, resamples=resamples)
    return document, recomputed


def score_command(args: argparse.Namespace) -> int:
    from polibench.report.markdown import write_report
    from polibench.results.files import write_results

    run_dir = Path(args.run_dir)
    document, recomputed = recompute(run_dir)
    same = json.dumps(recomputed, sort_keys=True) == json.dumps(document["results"], sort_keys=True)
    if args.check:
        print("results.json matches samples.jsonl" if same else "results.json DIFFERS from samples.jsonl")
        return 0 if same else 1
    document["results"] = recomputed
    write_results(run_dir, document)
    write_report(run_dir, document)
    print(f"recomputed {run_dir}/results.json ({'unchanged' if same else 'updated'})")
    return 0
