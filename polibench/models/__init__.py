"""Model backends behind one small interface (:class:`~polibench.models.base.ModelBackend`)."""

from polibench.models.base import Completion, ModelBackend, Prompt
from polibench.models.registry import BACKENDS, create_backend, register_backend

__all__ = ["BACKENDS", "Completion", "ModelBackend", "Prompt", "create_backend", "register_backend"]
