"""The Political Compass Test's coordinates (Feng et al. 2023): ``metric`` computes them from the averaged stances
(js.js), ``position`` holds the PCT's own judgements of a position (acquiescence, the always-agree point), ``report``
shows them in report.md (compass figure, reading, compare columns), ``board`` on the leaderboard (the compass and
the main table's columns)."""

from polibench.families.pct import board, metric, report
from polibench.kit.registry import Family

FAMILY = Family(name="pct", order=10, metrics=(metric.METRIC,), reports={metric.NAME: report.REPORT},
                boards={metric.NAME: board.BOARD})
