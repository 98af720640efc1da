"""Shared settings: offline hub, quiet tokenizers, and one polibench cache folder per test session.

``POLIBENCH_CACHE`` is set at import time so that subprocesses inherit it: tests never write to the user's
cache, and the embedded stance classifier is trained at most once per session.
"""

import os
import tempfile

import pytest

os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("POLIBENCH_CACHE", tempfile.mkdtemp(prefix="polibench-test-cache-"))


@pytest.fixture(scope="session")
def embedded_gguf():
    from polibench.models.embedded import embedded_gguf_path

    return embedded_gguf_path()
