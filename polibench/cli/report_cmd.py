"""``polibench report RUN_DIR``: (re)write report.md from results.json."""

from __future__ import annotations

import argparse
from pathlib import Path

from polibench.cli.args import add_min_coverage_flag


def add_parser(sub) -> None:
    p = sub.add_parser("report", help="write report.md for a run folder")
    p.add_argument("run_dir", help="a finished run folder")
    add_min_coverage_flag(p)
    p.set_defaults(handler=report_command)


def report_command(args: argparse.Namespace) -> int:
    from polibench.kit.files import check_writable
    from polibench.report.markdown import write_report
    from polibench.results.files import read_results

    document = read_results(Path(args.run_dir))
    check_writable(Path(args.run_dir))  # before any figure is drawn
    path = write_report(Path(args.run_dir), document, args.min_coverage)
    print(f"wrote {path}")
    return 0
