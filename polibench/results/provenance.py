"""Facts about the software that produced a run: versions, git hash, date."""

from __future__ import annotations

import datetime as _dt
import platform
import subprocess
from importlib import metadata

from polibench import __version__
from polibench.paths import PACKAGE_DIR

TRACKED = ("torch", "transformers", "llama_cpp_python", "vllm", "openai", "pydantic", "numpy")


def git_hash() -> str | None:
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=PACKAGE_DIR.parent, capture_output=True,
                             text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


def package_versions() -> dict[str, str]:
    versions = {}
    for name in TRACKED:
        try:
            versions[name] = metadata.version(name.replace("_", "-"))
        except metadata.PackageNotFoundError:
            continue
    return versions


def provenance() -> dict:
    return {
        "polibench_version": __version__,
        "git_hash": git_hash(),
        "date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "packages": package_versions(),
    }
