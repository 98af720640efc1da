"""``polibench submit RUN_DIR``: recompute a run from its samples and write it as a leaderboard entry."""

from __future__ import annotations

import argparse
from pathlib import Path

DEFAULT_ENTRIES = "leaderboard/entries"


def add_parser(sub) -> None:
    p = sub.add_parser("submit", help="check a run and add it to the leaderboard entries",
                       description="Recompute every metric of RUN_DIR from its samples.jsonl, refuse the run if "
                                   "results.json disagrees, and write <entries>/<model>__<tasks>.json with gzipped "
                                   "copies of samples.jsonl and results.json beside it.")
    p.add_argument("run_dir", help="a finished run folder")
    p.add_argument("--entries", default=DEFAULT_ENTRIES, help=f"entries folder (default: {DEFAULT_ENTRIES})")
    p.add_argument("--force", action="store_true", help="replace an entry of another model with the same file name")
    p.add_argument("--model-id", help="the id to show (default: the run's model; local paths keep their last part)")
    p.add_argument("--allow-partial", action="store_true", help="accept a --limit run (for test entries)")
    p.add_argument("--allow-custom-tasks", action="store_true",
                   help="accept tasks that are not polibench's built-in ones (for a private leaderboard)")
    p.set_defaults(handler=submit_command)


def submit_command(args: argparse.Namespace) -> int:
    from polibench.leaderboard.submit import submit

    done = submit(Path(args.run_dir), Path(args.entries), force=args.force, allow_partial=args.allow_partial,
                  allow_custom_tasks=args.allow_custom_tasks, model_id=args.model_id)
    entry = done.entry
    print(f"{'replaced' if done.replaced else 'wrote'} {done.path} ({entry.model.id}: "
          f"{', '.join(t.name for t in entry.tasks)}; {entry.run.n_samples} samples recomputed and matching; "
          f"samples sha256 {entry.samples.sha256[:12]})")
    if entry.partial:
        from polibench.metrics.position import LIMIT_LABEL

        print(f"note: --limit {entry.run.limit} entry: {LIMIT_LABEL} (marked partial on the leaderboard)")
    return 0
