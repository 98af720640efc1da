"""Where the compass reads a task's position from: the registered metric whose board declares a 2-D
:class:`~polibench.leaderboard.board.Position` (its ``x`` and ``y`` estimates), judged by that metric (hollow and
unranked where an axis has too few answered statements, no point where an axis has none) and flagged by it (a
warning badge such as acquiescence)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from polibench.leaderboard.board import Position, values
from polibench.leaderboard.boards import board_of
from polibench.leaderboard.schema import Metric, TaskResult
from polibench.metrics.position import PositionReading
from polibench.metrics.registry import Estimate, registered


@dataclass(frozen=True)
class Compass:
    """The metric that places tasks on the compass, its position and its two estimates' declarations."""

    metric: str
    position: Position
    x: Estimate
    y: Estimate


_COMPASS: list[Optional[Compass]] = []


def compass() -> Optional[Compass]:
    """The first registered metric whose board declares a position (None when none does)."""
    if not _COMPASS:
        found = None
        for name, metric in registered().items():
            board = board_of(name)
            if board is not None and board.position is not None:
                declared = {e.key: e for e in metric.estimates}
                found = Compass(name, board.position, declared[board.position.x], declared[board.position.y])
                break
        _COMPASS.append(found)
    return _COMPASS[0]


def position_values(task: TaskResult) -> tuple[Optional[Metric], Optional[Metric]]:
    """The task's ``(x, y)`` estimates on the compass (None where it has none)."""
    found = compass()
    if found is None:
        return None, None
    return task.estimate(found.metric, found.position.x), task.estimate(found.metric, found.position.y)


def task_position(task: TaskResult) -> Optional[PositionReading]:
    """The reading of a task's position; None for a task without coordinates."""
    found = compass()
    if found is None or found.metric not in task.estimates:
        return None
    return found.position.reading(values(task.estimates[found.metric]), task.details.get(found.metric, {}),
                                  task.coverage)


def task_flag(task: TaskResult) -> Optional[tuple[str, str]]:
    """``(badge, warning)`` of the task's position (e.g. acquiescence), if any."""
    found = compass()
    if found is None or found.metric not in task.estimates:
        return None
    flag = found.position.flag(values(task.estimates[found.metric]), task.details.get(found.metric, {}))
    return None if not flag else (found.position.flag_badge, flag)


def has_position(task: TaskResult) -> bool:
    return all(m is not None and m.value is not None for m in position_values(task))
