"""Shared fixtures: quiet tokenizers, one torch thread (the CI machine has two cores)."""

import os

import pytest

os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


@pytest.fixture(scope="session")
def embedded_gguf():
    from polibench.models.embedded import embedded_gguf_path

    return embedded_gguf_path()
