"""Parsing helpers shared by the sub-commands."""

from __future__ import annotations

from typing import Optional

from polibench.errors import PolibenchError


def parse_value(text: str):
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered in ("none", "null"):
        return None
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return text


def parse_kv(text: str | None, flag: str) -> dict:
    """``"a=1,b=x"`` -> ``{"a": 1, "b": "x"}`` (lm-eval's ``--model-args`` convention).

    Raises :class:`PolibenchError` naming the flag and the bad pair for a pair without ``=``, an empty key,
    a key that is not an identifier (letters, digits, ``_``) or a key given twice."""
    if not text:
        return {}
    out = {}
    for part in text.split(","):
        key, sep, value = part.partition("=")
        key = key.strip()
        if not sep or not key:
            raise PolibenchError(f"{flag}: expected comma-separated key=value pairs, got {part!r} in {text!r}")
        if not key.isidentifier():
            raise PolibenchError(f"{flag}: expected keys made of letters, digits and '_', got {key!r} in {text!r}")
        if key in out:
            raise PolibenchError(f"{flag}: expected each key once, got {key!r} twice in {text!r}")
        out[key] = parse_value(value.strip())
    return out


def split_names(text: str) -> list[str]:
    return [n.strip() for n in text.split(",") if n.strip()]


def parse_task_names(text: str) -> list[str]:
    """``--tasks``: one or more comma-separated names, each kept once, in the order given."""
    names = list(dict.fromkeys(split_names(text)))
    if not names:
        raise PolibenchError(f"--tasks: expected one or more task names separated by commas (see `polibench list`), "
                             f"got {text!r}")
    return names


def probability(value: str) -> float:
    """An argparse type for a confidence threshold: a number from 0 to 1 (argparse reports anything else)."""
    import argparse
    import math

    try:
        number = float(value)
    except ValueError:
        number = math.nan
    if not 0.0 <= number <= 1.0:
        raise argparse.ArgumentTypeError(f"expected a number from 0 to 1, got {value!r}")
    return number


def add_min_coverage_flag(parser) -> None:
    """``--min-coverage``: the share of an axis's PCT statements that must be answered for a position to be
    ranked (below it: insufficient data, shown hollow and unranked; :mod:`polibench.metrics.position`)."""
    from polibench.metrics.position import MIN_AXIS_COVERAGE

    parser.add_argument("--min-coverage", type=probability, default=MIN_AXIS_COVERAGE, metavar="SHARE",
                        help="share of an axis's PCT statements that must be answered for a ranked position "
                             f"(default {MIN_AXIS_COVERAGE}; below it: insufficient data, unranked)")


def add_command_group(sub, name: str, help: str, description: Optional[str], dest: Optional[str] = None,
                      metavar: str = "SUBCOMMAND"):
    """Subcommand ``name`` with subcommands of its own (``polibench stance train``): the parser of the group's
    subcommands. ``polibench NAME`` alone prints the group's help and exits 2."""
    parser = sub.add_parser(name, help=help, description=description)
    group = parser.add_subparsers(dest=dest or f"{name}_command", metavar=metavar)
    parser.set_defaults(handler=lambda args: (parser.print_help(), 2)[1])
    return group
