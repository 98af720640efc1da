"""IssueBench's issue bias (Röttger et al. 2025): ``metric`` computes the stance shares per framing and issue,
``report`` shows them in report.md (section, figure, run summary), ``board`` on the leaderboard (its columns and
tab)."""

from polibench.families.issue_bias import board, metric, report
from polibench.kit.registry import Family

FAMILY = Family(name="issue_bias", order=70, metrics=(metric.METRIC,), reports={metric.METRIC.name: report.REPORT},
                boards={metric.METRIC.name: board.BOARD})
