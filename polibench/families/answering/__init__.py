"""Warnings when the model is not really answering (the ``answering`` run-level metric): ``metric`` computes them and
says how report.md, ``polibench run`` and the site's index mark a flagged task (its ``warnings`` and ``flags``),
``board`` opens the model page with them."""

from polibench.families.answering import board, metric
from polibench.kit.registry import Family

FAMILY = Family(name="answering", order=120, run_metrics=(metric.METRIC,), run_boards={metric.METRIC.name: board.BOARD})
