"""What the numbers rest on: the items and responses kept, and why responses were filtered (every task). ``metric``
computes it, ``report`` shows it in report.md (section, figure, reading, run summary); it has no board of its own
(the leaderboard keeps every task's coverage in the entry)."""

from polibench.families.coverage import metric, report
from polibench.kit.registry import Family

FAMILY = Family(name="coverage", order=30, metrics=(metric.METRIC,), reports={metric.NAME: report.REPORT})
