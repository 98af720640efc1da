"""IssueBench's issue bias (Röttger et al. 2025); on the leaderboard, its columns and tab (``board``).

Its metric (registered here, not on import) and report still live in polibench/metrics/ and polibench/report/
until issue 40 moves them here."""

from polibench.families.issue_bias import board
from polibench.kit.registry import Family
from polibench.metrics import issue_bias

FAMILY = Family(name="issue_bias", order=70, metrics=(issue_bias.METRIC,), boards={"issue_bias": board.BOARD})
