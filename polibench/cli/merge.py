"""``polibench merge SHARD... --output RUN``: the shards of one run (``polibench run --shard i/N``) as one run folder.

The shards are checked first (one plan, each shard 0..N-1 once, every planned sample exactly once:
:mod:`polibench.pipeline.shards`); then their responses go through the score, compute and write stages of
:func:`polibench.pipeline.run.run_pipeline`, in plan order, so the run folder is the one an unsharded run writes.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from polibench.errors import PolibenchError


def add_parser(sub) -> None:
    p = sub.add_parser("merge", help="merge the shard folders of one run (run --shard i/N) into one run folder",
                       description="Check that the shard folders are every shard of one run, then score their "
                                   "responses and write one run folder (samples.jsonl, results.json, report.md), "
                                   "as the unsharded run would.")
    p.add_argument("shards", nargs="+", metavar="SHARD", help="the shard folders (all N of them, in any order)")
    p.add_argument("--output", metavar="DIR", required=True, help="the merged run folder (must not exist)")
    p.add_argument("--no-progress", action="store_true", help="hide progress bars")
    p.set_defaults(handler=merge_command)


def merge_command(args: argparse.Namespace) -> int:
    from polibench.cli.run import print_summary
    from polibench.pipeline.plan import RunPlan
    from polibench.pipeline.run import run_pipeline
    from polibench.pipeline.shards import ShardResponses, merge_options, read_shards

    out = Path(args.output)
    if out.exists() or out.is_symlink():
        raise PolibenchError(f"--output {out}: already exists; merge writes a new run folder")
    shards = read_shards([Path(s) for s in args.shards])
    stored = shards[0][1].plan
    options = merge_options(stored, show_progress=not args.no_progress, command=sys.argv[1:])
    print(f"polibench: merging {len(shards)} shards of {', '.join(stored['tasks'])} "
          f"(plan {shards[0][1].plan_sha256[:12]})", file=sys.stderr)
    document = run_pipeline(RunPlan.from_specs(stored), ShardResponses(shards), out, options)
    print_summary(document, out, options.min_coverage)
    return 0
