"""Run Python scripts as ``python SCRIPT ARGS...`` would, each in a fork of one process that has already imported
the heavy packages (torch, transformers, polibench), so a script starts in milliseconds instead of paying seconds
of imports. tests/benchmarks/test_benchmarks_smoke.py runs every benchmark's ``--smoke`` size this way.

Each script gets a process of its own (a fork), so nothing one script changes (environment, ``sys.path``,
``sys.modules``, torch's thread count, the working folder) reaches another: the child starts from the parent's
state, which is a fresh interpreter plus the imports in :data:`PRELOAD` (no code of polibench runs in the
parent besides its imports). ``sys.path[0]`` is the script's folder, as for ``python SCRIPT``.

Protocol (``python tests/fork_runner.py``): one JSON request a line on stdin, ``{"script", "args", "cwd",
"env", "stdout", "stderr", "timeout"}``; one JSON reply a line on stdout, ``{"returncode", "seconds"}``. The
script's output goes to the files named in the request. A script killed for its timeout answers returncode -9.
"""

from __future__ import annotations

import atexit
import importlib
import json
import os
import runpy
import signal
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path

# imported once in the parent: what most benchmarks import (each is seconds on 2 cores). Nothing heavier
# (no Ray, no llama.cpp model, no thread pools): the parent must stay a single thread, so that forking it is safe.
PRELOAD = ("numpy", "torch", "transformers", "transformers.modeling_utils", "sklearn.linear_model",
           "matplotlib.pyplot", "polibench.cli.main", "polibench.models.hf", "polibench.scorers.stance.embedded",
           "polibench.taskspec.loader", "polibench.pipeline.plan", "polibench.models.llamacpp")


def _exit_code(exc: SystemExit) -> int:
    if exc.code is None:
        return 0
    if isinstance(exc.code, int):
        return exc.code
    print(exc.code, file=sys.stderr)
    return 1


def _child(request: dict) -> None:
    """In the forked child: become ``python SCRIPT ARGS...`` and exit with its status (never returns)."""
    code = 1
    try:
        os.setpgid(0, 0)  # its own process group, so a timeout also ends what the script started
        for name, fd in (("stdout", 1), ("stderr", 2)):
            target = os.open(request[name], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(target, fd)
            os.close(target)
        null = os.open(os.devnull, os.O_RDONLY)  # not the runner's request pipe, for the script nor its children
        os.dup2(null, 0)
        os.close(null)
        sys.stdin = open(0, closefd=False)
        os.chdir(request["cwd"])
        os.environ.update(request.get("env", {}))
        tempfile.tempdir = None  # read TMPDIR again
        script = str(Path(request["script"]).resolve())
        sys.argv = [script, *request["args"]]
        sys.path[0] = str(Path(script).parent)
        try:
            runpy.run_path(script, run_name="__main__")
            code = 0
        except SystemExit as exc:
            code = _exit_code(exc)
        atexit._run_exitfuncs()  # e.g. ray.shutdown, as at the end of an interpreter
    except BaseException:  # noqa: BLE001 - reported like an uncaught exception of `python SCRIPT`
        traceback.print_exc()
        code = 1
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:  # noqa: BLE001
                pass
        os._exit(code)


def _wait(pid: int, timeout: float) -> int:
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        if time.monotonic() > deadline:
            os.killpg(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return -9
        time.sleep(0.05)


def serve() -> None:
    os.environ.setdefault("MPLBACKEND", "Agg")
    for name in PRELOAD:
        importlib.import_module(name)
    if threading.active_count() != 1:
        raise SystemExit(f"fork_runner: the preloaded imports started threads ({threading.enumerate()})")
    for line in sys.stdin:
        request = json.loads(line)
        sys.stdout.flush()
        start = time.monotonic()
        pid = os.fork()
        if pid == 0:
            _child(request)
        returncode = _wait(pid, float(request.get("timeout", 600)))
        print(json.dumps({"returncode": returncode, "seconds": round(time.monotonic() - start, 2)}), flush=True)
    os._exit(0)  # stdin closed: no interpreter teardown of the preloaded packages (seconds)


if __name__ == "__main__":
    serve()
