"""The refusal block: how often a model declines to take a side.

Its metric (registered here, not on import) and report still live in polibench/metrics/ and polibench/report/
until issue 40 moves them here."""

from polibench.kit.registry import Family
from polibench.metrics import refusal

FAMILY = Family(name="refusal", order=90, metrics=(refusal.METRIC,))
