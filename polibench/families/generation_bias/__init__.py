"""Liu et al.'s generation bias (liu_bias); on the leaderboard, its tab (``board``).

Its metric (registered here, not on import) and report still live in polibench/metrics/ and polibench/report/
until issue 40 moves them here."""

from polibench.families.generation_bias import board
from polibench.kit.registry import Family
from polibench.metrics import generation_bias

FAMILY = Family(name="generation_bias", order=60, metrics=(generation_bias.METRIC,), boards={"liu_bias": board.BOARD})
