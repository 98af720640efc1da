"""Model backends behind one small interface (:class:`~polibench.models.base.ModelBackend`)."""

from polibench.models.base import GENERATE, SCORE_CHOICES, ModelBackend, UnsupportedCapability
from polibench.models.registry import BACKENDS, create_backend, register_backend
from polibench.records import Completion, Prompt

__all__ = ["BACKENDS", "GENERATE", "SCORE_CHOICES", "Completion", "ModelBackend", "Prompt", "UnsupportedCapability",
           "create_backend", "register_backend"]
