"""Retry policy for API backends: exponential backoff with jitter that honours ``Retry-After``.

``delay(attempt)`` grows as ``base * 2**attempt`` up to ``max_delay``, and a random half of it is jitter
("equal jitter"), so many clients rate-limited at once do not come back in lockstep. When the server says
how long to wait (``Retry-After`` in seconds or as an HTTP date, or OpenAI's ``retry-after-ms``), the
client waits that long plus up to 10% jitter (never less), capped at ``max_retry_after``.
"""

from __future__ import annotations

import datetime as _dt
import random
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Mapping, Optional

RETRYABLE_STATUS = {408, 409, 425, 429}  # plus every 5xx


def retryable_status(status: int) -> bool:
    return status in RETRYABLE_STATUS or status >= 500


def parse_retry_after(headers: Optional[Mapping[str, str]]) -> Optional[float]:
    """Seconds to wait according to the response headers, or None when they do not say."""
    if not headers:
        return None
    value = headers.get("retry-after-ms")
    if value:
        try:
            return max(0.0, float(value) / 1000.0)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=_dt.timezone.utc)
    return max(0.0, (when - _dt.datetime.now(_dt.timezone.utc)).total_seconds())


@dataclass
class RetryPolicy:
    max_retries: int = 8
    base_delay: float = 1.0
    max_delay: float = 60.0
    max_retry_after: float = 600.0

    def delay(self, attempt: int, retry_after: Optional[float], rng: random.Random) -> float:
        """Seconds to sleep before retry number ``attempt + 1`` (``attempt`` counts from 0)."""
        if retry_after is not None:
            return min(retry_after + rng.uniform(0, 0.1 * retry_after), self.max_retry_after)
        cap = min(self.max_delay, self.base_delay * (2 ** attempt))
        return cap / 2 + rng.uniform(0, cap / 2)
