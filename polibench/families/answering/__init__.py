"""Warnings when the model is not really answering (the answering run-level metric); on the leaderboard, the flagged
tasks' marks and the model page's warnings (``board``).

Its metric (registered here, not on import) and report still live in polibench/metrics/ and polibench/report/
until issue 40 moves them here."""

from polibench.families.answering import board
from polibench.kit.registry import Family
from polibench.metrics import answering

FAMILY = Family(name="answering", order=120, run_metrics=(answering.METRIC,), run_boards={"answering": board.BOARD})
