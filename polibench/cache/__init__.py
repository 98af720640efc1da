"""A response cache keyed by model identity, generation settings, prompt and sample seed.

:class:`CachingBackend` wraps any backend: every response is written to SQLite as soon as the backend returns
it, so an interrupted run resumes where it stopped and a finished run re-runs with zero model calls. See
docs/backends.md ("Cache and resume"). The cache depends on the models layer, never the other way round.
"""

from polibench.cache.caching_backend import CachingBackend
from polibench.cache.keys import request_key
from polibench.cache.store import ResponseCache, default_cache_path
from polibench.models.identity import model_identity

__all__ = ["CachingBackend", "ResponseCache", "default_cache_path", "model_identity", "request_key"]
