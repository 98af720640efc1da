"""Checks that a transformers checkpoint can be loaded, without loading its weights (for scorer preflight).

:func:`checkpoint_config` answers within seconds, before any model call: it finds the checkpoint's
config, tokenizer and weights files in a local folder or in the Hugging Face cache, reads the config and
the tokenizer (small files) and returns the config, whose ``id2label`` the scorers compare with the task's
labels. A hub id that is not cached is fetched (config and tokenizer only) when the hub can be reached;
with ``HF_HUB_OFFLINE=1`` (or ``TRANSFORMERS_OFFLINE=1``), or when the hub endpoint does not answer a TCP
connection, it is one clear error instead of transformers' half-minute of retries.
:func:`quiet_transformers` and :func:`check_device` are shared by the scorers that load such checkpoints.
"""

from __future__ import annotations

import os
import re
import socket
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

from polibench.errors import PolibenchError
from polibench.kit.training import quiet_transformers  # noqa: F401 - scoring's scorers use it from here

WEIGHT_FILES = ("model.safetensors", "model.safetensors.index.json", "pytorch_model.bin",
                "pytorch_model.bin.index.json")
DEVICE_PATTERN = re.compile(r"^(auto|cpu|mps|cuda(:\d+)?)$")


def hub_offline() -> bool:
    """True when the Hugging Face hub must not be contacted (``HF_HUB_OFFLINE`` / ``TRANSFORMERS_OFFLINE``)."""
    from huggingface_hub import constants

    flags = (os.environ.get("HF_HUB_OFFLINE", ""), os.environ.get("TRANSFORMERS_OFFLINE", ""))
    return bool(constants.HF_HUB_OFFLINE) or any(f.strip().lower() in ("1", "true", "yes", "on") for f in flags)


def hub_reachable(timeout: float = 3.0) -> bool:
    """Whether the hub endpoint accepts a TCP connection (assumed yes behind a proxy, which we cannot probe)."""
    from huggingface_hub import constants

    parts = urlsplit(constants.ENDPOINT)
    host, scheme = parts.hostname or "", parts.scheme or "https"
    proxies = urllib.request.getproxies()
    if proxies.get(scheme) and not urllib.request.proxy_bypass(host):
        return True
    try:
        socket.create_connection((host, parts.port or (443 if scheme == "https" else 80)), timeout=timeout).close()
        return True
    except OSError:
        return False


def is_repo_id(name: str) -> bool:
    from huggingface_hub.utils import HFValidationError, validate_repo_id

    try:
        validate_repo_id(name)
    except HFValidationError:
        return False
    return True


def _cached(repo_id: str, filename: str) -> bool:
    from huggingface_hub import try_to_load_from_cache

    return isinstance(try_to_load_from_cache(repo_id, filename), str)


def checkpoint_config(path: str, who: str):
    """The transformers config of checkpoint ``path`` (a local folder or a hub id), after checking that its
    config, tokenizer and weights can be found; ``who`` names the scorer in the error message."""
    from transformers import AutoConfig, AutoTokenizer

    folder = Path(path).expanduser()
    local_only = False
    if folder.is_dir():
        if not (folder / "config.json").is_file():
            raise PolibenchError(f"{who}: '{path}' is a folder without config.json (not a transformers checkpoint)")
        if not any((folder / name).is_file() for name in WEIGHT_FILES):
            raise PolibenchError(f"{who}: '{path}' has no weights file (expected one of {', '.join(WEIGHT_FILES)})")
        path = str(folder)
    elif not is_repo_id(path):
        raise PolibenchError(f"{who}: no such checkpoint folder '{path}'")
    else:
        offline = hub_offline()
        if _cached(path, "config.json"):
            local_only = True
            if not any(_cached(path, name) for name in WEIGHT_FILES) and (offline or not hub_reachable()):
                raise PolibenchError(f"{who}: the weights of '{path}' are not in the Hugging Face cache and the "
                                     f"hub {'is switched off (HF_HUB_OFFLINE)' if offline else 'cannot be reached'}")
        elif offline or not hub_reachable():
            why = "HF_HUB_OFFLINE is set" if offline else "the Hugging Face hub cannot be reached"
            raise PolibenchError(f"{who}: '{path}' is neither a local folder nor in the Hugging Face cache, and {why}. "
                                 "Pass a local folder with --scorer-args model=PATH, or choose another --scorer")
    try:
        with quiet_transformers():
            config = AutoConfig.from_pretrained(path, local_files_only=local_only)
            AutoTokenizer.from_pretrained(path, local_files_only=local_only)
    except (OSError, ValueError, KeyError) as exc:
        raise PolibenchError(f"{who}: could not load '{path}' ({str(exc).splitlines()[0] if str(exc) else exc!r})") \
            from None
    return config


def check_device(device, who: str) -> None:
    """``device`` is ``auto``, ``cpu``, ``mps``, ``cuda`` or ``cuda:N``, and present on this machine."""
    if not isinstance(device, str) or not DEVICE_PATTERN.match(device):
        raise PolibenchError(f"{who}: device must be auto, cpu, cuda, cuda:N or mps (got {device!r})")
    if device in ("auto", "cpu"):
        return
    import torch

    if device == "mps":
        if not (getattr(torch.backends, "mps", None) and torch.backends.mps.is_available()):
            raise PolibenchError(f"{who}: device 'mps' is not available on this machine")
        return
    index = int(device.partition(":")[2] or 0)
    if not torch.cuda.is_available() or index >= torch.cuda.device_count():
        raise PolibenchError(f"{who}: device '{device}' is not available on this machine "
                             f"({torch.cuda.device_count()} CUDA devices)")
