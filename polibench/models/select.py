"""Choose a backend from ``--model``/``--backend``/``--base-url`` the way a user expects.

- ``--base-url`` without ``--backend``: ``openai`` (any OpenAI-compatible server);
- no ``--model``: the embedded SmolLM2 GGUF, on ``llamacpp`` when llama-cpp-python is installed, else ``hf``
  (only for those two backends: ``openai``, ``vllm``, ``mlm`` and ``lm-eval`` get no default model);
- a ``.gguf`` file: ``llamacpp`` when installed, else ``hf``;
- anything else (hub id or folder): ``vllm`` when that backend is registered, importable and a GPU is
  present, else ``hf``.
"""

from __future__ import annotations

import importlib.util
from typing import Optional

from polibench.models.embedded import embedded_gguf_path
from polibench.models.registry import BACKENDS

# Backends that can run the embedded GGUF when no --model is given.
EMBEDDED_CAPABLE = ("llamacpp", "hf")


def has_module(name: str) -> bool:
    return importlib.util.find_spec(name) is not None


def gpu_present() -> bool:
    if not has_module("torch"):
        return False
    import torch

    return torch.cuda.is_available()


def choose(model: Optional[str], backend: Optional[str],
           base_url: Optional[str] = None) -> tuple[str, Optional[str], bool]:
    """Return ``(backend, model, is_embedded)``."""
    if backend is None and base_url:
        backend = "openai"
    if backend and backend not in EMBEDDED_CAPABLE:
        return backend, model, False
    embedded = model is None
    if embedded:
        model = str(embedded_gguf_path())
    if backend:
        return backend, model, embedded
    if model.endswith(".gguf"):
        return ("llamacpp" if has_module("llama_cpp") else "hf"), model, embedded
    if "vllm" in BACKENDS and has_module("vllm") and gpu_present():
        return "vllm", model, embedded
    return "hf", model, embedded
