"""Compatibility re-export: backend identities now live in :mod:`polibench.models.identity`."""

from polibench.models.identity import default_identity, folder_fingerprint, model_fingerprint, model_identity

__all__ = ["default_identity", "folder_fingerprint", "model_fingerprint", "model_identity"]
