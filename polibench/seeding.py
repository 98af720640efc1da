"""Seeds derived from a run seed and identifying parts: one neutral helper for every stage.

Request building seeds each sample from the run seed and the sample's identity; the metrics seed the
bootstrap from the run seed and the task name. Both use :func:`derive_seed`, so a recomputation in another
process (``polibench score``, ``leaderboard verify``) draws exactly the same numbers.
"""

from __future__ import annotations

import hashlib


def derive_seed(run_seed: int, *parts: object) -> int:
    """A stable 31-bit seed from the run seed and any identifying parts."""
    text = "\x1f".join([str(run_seed), *map(str, parts)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big") & 0x7FFFFFFF
