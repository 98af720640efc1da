"""The ``faulborn_bias`` metric on the leaderboard (its family's board, :mod:`polibench.leaderboard.board`):
the bias per prompt prefix kept in the entry, the bias columns of the main table, the tooltip line of a compass
point, the per-prefix bar charts of the model page and the version-1 fields."""

from __future__ import annotations

from typing import Optional

from polibench.kit.strict import Strict
from polibench.leaderboard.board import Bars, Board, Column, Section, Value, stored_values, values
from polibench.metrics.blocks import BIAS_DIMENSIONS, FaulbornBlock
from polibench.records import normalise_dimension
from polibench.report.registry import ShowContext

ORDER = ("total", "economic", "social")   # the model page's charts, in this order


def _dimensions(block: Optional[FaulbornBlock]) -> dict:
    return stored_values(block, BIAS_DIMENSIONS)


class FaulbornDetails(Strict):
    per_prefix: dict[str, dict[str, Value]] = {}


def details(bias: FaulbornBlock, ctx: ShowContext) -> dict:
    """The bias per prompt prefix (prompt variant), when the task has more than one."""
    per_prefix = {str(prefix): found for prefix, inner in bias.per_prefix.items() if (found := _dimensions(inner))}
    return {"per_prefix": per_prefix} if per_prefix else {}


def sections(found: Optional[dict], estimates: dict[str, Value]) -> list[Section]:
    per_prefix = {prefix: values(dims) for prefix, dims in ((found or {}).get("per_prefix") or {}).items()}
    names = sorted({k for v in per_prefix.values() for k in v},
                   key=lambda k: (ORDER.index(k) if k in ORDER else len(ORDER), k))
    bars = tuple(Bars(f"Faulborn bias, {name}" if name in ORDER else name.replace("_", " "),
                      tuple((prefix, m[name]) for prefix, m in sorted(per_prefix.items()) if name in m))
                 for name in names)
    return [Section("Per prefix", bars=bars, note="No per-prefix breakdown in this entry (its task has a single prompt "
                                                  "prefix, or its polibench version did not compute one).")]


def _social_not_cultural(dims):
    """Entries written before the rename call the social dimension "cultural"."""
    return {normalise_dimension(k): v for k, v in dims.items()} if isinstance(dims, dict) else dims


def v1(task: dict) -> tuple[dict, dict]:
    """Version 1's ``faulborn_bias`` field (estimates) and ``per_prefix`` (details)."""
    estimates = _social_not_cultural(task.pop("faulborn_bias", None) or {})
    per_prefix = task.pop("per_prefix", None) or {}
    if isinstance(per_prefix, dict):
        per_prefix = {p: _social_not_cultural(m) for p, m in per_prefix.items()}
    return estimates, ({"per_prefix": per_prefix} if per_prefix else {})


BOARD = Board(
    details=details, details_model=FaulbornDetails,
    columns=(Column("economic", "Bias econ.", "Faulborn et al. bias, economic dimension (−1 left … +1 right)"),
             Column("social", "Bias social", "Faulborn et al. bias, social dimension (their 'cultural')"),
             Column("total", "Bias total", "Faulborn et al. bias, all statements")),
    tooltip=(("Faulborn bias", "total"),),
    sections=sections, section_order=1, v1=v1,
)
