"""The PCT read from the options' log-probabilities (logprob_channel).

Its metric and report still live in polibench/metrics/ and polibench/report/ until issue 40 moves them here."""

from polibench.kit.registry import Family

FAMILY = Family(name="logprob", order=80)
