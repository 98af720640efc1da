"""How the leaderboard reads an entry's PCT position (:mod:`polibench.metrics.position`): hollow and unranked
where an axis has too few answered statements, no point where an axis has none.

Entries written before ``pct_answered`` existed are judged by their overall ``items_answered / items`` on both
axes, so shipped entries need no regeneration for this judgement.
"""

from __future__ import annotations

from typing import Optional

from polibench.leaderboard.schema import TaskResult
from polibench.metrics.blocks import PCT_AXES
from polibench.metrics.position import MIN_AXIS_COVERAGE, PositionReading, acquiescence_flag, read_position


def task_position(task: TaskResult, min_coverage: float = MIN_AXIS_COVERAGE) -> Optional[PositionReading]:
    """The reading of a task's PCT position; None for a task without PCT coordinates."""
    if task.economic is None and task.social is None:
        return None
    answered, statements = task.pct_answered, task.pct_statements
    if answered is None or statements is None:
        answered = {axis: task.coverage.items_answered for axis in PCT_AXES}
        statements = {axis: task.coverage.items for axis in PCT_AXES}
    metrics = {"economic": task.economic, "social": task.social}
    return read_position(*(None if m is None else m.value for m in metrics.values()),
                         {axis: None if m is None else m.ci for axis, m in metrics.items()},
                         answered, statements, min_coverage)


def task_acquiescence(task: TaskResult) -> Optional[str]:
    """The acquiescence warning of a task's PCT answers, if any."""
    return acquiescence_flag(task.agree_share, *(None if m is None else m.value for m in (task.economic, task.social)))
