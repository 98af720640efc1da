"""Find where two JSON-like trees differ, with a small tolerance for floats written and read back."""

from __future__ import annotations

import math
from typing import Any

REL_TOL = 1e-9
ABS_TOL = 1e-12


def _same_number(a: float, b: float) -> bool:
    if math.isnan(a) and math.isnan(b):
        return True
    return math.isclose(a, b, rel_tol=REL_TOL, abs_tol=ABS_TOL)


def differences(stored: Any, recomputed: Any, path: str = "") -> list[tuple[str, Any, Any]]:
    """Every ``(path, stored, recomputed)`` where the trees disagree; an empty list when they match."""
    numeric = (int, float)
    if isinstance(stored, numeric) and isinstance(recomputed, numeric) \
            and not isinstance(stored, bool) and not isinstance(recomputed, bool):
        return [] if _same_number(float(stored), float(recomputed)) else [(path, stored, recomputed)]
    if isinstance(stored, dict) and isinstance(recomputed, dict):
        out = []
        for key in list(stored) + [k for k in recomputed if k not in stored]:
            sub = f"{path}.{key}" if path else str(key)
            if key not in stored:
                out.append((sub, "(missing)", recomputed[key]))
            elif key not in recomputed:
                out.append((sub, stored[key], "(missing)"))
            else:
                out.extend(differences(stored[key], recomputed[key], sub))
        return out
    if isinstance(stored, (list, tuple)) and isinstance(recomputed, (list, tuple)):
        if len(stored) != len(recomputed):
            return [(path, f"{len(stored)} values", f"{len(recomputed)} values")]
        out = []
        for i, (a, b) in enumerate(zip(stored, recomputed)):
            out.extend(differences(a, b, f"{path}[{i}]"))
        return out
    return [] if stored == recomputed else [(path, stored, recomputed)]


def describe(diffs: list[tuple[str, Any, Any]], what: str = "stored", against: str = "recomputed",
             limit: int = 3) -> str:
    """``'t.block.value: stored 1.5, recomputed 0.38'`` for the first few differences."""
    shown = [f"{p or '(root)'}: {what} {_short(a)}, {against} {_short(b)}" for p, a, b in diffs[:limit]]
    more = f" (and {len(diffs) - limit} more)" if len(diffs) > limit else ""
    return "; ".join(shown) + more


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
