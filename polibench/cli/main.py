"""Entry point: ``polibench <command>``. User errors print one line and exit 2, never a traceback."""

from __future__ import annotations

import argparse
import errno
import sys

from polibench import __version__
from polibench.cli import (
    cache_cmd,
    compare,
    debias,
    fairness,
    ideology,
    import_cmd,
    leaderboard,
    list_cmd,
    merge,
    pretrain,
    report_cmd,
    run,
    score,
    shift,
    stance,
    submit,
)
from polibench.cli.flags import PolibenchParser

UNWRITABLE = (errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOSPC, errno.EDQUOT)
COMMANDS = (run, import_cmd, list_cmd, score, report_cmd, compare, stance, submit, leaderboard, fairness, ideology,
            debias, pretrain, shift, merge, cache_cmd)


def build_parser() -> argparse.ArgumentParser:
    parser = PolibenchParser(prog="polibench", description="Measure the political leaning of language models.")
    parser.add_argument("--version", action="version", version=f"polibench {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMANDS:
        module.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    from polibench.errors import PolibenchError

    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return 2
    try:
        return args.handler(args)
    except PolibenchError as exc:
        print(f"polibench: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except BrokenPipeError:  # output piped into `head` and the like: stop quietly
        sys.stderr.close()
        return 0
    except OSError as exc:
        if exc.errno not in UNWRITABLE:
            raise
        # a file or folder this user cannot write (the commands check their output folders first; this is the
        # net under every other write): one line, exit 2, never a traceback
        where = exc.filename or "a file"
        print(f"polibench: error: {where}: cannot write ({exc.strerror}); choose a place you can write to",
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("polibench: interrupted; nothing was published (partial samples stay in *.partial)", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
