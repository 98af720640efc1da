"""Refusal share and refusal parity: how often a model takes no side, and whether more often on one side. ``metric``
computes the block (its headline estimates are all report.md and the leaderboard show of it; PrismIA's tab reads it
too, from the prismia family above)."""

from polibench.families.refusal import metric
from polibench.kit.registry import Family

FAMILY = Family(name="refusal", order=90, metrics=(metric.METRIC,))
