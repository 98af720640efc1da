"""Install packages into this interpreter's venv with uv when the venv has it, else with pip.

A warm `make install` spent about a minute (52 to 79 s on a quiet 2-core machine, 100 s under load) in pip:
resolving against the indexes one package at a time, then unpacking torch and some 60 other wheels. uv
(https://docs.astral.sh/uv/, installed into the venv by `make install`) resolves in parallel and installs from
its cache by linking files, so the same install takes seconds. pip stays the fallback: with
``POLIBENCH_INSTALLER=pip`` (`make install INSTALLER=pip`), or when the venv has no uv.

uv reads none of pip's configuration, and a machine that installs from a mirror, a local wheel folder or with
a constraint file has that in pip's config files or ``PIP_*`` variables. So this script asks pip
(``pip config list``) and passes the same sources on: ``index-url``, ``extra-index-url``, ``find-links``,
``constraint``, ``no-index``, and ``cert`` as ``SSL_CERT_FILE``. A local location that does not exist is left
out (pip ignores it with a warning; uv would fail). uv is told to pick the best version across all indexes, as
pip does (``--index-strategy unsafe-best-match``), rather than the first index that has the package. Standard
library only: it runs before polibench is installed.

    python tools/install/installer.py --quiet torch==2.13.0     # uv pip install ..., or pip install ...
    python tools/install/installer.py --show                     # which installer, and uv's flags from pip's config
"""

from __future__ import annotations

import importlib.util
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Mapping, Optional, Sequence
from urllib.parse import unquote, urlparse

# pip's option -> uv's flag; values are whitespace-separated lists in pip's config
LISTS = {"index-url": "--index-url", "extra-index-url": "--extra-index-url", "find-links": "--find-links",
         "constraint": "--constraint"}


def pip_config(listing: str) -> dict[str, str]:
    """``pip config list`` output -> option -> value. A ``PIP_*`` variable (``:env:``) overrides the config files,
    and within the files the ``install`` section overrides ``global``."""
    rank = {":env:": 2, "install": 1, "global": 0}
    found: dict[str, tuple[int, str]] = {}
    for line in listing.splitlines():
        name, sep, value = line.partition("=")
        section, dot, option = name.strip().rpartition(".")
        if not sep or not dot or section not in rank:
            continue
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        if option not in found or rank[section] >= found[option][0]:
            found[option] = (rank[section], value)
    return {option: value for option, (_, value) in found.items()}


def reachable(location: str) -> bool:
    """False for a local folder or file (a path or a file:// URL) that does not exist."""
    parsed = urlparse(location)
    if parsed.scheme in ("http", "https"):
        return True
    path = unquote(parsed.path) if parsed.scheme == "file" else location
    return Path(path).expanduser().exists()


def uv_flags(config: Mapping[str, str], args: Sequence[str] = ()) -> list[str]:
    """uv's flags for the sources pip is configured with (see the module docstring); an index URL given in
    ``args`` (``--index-url``/``-i``, e.g. ``TORCH_PIP_ARGS``) replaces the configured one, as in pip."""
    flags = ["--index-strategy", "unsafe-best-match"]
    given = any(arg in ("-i", "--index-url") or arg.startswith("--index-url=") for arg in args)
    for option, flag in LISTS.items():
        if option == "index-url" and given:
            continue
        for value in config.get(option, "").split():
            if reachable(value):
                flags += [flag, value]
    if config.get("no-index", "").lower() in ("1", "true", "yes", "on"):
        flags.append("--no-index")
    return flags


def has_uv() -> bool:
    return importlib.util.find_spec("uv") is not None


def command(args: Sequence[str], env: Mapping[str, str] = os.environ) -> tuple[list[str], dict[str, str]]:
    """The install command for ``args`` (pip install's arguments) and the variables to add to its environment."""
    if env.get("POLIBENCH_INSTALLER", "uv") == "pip" or not has_uv():
        return [sys.executable, "-m", "pip", "install", *args], {}
    listing = subprocess.run([sys.executable, "-m", "pip", "config", "list"], capture_output=True, text=True,
                             check=False).stdout
    config = pip_config(listing)
    from uv import find_uv_bin  # the uv package's own way to its binary

    extra = {}
    if config.get("cert") and not env.get("SSL_CERT_FILE") and reachable(config["cert"]):
        extra["SSL_CERT_FILE"] = config["cert"]
    return [find_uv_bin(), "pip", "install", "--python", sys.executable, *uv_flags(config, args), *args], extra


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args == ["--show"]:
        line, extra = command(["..."])
        print(" ".join(shlex.quote(part) for part in line), *(f"({k}={v})" for k, v in extra.items()))
        return 0
    line, extra = command(args)
    return subprocess.run(line, env={**os.environ, **extra}, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
