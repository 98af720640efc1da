"""Shared pieces of the fuzz tests: reproducible hypothesis settings, an in-process CLI runner, and the
bad-input contract (one ``polibench: error:`` message naming the file, exit code 2, no traceback, nothing
half-written)."""

from __future__ import annotations

import contextlib
import io
import os
from pathlib import Path

from hypothesis import HealthCheck, settings

from polibench.cli.main import main

# derandomize: the same examples on every machine, so CI is reproducible; few examples keep the suite fast.
FUZZ = settings(max_examples=25, deadline=None, derandomize=True, database=None,
                suppress_health_check=list(HealthCheck))
FEW = settings(FUZZ, max_examples=10)  # for examples that run the whole CLI


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    """``polibench ARGV`` in-process: (exit code, stdout, stderr). Any exception other than the CLI's own
    handling escapes and fails the test, which is what a traceback for the user would be."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in argv])
    return code, out.getvalue(), err.getvalue()


def assert_user_error(code: int, err: str, *names: str, codes=(2,)) -> None:
    """The contract for bad input: exit code 2 (or one of ``codes``), one ``polibench: error:`` message that
    names each of ``names`` (a file, a field), and no traceback."""
    assert code in codes, f"exit code {code}, stderr: {err!r}"
    assert "Traceback" not in err
    assert err.count("polibench: error:") == 1, err
    for name in names:
        assert str(name) in err, f"{name!r} not named in {err!r}"


def snapshot(folder: Path) -> dict[str, float]:
    """Every file under ``folder`` with its size and modification time, to show that nothing was written."""
    found = {}
    for root, _, files in os.walk(folder):
        for name in files:
            path = Path(root) / name
            stat = path.stat()
            found[str(path.relative_to(folder))] = (stat.st_size, stat.st_mtime_ns)
    return found
