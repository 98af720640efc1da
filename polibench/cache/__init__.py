"""A response cache keyed by model identity, generation settings, prompt and sample seed.

Every response is written to SQLite as soon as the backend returns it, so an interrupted run resumes where
it stopped and a finished run re-runs with zero model calls. See docs/backends.md ("Cache and resume").
"""

from polibench.cache.identity import model_identity
from polibench.cache.keys import request_key
from polibench.cache.store import ResponseCache, default_cache_path

__all__ = ["ResponseCache", "default_cache_path", "model_identity", "request_key"]
