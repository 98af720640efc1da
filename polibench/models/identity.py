"""A backend's identity: what makes two backends give the same responses to the same request.

The response cache (:mod:`polibench.cache`) keys responses by it. ``ModelBackend.cache_identity()``
returns :func:`default_identity` unless a backend overrides it; the default derives one from
``describe()`` (backend name, model, its arguments, file hashes). A local model folder adds a cheap
fingerprint of its files, so that a folder re-trained in place does not serve stale responses. A hub id
is identified by its name and ``revision`` (default ``main``): pass ``revision=<commit>`` in
``--model-args`` to pin it.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Optional

# Files this small are hashed whole in a folder fingerprint (configs, tokenizers); larger ones by name+size.
SMALL_FILE = 1 << 20


def folder_fingerprint(path: Path) -> str:
    """SHA-256 over every file's relative name and size, plus the content of small files."""
    digest = hashlib.sha256()
    for file in sorted(p for p in path.rglob("*") if p.is_file()):
        rel = file.relative_to(path).as_posix()
        if rel.startswith(".") or "/." in rel:
            continue
        size = file.stat().st_size
        digest.update(f"{rel}\0{size}\0".encode())
        if size <= SMALL_FILE:
            digest.update(file.read_bytes())
    return digest.hexdigest()


def model_fingerprint(model: Optional[str]) -> Optional[str]:
    """A fingerprint for a local folder, else None (hub ids are identified by name and revision)."""
    if model and Path(model).is_dir():
        return folder_fingerprint(Path(model))
    return None


def default_identity(backend) -> dict:
    info = json.loads(json.dumps(backend.describe(), default=str))
    info.pop("warnings", None)  # words for the reader; they do not change a response
    has_file_hash = any(key.endswith("sha256") for key in info)
    if has_file_hash and info.get("model"):
        # The file hash identifies the weights; the path (which moves with the venv) does not matter.
        info["model"] = Path(str(info["model"])).name
    else:
        fingerprint = model_fingerprint(backend.model)
        if fingerprint:
            info["folder_sha256"] = fingerprint
            info["model"] = Path(str(info["model"])).name
    return info


def model_identity(backend) -> dict:
    """The backend's identity dict (never contains secrets: API keys are not part of any backend's identity)."""
    return backend.cache_identity()
