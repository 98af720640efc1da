"""``polibench cache merge CACHE... --output CACHE``: combine the response caches of several machines
(:mod:`polibench.cache.merge`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from polibench.cli.args import add_command_group


def add_parser(sub) -> None:
    cache_sub = add_command_group(
        sub, "cache", help="work on response caches (merge the caches of several machines)",
        description="Response caches ($POLIBENCH_CACHE/responses.sqlite): see docs/backends.md.")
    m = cache_sub.add_parser("merge", help="combine response caches; the first response for a request wins",
                             description="Copy the responses of each CACHE, in the order given, into --output (created "
                                         "if absent; its own entries come first). The first response for a request "
                                         "wins; a later, different one is a conflict: counted, shown, not copied.")
    m.add_argument("caches", nargs="+", metavar="CACHE", help="responses.sqlite files to merge")
    m.add_argument("--output", metavar="CACHE", required=True, help="the merged responses.sqlite")
    m.set_defaults(handler=merge_command)


def merge_command(args: argparse.Namespace) -> int:
    from polibench.cache.merge import merge_caches, report_lines

    report = merge_caches([Path(c) for c in args.caches], Path(args.output))
    for line in report_lines(report):
        print(line)
    return 0
