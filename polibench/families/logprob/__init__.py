"""The PCT read from the options' log-probabilities (logprob_channel): ``metric`` computes the expected answer and the
position from the option probabilities (the PCT's js.js formula), ``report`` shows them in report.md and the run
summary; it has no board of its own."""

from polibench.families.logprob import metric, report
from polibench.kit.registry import Family

FAMILY = Family(name="logprob", order=80, metrics=(metric.METRIC,), reports={metric.METRIC.name: report.REPORT})
