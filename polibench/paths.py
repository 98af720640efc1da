"""Where polibench finds its built-in task files and keeps its caches."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Optional

from platformdirs import user_cache_dir

from polibench.errors import PolibenchError

PACKAGE_DIR = Path(__file__).resolve().parent


def builtin_tasks_dir() -> Path:
    """The ``tasks/`` folder of a source checkout (editable install), or the copy a wheel installs under
    ``<prefix>/share/polibench/tasks``."""
    checkout = PACKAGE_DIR.parent
    if (checkout / "setup.cfg").is_file() and (checkout / "tasks").is_dir():
        return checkout / "tasks"
    installed = Path(sys.prefix) / "share" / "polibench" / "tasks"
    if installed.is_dir():
        return installed
    raise FileNotFoundError("polibench's built-in tasks/ folder is missing from this installation")


def cache_dir() -> Path:
    """Root of polibench's caches: ``$POLIBENCH_CACHE`` or the platform's user cache directory (created if
    missing; a folder that cannot be created is a user error, not a traceback)."""
    from_env = os.environ.get("POLIBENCH_CACHE")
    path = Path(from_env or user_cache_dir("polibench")).expanduser()
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        source = "POLIBENCH_CACHE" if from_env else "the platform's user cache folder"
        raise PolibenchError(f"polibench's cache folder {path} ({source}) cannot be created: "
                             f"{unwritable_reason(path) or exc.strerror or exc}; set POLIBENCH_CACHE to a "
                             "writable folder") from None
    return path


def require_writable_cache(folder: Path, what: str) -> None:
    """Stop with one message when ``what`` (a model trained on first use, e.g. "the offline stance scorer") could
    not be cached in ``folder``: checked before any model call, since training comes after generation."""
    problem = unwritable_reason(folder)
    if problem:
        raise PolibenchError(f"{what} is cached in {folder}, but {problem}; set POLIBENCH_CACHE to a writable folder")


def unwritable_reason(folder: Path) -> Optional[str]:
    """Why files cannot be created in ``folder`` (when it does not exist yet, in the nearest existing folder
    above it, where it would be made), or None when they can. Tries for real, with one temporary file that
    is removed at once (permission bits say nothing for root or on read-only mounts); creates no folder."""
    folder = Path(folder).expanduser().absolute()
    probe = folder
    while not probe.exists():
        if probe.parent == probe:
            return f"no existing folder above {folder}"
        probe = probe.parent
    if not probe.is_dir():
        return f"{probe} is a file, not a folder"
    try:
        with tempfile.TemporaryFile(dir=probe, prefix=".polibench-probe-"):
            pass
    except OSError as exc:
        return f"cannot create files in {probe} ({exc.strerror or exc})"
    return None
