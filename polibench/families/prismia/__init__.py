"""Faulborn et al.'s bias per item category (category_bias: PrismIA's topics): ``metric`` computes it, ``board``
draws the leaderboard's PrismIA 2026 tab beside PrismIA's own panel (``panel``: the panel file, its rows and their
rank agreement). It builds on the faulborn sums and the refusal family's block."""

from polibench.families.prismia import board, metric
from polibench.kit.registry import Family

FAMILY = Family(name="prismia", order=40, metrics=(metric.METRIC,), boards={"category_bias": board.BOARD})
