"""Recompute every shipped leaderboard entry from its shipped samples, after a change to a metric.

    PYTHONPATH=$PWD python benchmarks/refresh_entries.py leaderboard/entries

For each entry whose samples and results are shipped: recompute every task's results and the run-level metrics
from the samples (no model call, no stance scoring: the samples carry their stances), write the new
results.json.gz beside the entry, and rewrite the entry's task summaries, run-level blocks and results hash.
A built-in task's pairings with other tasks (``compare_with:``, which its stored config may predate) are taken
from this polibench's task file; they are left out of the spec hash. Everything else (model,
dates, samples) is kept. ``polibench leaderboard verify`` must then report every entry verified. Takes a few
seconds; ``--smoke`` refreshes only the first entry into a temporary copy and verifies it.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

from polibench.leaderboard import extract
from polibench.leaderboard.artifacts import gzip_bytes, read_artifact
from polibench.leaderboard.schema import entry_json, entry_paths, load_entry
from polibench.leaderboard.verify import VERIFIED, files_shipped, verify_path
from polibench.results.files import atomic_write_text, parse_json, parse_samples
from polibench.results.migrate import migrate
from polibench.results.recompute import recompute, recompute_run_metrics
from polibench.taskspec.loader import load_registry


def refresh(path: Path) -> bool:
    """Recompute one entry in place; False when its files are not shipped."""
    entry = load_entry(path)
    folder = path.parent
    if not files_shipped(entry, folder):
        return False
    samples = parse_samples(read_artifact(folder, entry.samples), entry.samples.file)
    document = migrate(parse_json(read_artifact(folder, entry.results), entry.results.file), entry.results.file)
    builtin = load_registry().tasks
    configs = {name: ({**config, "compare_with": [p.model_dump(mode="json") for p in builtin[name].compare_with]}
                      if name in builtin and builtin[name].compare_with and "compare_with" not in config else config)
               for name, config in document.configs.items()}
    document = document.model_copy(update={"configs": configs})
    document = document.model_copy(update={"results": recompute(document, samples)})
    document = document.model_copy(update={"run_metrics": recompute_run_metrics(document, samples, document.results)})
    results = gzip_bytes(document.to_json().encode("utf-8"), folder / entry.results.file)
    entry = entry.model_copy(update={"tasks": extract.task_results(document, document.results), "results": results,
                                     "run_metrics": extract.run_blocks(document.run_metrics)})
    atomic_write_text(path, entry_json(entry))
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("entries", type=Path, help="entries folder (leaderboard/entries)")
    parser.add_argument("--smoke", action="store_true", help="first entry only, in a temporary copy")
    args = parser.parse_args(argv)
    paths = entry_paths(args.entries)
    with tempfile.TemporaryDirectory() as tmp:
        if args.smoke:
            paths = paths[:1]
            for p in args.entries.glob(paths[0].name.removesuffix(".json") + ".*"):
                shutil.copy(p, tmp)
            paths = [Path(tmp) / paths[0].name]
        failed = 0
        for path in paths:
            done = refresh(path)
            outcome = verify_path(path)
            failed += outcome.status != VERIFIED
            print(f"{'refreshed' if done else 'skipped (files not shipped)'} {path.name}: {outcome.status}"
                  f"{' ' + outcome.detail if outcome.status != VERIFIED else ''}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
