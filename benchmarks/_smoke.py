"""What the benchmark scripts' ``--smoke`` sizes share (a helper, not a benchmark: the smoke test skips names
starting with ``_``)."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Callable


def write_into_scratch(write: Callable[[Path, Path], None], source: Path, shipped: Path) -> None:
    """Run a task writer ``write(source, out)`` into a scratch folder and say how many of the files it wrote are
    identical to the shipped ones in ``shipped``."""
    with tempfile.TemporaryDirectory() as scratch:
        write(source, Path(scratch))
        written = sorted(Path(scratch).iterdir())
        same = sum(p.read_bytes() == (shipped / p.name).read_bytes() for p in written if (shipped / p.name).is_file())
        print(f"smoke: wrote {len(written)} files to a scratch folder; {same} identical to {shipped}")


def task_writer_cli(write: Callable[..., None], default_source: str, shipped: Path) -> None:
    """``SCRIPT [SOURCE] [--smoke]``: write the task files into ``shipped``, or with --smoke into a scratch folder."""
    args = [a for a in sys.argv[1:] if a != "--smoke"]
    source = Path(args[0] if args else default_source)
    if "--smoke" in sys.argv[1:]:
        write_into_scratch(write, source, shipped)
    else:
        write(source)
