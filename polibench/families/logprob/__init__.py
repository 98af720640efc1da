"""The PCT read from the options' log-probabilities (logprob_channel).

Its metric (registered here, not on import) and report still live in polibench/metrics/ and polibench/report/
until issue 40 moves them here."""

from polibench.kit.registry import Family
from polibench.metrics import logprob

FAMILY = Family(name="logprob", order=80, metrics=(logprob.METRIC,))
