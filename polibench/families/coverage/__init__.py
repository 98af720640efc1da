"""What the numbers rest on: the items and responses kept, and why responses were filtered (every task).

Its metric (registered here, not on import) and report still live in polibench/metrics/ and polibench/report/
until issue 40 moves them here."""

from polibench.kit.registry import Family
from polibench.metrics import builtin

FAMILY = Family(name="coverage", order=30, metrics=(builtin.COVERAGE_METRIC,))
