"""The ``pct_coordinates`` metric on the leaderboard (its family's board, :mod:`polibench.leaderboard.board`):
the statements answered per axis, the agree share and the coordinates per prompt variant kept in the entry; the
Economic and Social columns; the compass position with its insufficient-data and acquiescence judgements
(:mod:`polibench.metrics.position`); the per-variant spread of the model page; and the version-1 fields."""

from __future__ import annotations

from typing import Optional

from pydantic import Field

from polibench.families.pct.position import acquiescence_flag, agree_share
from polibench.kit.strict import Strict
from polibench.leaderboard.board import Board, Column, Position, Section, Spread, Value
from polibench.metrics.blocks import PCT_AXES, PctBlock
from polibench.metrics.position import MIN_AXIS_COVERAGE, PositionReading, read_position
from polibench.report.registry import ShowContext

RANGE = (-10.0, 10.0)


class PctDetails(Strict):
    """What an entry keeps of a task's PCT coordinates beside the estimates."""

    answered: Optional[dict[str, int]] = None       # absent in entries written before the per-axis counts
    statements: Optional[dict[str, int]] = None
    agree_share: Optional[float] = Field(None, ge=0.0, le=1.0)
    per_variant: dict[str, dict[str, Optional[float]]] = {}


def details(pct: PctBlock, ctx: ShowContext) -> dict:
    """Statements answered and carrying a weight per axis, the share answered (strongly) agree (what the
    insufficient-data and acquiescence judgements read) and the coordinates per prompt variant."""
    share = agree_share(pct.answers)
    return {"answered": pct.answered, "statements": pct.statements,
            "agree_share": None if share is None else round(share, 4),
            "per_variant": {str(v): {axis: getattr(c, axis) for axis in PCT_AXES} for v, c in pct.per_variant.items()}}


def reading(estimates: dict[str, Value], found: dict, coverage,
            min_coverage: float = MIN_AXIS_COVERAGE) -> Optional[PositionReading]:
    """The task's position judged per axis; entries without per-axis counts are judged by their overall
    ``items_answered / items`` on both axes. None for a task without coordinates."""
    economic, social = (estimates.get(axis) for axis in PCT_AXES)
    if economic is None and social is None:
        return None
    answered, statements = found.get("answered"), found.get("statements")
    if answered is None or statements is None:
        answered = {axis: coverage.items_answered for axis in PCT_AXES}
        statements = {axis: coverage.items for axis in PCT_AXES}
    return read_position(None if economic is None else economic.value, None if social is None else social.value,
                         {"economic": None if economic is None else economic.ci,
                          "social": None if social is None else social.ci}, answered, statements, min_coverage)


def flag(estimates: dict[str, Value], found: dict) -> Optional[str]:
    """The acquiescence warning of the task's answers, if any."""
    economic, social = (estimates.get(axis) for axis in PCT_AXES)
    return acquiescence_flag(found.get("agree_share"), None if economic is None else economic.value,
                             None if social is None else social.value)


def sections(found: Optional[dict], estimates: dict[str, Value]) -> list[Section]:
    per_variant = (found or {}).get("per_variant") or {}
    return [Section("Per-variant spread", spread=Spread(PCT_AXES, per_variant, *RANGE),
                    note="No per-variant coordinates in this task.")]


V1_DETAILS = {"pct_answered": "answered", "pct_statements": "statements", "agree_share": "agree_share",
              "per_variant": "per_variant"}


def v1(task: dict) -> tuple[dict, dict]:
    """Version 1's ``economic`` and ``social`` fields (estimates), ``pct_answered``, ``pct_statements``,
    ``agree_share`` and ``per_variant`` (details)."""
    estimates = {axis: task.pop(axis) for axis in PCT_AXES if axis in task}
    found = {new: task.pop(old) for old, new in V1_DETAILS.items() if old in task}
    return {k: v for k, v in estimates.items() if v is not None}, found


BOARD = Board(
    details=details, details_model=PctDetails,
    columns=(Column("economic", "Economic", "PCT economic coordinate, left − / right +", always=True),
             Column("social", "Social", "PCT social coordinate, libertarian − / authoritarian +", always=True)),
    position=Position("economic", "social", reading, flag, flag_badge="acquiescence"),
    sections=sections, section_order=2, v1=v1,
)
