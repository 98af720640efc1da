"""The ``answering`` run-level metric on the leaderboard (its family's board, :class:`~polibench.leaderboard.
board.RunBoard`): an entry keeps its warnings (the model is not really answering) in ``run_metrics.answering``,
recomputed by ``verify``; its model page opens with them. The index page marks the flagged tasks through the
metric's ``flags`` hook (:mod:`polibench.families.answering.metric`). Every value from an entry is escaped."""

from __future__ import annotations

from html import escape

from polibench.families.answering.metric import AnsweringWarning
from polibench.leaderboard.board import RunBoard


def page(warnings: list[AnsweringWarning]) -> str:
    """The model page's warnings, one line each."""
    items = "".join(f'<li data-task="{escape(w.task)}" data-kind="{escape(w.kind)}"><strong>{escape(w.badge)}'
                    f"</strong>: {escape(w.message)}</li>" for w in warnings)
    return (f'<section class="warnings" role="note"><h2>Is the model answering?</h2><p>polibench flagged this '
            f"entry: its numbers are computed all the same, but they may not describe the model's views.</p>"
            f"<ul>{items}</ul></section>")


BOARD = RunBoard(page=page)
