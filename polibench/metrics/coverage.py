"""How much of a run produced usable answers: reported beside every result."""

from __future__ import annotations

from collections import Counter
from typing import Sequence

from polibench.records import Sample


def coverage(samples: Sequence[Sample], n_items: int) -> dict:
    kept = [s for s in samples if s.stance and s.stance.kept]
    reasons = Counter(s.stance.reason for s in samples if s.stance and not s.stance.kept)
    answered_items = {s.item_id for s in kept if s.stance.label in ("agree", "disagree", "neutral")}
    total = len(samples)
    return {
        "items": n_items,
        "items_answered": len(answered_items),
        "responses": total,
        "responses_kept": len(kept),
        "responses_filtered": total - len(kept),
        "filtered_low_confidence": reasons.get("low_confidence", 0),
        "filtered_abstained": reasons.get("abstained", 0),
        "filtered_empty": reasons.get("empty_response", 0),
        "kept_share": round(len(kept) / total, 4) if total else 0.0,
        "kept_labels": dict(sorted(Counter(s.stance.label for s in kept).items())),
    }
