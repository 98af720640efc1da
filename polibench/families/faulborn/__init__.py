"""Faulborn et al. 2025's bias per dimension, (Bias_right - Bias_left) / 2; on the leaderboard, its columns and bars
(``board``).

Its metric (registered here, not on import) and report still live in polibench/metrics/ and polibench/report/
until issue 40 moves them here."""

from polibench.families.faulborn import board
from polibench.kit.registry import Family
from polibench.metrics import builtin

FAMILY = Family(name="faulborn", order=20, metrics=(builtin.FAULBORN_METRIC,), boards={"faulborn_bias": board.BOARD})
