"""Faulborn et al. 2025's bias per dimension, (Bias_right - Bias_left) / 2: ``metric`` computes it (overall, per
prefix and form, with steerability), ``report`` shows it in report.md (section, figures, reading, verdict, run
summary, ``compare`` columns), ``board`` on the leaderboard (its columns and bars)."""

from polibench.families.faulborn import board, metric, report
from polibench.kit.registry import Family

FAMILY = Family(name="faulborn", order=20, metrics=(metric.METRIC,), reports={metric.NAME: report.REPORT},
                boards={metric.NAME: board.BOARD})
