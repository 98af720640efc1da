"""Dump every number polibench shows from what it ships, so that two checkouts can be diffed (issue 40: "the built
site and every shipped entry's numbers are unchanged").

Into OUT (one folder per checkout), through the command line only, so the same script runs on the code before and
after a refactor:

- ``list.txt``: ``polibench list`` (tasks, metrics, scorers, backends: names and their order);
- ``entries/<entry>/``: each shipped entry's gzipped samples.jsonl and results.json unpacked into a run folder and
  recomputed by ``polibench score`` (results.json and report.md rewritten, figures as SVG text), with the lines it
  printed (``score.txt``), ``score --check``'s verdict and whether every samples.jsonl line reads back and writes
  out byte for byte (``samples_roundtrip.txt``);
- ``verify.txt``: ``polibench leaderboard verify`` of the entries folder;
- ``site/``: ``polibench leaderboard build --no-verify`` of the entries (and the fairness submissions; verify.txt
  holds the verification), with the build time blanked (the one thing that changes between two builds).

Then ``diff -r BEFORE AFTER`` lists what changed; an empty diff is the proof. PNG figures are left out (their bytes
depend on the matplotlib build); their SVG twins are compared instead, with matplotlib's random ids numbered
in order. Usage, from a checkout's root:

    python tools/dump_numbers.py OUT [--entries leaderboard/entries] [--only NAME]
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import io
import re
import sys
from pathlib import Path

STAMP = re.compile(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC")
SVG_ID = re.compile(r"\b[a-z][0-9a-f]{10}\b")  # matplotlib's random ids in an SVG (clip paths, markers)


def stable_svg(path: Path) -> None:
    """Number the SVG's random ids in order of appearance, so two drawings of one figure compare equal."""
    names: dict[str, str] = {}
    text = path.read_text(encoding="utf-8")
    path.write_text(SVG_ID.sub(lambda m: names.setdefault(m.group(0), f"id{len(names)}"), text), encoding="utf-8")


def polibench(*args: str) -> tuple[int, str]:
    """Run ``polibench ARGS`` in this process (no interpreter start per entry); its exit code and what it printed."""
    from polibench.cli.main import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            code = main(list(args))
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
    return int(code or 0), out.getvalue()


def roundtrip(samples: Path) -> str:
    """Whether each line of ``samples`` reads as a Sample and writes back to the same bytes (first difference)."""
    from polibench.records import Sample

    lines = samples.read_bytes().split(b"\n")
    for number, line in enumerate(lines, 1):
        if line and Sample.model_validate_json(line).model_dump_json().encode() != line:
            return f"line {number} differs after reading and writing it back\n"
    return f"{sum(1 for line in lines if line)} lines read and written back byte for byte\n"


def dump_entry(entry: Path, out: Path) -> None:
    name = entry.name[: -len(".json")]
    run = out / "entries" / name
    run.mkdir(parents=True)
    for kind in ("samples.jsonl", "results.json"):
        packed = entry.parent / f"{name}.{kind}.gz"
        if not packed.is_file():
            (run / "missing.txt").write_text(f"{packed.name} is not shipped\n")
            return
        (run / kind).write_bytes(gzip.decompress(packed.read_bytes()))
    (run / "samples_roundtrip.txt").write_text(roundtrip(run / "samples.jsonl"))
    code, text = polibench("score", str(run), "--check")
    (run / "check.txt").write_text(f"exit {code}\n{text.replace(str(run), 'RUN')}")
    code, text = polibench("score", str(run))
    (run / "score.txt").write_text(f"exit {code}\n{text.replace(str(run), 'RUN')}")
    for png in run.glob("*.png"):
        png.unlink()
    for svg in run.glob("*.svg"):
        stable_svg(svg)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="a new folder for this checkout's dump")
    parser.add_argument("--entries", type=Path, default=Path("leaderboard/entries"))
    parser.add_argument("--fairness", type=Path, default=Path("leaderboard/fairness"))
    parser.add_argument("--only", help="dump only the entries whose file name contains this")
    args = parser.parse_args(argv)
    if args.out.exists():
        parser.error(f"{args.out} exists; give a new folder")
    args.out.mkdir(parents=True)
    (args.out / "list.txt").write_text(polibench("list")[1])
    entries = sorted(args.entries.glob("*.json"))
    for entry in entries:
        if args.only is None or args.only in entry.name:
            print(f"dump_numbers: {entry.name}", file=sys.stderr, flush=True)
            dump_entry(entry, args.out)
    if args.only is None:
        code, text = polibench("leaderboard", "verify", "--entries", str(args.entries))
        (args.out / "verify.txt").write_text(f"exit {code}\n{text}")
        site = args.out / "site"
        extra = ["--fairness", str(args.fairness)] if args.fairness.is_dir() else []
        code, text = polibench("leaderboard", "build", "--entries", str(args.entries), "--output", str(site), *extra,
                               "--no-verify")  # verify.txt holds the verdict: recomputing every entry twice is slow
        (args.out / "build.txt").write_text(f"exit {code}\n{text.replace(str(site), 'SITE')}")
        for path in site.rglob("*"):
            if path.suffix in (".html", ".json") and path.is_file():
                path.write_text(STAMP.sub("YYYY-MM-DD HH:MM UTC", path.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"dump_numbers: wrote {args.out}; compare two dumps with: diff -r BEFORE AFTER", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
