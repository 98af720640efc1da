"""``polibench compare RUN_DIR RUN_DIR...``: rank models per instrument and correlate the PCT and WVS rankings."""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def add_parser(sub) -> None:
    p = sub.add_parser("compare", help="rank runs (models) per instrument; Kendall tau between PCT and WVS rankings",
                       description="Read the results.json of two or more run folders and print, per shared task, "
                                   "each model's PCT coordinates and Faulborn bias with its rank (1 = most left), "
                                   "and Kendall's tau between the PCT and WVS bias rankings per dimension.")
    p.add_argument("run_dirs", nargs="+", metavar="RUN_DIR", help="finished run folders (at least 2)")
    p.add_argument("--task", help="compare only this task (default: every task the runs share)")
    p.add_argument("--json", metavar="FILE", help="also write the comparison as JSON to FILE")
    p.set_defaults(handler=compare_command)


def compare_command(args: argparse.Namespace) -> int:
    from polibench.errors import PolibenchError
    from polibench.report.compare import compare_documents, render_table
    from polibench.results.files import atomic_write_text, read_results

    if len(args.run_dirs) < 2:
        raise PolibenchError(f"compare needs at least 2 run folders (got {len(args.run_dirs)})")
    if args.json and not Path(args.json).parent.is_dir():
        raise PolibenchError(f"--json: folder {Path(args.json).parent} does not exist")
    runs = [(Path(d), read_results(Path(d))) for d in args.run_dirs]
    comparison = compare_documents(runs, args.task)
    print(render_table(comparison))
    if args.json:
        atomic_write_text(Path(args.json), json.dumps(comparison, indent=2) + "\n")
        print(f"wrote {args.json}")
    return 0
