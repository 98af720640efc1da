"""Several OpenAI-compatible servers of one model, used as one (the ``openai`` backend's ``base_url=URL1|URL2``).

Each request goes to the least-loaded server in rotation: the fewest requests in flight, then the fewest sent
so far, then the first given. A server whose request fails in a way that may pass (a refused or dropped
connection, a timeout, 429, 5xx, a malformed reply) is taken out of rotation for an exponential backoff that
grows with its consecutive failures (:class:`~polibench.models.retry.RetryPolicy`, or the server's
``Retry-After``); the failed request goes at once to another server. When its backoff has passed, the server
is tried again with one request at a time until one succeeds, which puts it back in full rotation.

The request body does not depend on the server, so a response depends only on its prompt and seed (given
servers that serve the same model and honour ``seed``).
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass
from typing import Any, Optional

from polibench.models.retry import RetryPolicy


@dataclass
class Server:
    url: str  # may carry credentials: used for requests only
    shown: str  # the URL without credentials (messages, results)
    client: Any = None
    in_flight: int = 0
    sent: int = 0
    failures: int = 0  # consecutive
    down_until: float = 0.0
    times_out: int = 0  # how often it was taken out of rotation

    def available(self, now: float) -> bool:
        """In rotation: its backoff has passed, and while on probation (after a failure) one request at a time."""
        return self.down_until <= now and (self.failures == 0 or self.in_flight == 0)


class ServerPool:
    """Pick, count and take out of rotation; all from one event loop (no locks needed)."""

    def __init__(self, servers: list[Server], policy: RetryPolicy, rng: Optional[random.Random] = None):
        self.servers = servers
        self.policy = policy
        self.rng = rng or random.Random(0)

    def pick(self, now: float) -> Optional[Server]:
        ready = [s for s in self.servers if s.available(now)]
        if not ready:
            return None
        return min(ready, key=lambda s: (s.in_flight, s.sent, self.servers.index(s)))

    async def acquire(self) -> Server:
        """The least-loaded server in rotation, counted as in flight; waits while none is."""
        while True:
            now = time.monotonic()
            server = self.pick(now)
            if server is not None:
                server.in_flight += 1
                server.sent += 1
                return server
            soonest = min(s.down_until for s in self.servers)
            await asyncio.sleep(max(0.005, soonest - now))

    def release(self, server: Server, ok: bool, retry_after: Optional[float] = None) -> None:
        server.in_flight -= 1
        if ok:
            server.failures = 0
            return
        delay = self.policy.delay(server.failures, retry_after, self.rng)
        server.failures += 1
        server.times_out += 1
        server.down_until = max(server.down_until, time.monotonic() + delay)

    def summary(self) -> str:
        return ", ".join(f"{s.shown} x{s.sent}" + (f" (out of rotation {s.times_out}x)" if s.times_out else "")
                         for s in self.servers)
