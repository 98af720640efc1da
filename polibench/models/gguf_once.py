"""Read a GGUF file once while transformers loads a model and its tokenizer from it.

``from_pretrained(..., gguf_file=...)`` parses the whole file (header and every metadata field: the 49,152-token
vocabulary and its merges for SmolLM2) once for the config, once for the tokenizer and once for the weights, and
rebuilds gguf's tensor-name table for every submodule of the model (hundreds of times). For the embedded
SmolLM2-135M that was about 20 of the 22 seconds a load took on 2 CPU cores. Inside :func:`gguf_read_once`,
``gguf.GGUFReader`` on a file opened read-only returns the reader already made for that file (same path, size and
modification time) and ``gguf.get_tensor_name_map`` returns the table already made for that architecture and
depth. Both are read, never changed, by transformers, so what is loaded is the same; the originals are put back
on leaving the block. transformers imports both names from ``gguf`` at each call, which is what this relies on.
"""

from __future__ import annotations

import functools
import os
import threading
from contextlib import contextmanager
from typing import Iterator

_LOADING = threading.Lock()  # one block at a time: two overlapping blocks would put back each other's stand-ins


@contextmanager
def gguf_read_once() -> Iterator[None]:
    """Within the block, each GGUF file is parsed once and each tensor-name table built once (see the module
    docstring); a reader opened for writing is never shared."""
    import gguf

    readers: dict[tuple, object] = {}

    def reader(path, mode="r"):
        if mode != "r":
            return original_reader(path, mode)
        info = os.stat(path)
        key = (os.path.realpath(path), info.st_size, info.st_mtime_ns)
        if key not in readers:
            readers[key] = original_reader(path, mode)
        return readers[key]

    with _LOADING:
        original_reader, original_map = gguf.GGUFReader, gguf.get_tensor_name_map
        gguf.GGUFReader = reader
        gguf.get_tensor_name_map = functools.lru_cache(maxsize=None)(original_map)
        try:
            yield
        finally:
            gguf.GGUFReader, gguf.get_tensor_name_map = original_reader, original_map
