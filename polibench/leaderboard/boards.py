"""What each metric shows on the leaderboard: its :class:`~polibench.leaderboard.board.Board` (a run-level
metric's: its :class:`~polibench.leaderboard.board.RunBoard`), registered by name by the metric's family
(``Family(boards=...)``, ``Family(run_boards=...)``) or with :func:`register_board`. The site asks
:func:`boards` and :func:`run_boards`, in the metric registries' order, and names no metric.
"""

from __future__ import annotations

from typing import Optional

from polibench.kit.registry import Registry
from polibench.leaderboard.board import Board, RunBoard
from polibench.metrics.registry import METRICS
from polibench.metrics.run_level import RUN_METRICS


def _board(name: str, found: object) -> Board:
    if not isinstance(found, Board):
        raise TypeError(f"is not a polibench Board (got {type(found).__name__})")
    return found


def _run_board(name: str, found: object) -> RunBoard:
    if not isinstance(found, RunBoard):
        raise TypeError(f"is not a polibench RunBoard (got {type(found).__name__})")
    return found


BOARDS: Registry[Board] = Registry("board", part="boards", check=_board)
RUN_BOARDS: Registry[RunBoard] = Registry("run-level board", part="run_boards", check=_run_board)


# register_board(metric, board, replace=False) -> board: show metric ``metric`` on the leaderboard with ``board``
# (a family's ``boards`` do the same); register_run_board: a run-level metric's; unregister_*: forget one.
register_board = BOARDS.register
register_run_board = RUN_BOARDS.register
unregister_board = BOARDS.remove
unregister_run_board = RUN_BOARDS.remove


def board_of(metric: str) -> Optional[Board]:
    """The board of metric ``metric``, or None when it shows nothing on the leaderboard."""
    return BOARDS.get(metric) if metric in BOARDS else None


def run_board_of(metric: str) -> Optional[RunBoard]:
    """The board of run-level metric ``metric``, or None when it shows nothing on the leaderboard."""
    return RUN_BOARDS.get(metric) if metric in RUN_BOARDS else None


def boards() -> list[tuple[str, Board]]:
    """``(metric name, board)`` of every registered metric that shows something on the site, in registry order."""
    return [(name, board) for name in METRICS.names() if (board := board_of(name)) is not None]


def run_boards() -> list[tuple[str, RunBoard]]:
    """``(run-level metric name, board)`` of every registered run-level metric that shows something on the site,
    in registry order."""
    return [(name, board) for name in RUN_METRICS.names() if (board := run_board_of(name)) is not None]
