"""Compile llama.cpp once per machine: `make install` installs llama-cpp-python through this script.

llama-cpp-python compiles llama.cpp when it installs (about 7 minutes on 2 cores). pip's own wheel cache
ignores ``CMAKE_ARGS`` (a wheel built with other flags would be reused), so `make install` used to skip it
and compile again in every fresh venv. This script keeps the wheel it builds in a folder of its own, one
subfolder per key: the requirement (name and version), the exact CMake flags, the Python tag and the
platform. The same key installs from there in seconds; any other key compiles anew and keeps that wheel too.

The folder: ``$POLIBENCH_WHEEL_CACHE``, else ``$POLIBENCH_CACHE/wheels``, else
``$XDG_CACHE_HOME/polibench/wheels``, else ``~/.cache/polibench/wheels``. Standard library only: it runs
with the new venv's interpreter before polibench is installed.

    python tools/install/llama_wheel.py install --spec llama-cpp-python==0.3.36 --cmake-args "-DGGML_NATIVE=OFF"
    python tools/install/llama_wheel.py where    # the cache folder
    python tools/install/llama_wheel.py clean    # empty it (`make clean-wheels`)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path
from typing import Callable, Mapping, Optional, Sequence

KEY_FILE = "key.json"
Runner = Callable[[Sequence[str], Mapping[str, str]], None]


def wheel_cache_dir(env: Mapping[str, str] = os.environ) -> Path:
    """The folder that keeps the built wheels (see the module docstring); empty variables count as unset."""
    if env.get("POLIBENCH_WHEEL_CACHE"):
        return Path(env["POLIBENCH_WHEEL_CACHE"]).expanduser()
    if env.get("POLIBENCH_CACHE"):
        return Path(env["POLIBENCH_CACHE"]).expanduser() / "wheels"
    base = Path(env["XDG_CACHE_HOME"]).expanduser() if env.get("XDG_CACHE_HOME") else Path.home() / ".cache"
    return base / "polibench" / "wheels"


def key_inputs(spec: str, cmake_args: str) -> dict[str, str]:
    """What a built wheel depends on: the requirement, the CMake flags (whitespace runs collapsed, order kept:
    a later flag overrides an earlier one), this interpreter's tag and this platform."""
    return {"spec": spec.strip(), "cmake_args": " ".join(cmake_args.split()),
            "python": sys.implementation.cache_tag or sys.implementation.name, "platform": sysconfig.get_platform()}


def key_folder(cache: Path, inputs: Mapping[str, str]) -> Path:
    """``<cache>/<readable requirement>-<first 16 hex digits of the inputs' sha256>``."""
    digest = hashlib.sha256(json.dumps(dict(inputs), sort_keys=True).encode("utf-8")).hexdigest()[:16]
    readable = re.sub(r"[^A-Za-z0-9.]+", "-", inputs["spec"]).strip("-") or "wheel"
    return cache / f"{readable}-{digest}"


def cached_wheel(folder: Path, inputs: Mapping[str, str]) -> Optional[Path]:
    """The wheel kept in ``folder`` when the folder records exactly these inputs and holds one wheel."""
    try:
        recorded = json.loads((folder / KEY_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    wheels = sorted(folder.glob("*.whl"))
    if recorded.get("inputs") != dict(inputs) or len(wheels) != 1:
        return None
    return wheels[0]


def pip(args: Sequence[str], extra_env: Mapping[str, str]) -> None:
    """Run this interpreter's pip (``pip install`` through installer.py: uv when the venv has it); a failure stops
    the install with the installer's exit code."""
    if args[0] == "install":
        line = [sys.executable, str(Path(__file__).with_name("installer.py")), *args[1:]]
    else:
        line = [sys.executable, "-m", "pip", *args]
    done = subprocess.run(line, env={**os.environ, **extra_env})
    if done.returncode != 0:
        raise SystemExit(done.returncode)


def build_wheel(folder: Path, inputs: Mapping[str, str], run: Runner = pip) -> Path:
    """Compile the wheel into a temporary folder beside ``folder``, record its inputs, then move it into place
    (a concurrent install that finished first wins; its wheel is used)."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = folder.parent / f".{folder.name}.building-{os.getpid()}"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir()
    try:
        # --no-cache-dir: pip's own cache could hand back a wheel built with other CMake flags
        run(["wheel", "--quiet", "--no-deps", "--no-cache-dir", "--wheel-dir", str(staging), inputs["spec"]],
            {"CMAKE_ARGS": inputs["cmake_args"]})
        wheels = list(staging.glob("*.whl"))
        if len(wheels) != 1:
            raise SystemExit(f"llama_wheel: expected one wheel from pip in {staging}, found {len(wheels)}")
        record = {"inputs": dict(inputs), "built": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())}
        (staging / KEY_FILE).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
        if folder.exists() and cached_wheel(folder, inputs) is None:
            shutil.rmtree(folder)  # a half-kept or mismatched folder (its record is not these inputs)
        try:
            staging.rename(folder)
        except OSError:
            if cached_wheel(folder, inputs) is None:
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    found = cached_wheel(folder, inputs)
    assert found is not None, folder
    return found


def install(spec: str, cmake_args: str, cache: Path, run: Runner = pip, say: Callable[[str], None] = print) -> bool:
    """Install ``spec`` built with ``cmake_args`` from the wheel cache, compiling it first when the cache has no
    wheel for this key. Returns whether it compiled."""
    inputs = key_inputs(spec, cmake_args)
    folder = key_folder(cache, inputs)
    wheel = cached_wheel(folder, inputs)
    compiled = wheel is None
    if wheel is None:
        say(f"compiling {inputs['spec']} with CMAKE_ARGS='{inputs['cmake_args']}' (about 7 minutes on 2 cores); "
            f"the wheel is kept in {folder} for the next venv on this machine")
        wheel = build_wheel(folder, inputs, run)
    else:
        say(f"installing {inputs['spec']} from the wheel compiled earlier with the same CMake flags: {wheel} "
            "(`make clean-wheels` empties the wheel cache)")
    run(["install", "--quiet", str(wheel)], {})
    return compiled


def clean(cache: Path, say: Callable[[str], None] = print) -> None:
    """Remove every kept wheel (the folder itself goes; the next install compiles)."""
    if cache.exists():
        shutil.rmtree(cache)
        say(f"removed {cache}")
    else:
        say(f"{cache} does not exist: nothing to remove")


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    do_install = sub.add_parser("install", help="install from the wheel cache, compiling first if needed")
    do_install.add_argument("--spec", required=True, help="the requirement, e.g. llama-cpp-python==0.3.36")
    do_install.add_argument("--cmake-args", default="", help="the CMake flags (CMAKE_ARGS) to compile with")
    sub.add_parser("where", help="print the wheel cache folder")
    sub.add_parser("clean", help="empty the wheel cache")
    args = parser.parse_args(argv)
    cache = wheel_cache_dir()
    if args.command == "install":
        install(args.spec, args.cmake_args, cache)
    elif args.command == "clean":
        clean(cache)
    else:
        print(cache)
    return 0


if __name__ == "__main__":
    sys.exit(main())
