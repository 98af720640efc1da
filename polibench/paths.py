"""Where polibench finds its built-in task files and keeps its caches."""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_cache_dir

PACKAGE_DIR = Path(__file__).resolve().parent


def builtin_tasks_dir() -> Path:
    """The ``tasks/`` folder of a source checkout, or the copy shipped inside a built wheel."""
    for candidate in (PACKAGE_DIR.parent / "tasks", PACKAGE_DIR / "builtin_tasks"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("polibench's built-in tasks/ folder is missing from this installation")


def cache_dir() -> Path:
    """Root of polibench's caches: ``$POLIBENCH_CACHE`` or the platform's user cache directory."""
    root = os.environ.get("POLIBENCH_CACHE") or user_cache_dir("polibench")
    path = Path(root)
    path.mkdir(parents=True, exist_ok=True)
    return path
