"""The refusal block: how often a model declines to take a side.

Its metric and report still live in polibench/metrics/ and polibench/report/ until issue 40 moves them here."""

from polibench.kit.registry import Family

FAMILY = Family(name="refusal", order=90)
