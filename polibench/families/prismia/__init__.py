"""PrismIA's categories (category_bias): the PrismIA 2026 tab of the leaderboard (``board``), beside PrismIA's own
panel (``panel``).

Its metric (registered here, not on import) and report still live in polibench/metrics/ and polibench/report/
until issue 40 moves them here."""

from polibench.families.prismia import board
from polibench.kit.registry import Family
from polibench.metrics import category_bias

FAMILY = Family(name="prismia", order=40, metrics=(category_bias.METRIC,), boards={"category_bias": board.BOARD})
