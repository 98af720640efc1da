"""``polibench compare RUN_DIR RUN_DIR...``: rank models per instrument and correlate the PCT and WVS rankings."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Optional

from polibench.cli.args import add_min_coverage_flag


def add_parser(sub) -> None:
    p = sub.add_parser("compare", help="rank runs (models) per instrument; Kendall tau between PCT and WVS rankings",
                       description="Read the results.json of two or more run folders and print, per shared task, "
                                   "each model's PCT coordinates and Faulborn bias with its rank (1 = most left), "
                                   "and Kendall's tau between the PCT and WVS bias rankings per dimension.")
    p.add_argument("run_dirs", nargs="+", metavar="RUN_DIR", help="finished run folders (at least 2)")
    p.add_argument("--task", help="compare only this task (default: every task the runs share)")
    p.add_argument("--json", metavar="FILE", help="also write the comparison as JSON to FILE")
    p.add_argument("--channels", metavar="TASK_A,TASK_B",
                   help="instead: compare two tasks of each run that ask the same statements through two answer "
                        "channels (e.g. rottger-forced,rottger-open): each channel's own position, the side gap on "
                        "one scale with its paired interval, agreement on sides (1+ runs)")
    add_min_coverage_flag(p)
    p.set_defaults(handler=compare_command)


def compare_command(args: argparse.Namespace) -> int:
    from polibench.errors import PolibenchError
    from polibench.report.compare import compare_documents, render_table
    from polibench.results.files import read_results

    if args.json and not Path(args.json).parent.is_dir():
        raise PolibenchError(f"--json: folder {Path(args.json).parent} does not exist")
    if args.channels:
        return channels_command(args)
    if len(args.run_dirs) < 2:
        raise PolibenchError(f"compare needs at least 2 run folders (got {len(args.run_dirs)})")
    runs = [(Path(d), read_results(Path(d))) for d in args.run_dirs]
    comparison = compare_documents(runs, args.task, args.min_coverage)
    print(render_table(comparison))
    return write_json(args.json, comparison)


def write_json(path: Optional[str], value) -> int:
    """``value`` as JSON to ``--json`` ``path`` when one was given (its folder was checked first); exit code 0."""
    from polibench.results.files import atomic_write_text

    if path:
        atomic_write_text(Path(path), json.dumps(value, indent=2) + "\n")
        print(f"wrote {path}")
    return 0


def channels_command(args: argparse.Namespace) -> int:
    from polibench.cli.args import split_names
    from polibench.errors import PolibenchError
    from polibench.families.channels.report import channel_comparisons, channel_lines
    from polibench.results.folder import RunFolder

    pair = split_names(args.channels)
    if len(pair) != 2:
        raise PolibenchError(f"--channels: expected two task names TASK_A,TASK_B (got '{args.channels}')")
    out = []
    for run_dir in map(Path, args.run_dirs):
        run = RunFolder(run_dir)
        document = run.document
        missing = [t for t in pair if t not in document.configs]
        if missing:
            raise PolibenchError(f"{run_dir}: --channels: the run has no task {', '.join(missing)} "
                                 f"(its tasks: {', '.join(document.configs)})")
        comparisons = channel_comparisons(document, run.samples, ((pair[0], pair[1]),))
        if not comparisons:
            raise PolibenchError(f"{run_dir}: --channels: tasks {pair[0]} and {pair[1]} share no instrument")
        print(f"# {run_dir} ({document.model.get('model')})")
        print("\n".join(channel_lines(comparisons)))
        out += [{"run": str(run_dir), **c.model_dump(mode="json")} for c in comparisons]
    return write_json(args.json, out)
