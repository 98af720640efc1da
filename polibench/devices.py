"""Which torch device to run on: one helper for every stage that loads a torch model (backends, scorers,
fairness training). torch is imported only when a device is actually picked."""

from __future__ import annotations


def pick_device(device: str) -> str:
    """``device`` itself, or for ``"auto"`` the best one present: CUDA, then Apple's MPS, then CPU."""
    if device != "auto":
        return device
    import torch

    if torch.cuda.is_available():
        return "cuda"
    if getattr(torch.backends, "mps", None) and torch.backends.mps.is_available():
        return "mps"
    return "cpu"
