"""The run-level comparisons between channels (forced choice vs open, log-probabilities, option order) and each PCT
task's instrument controls: ``metric`` computes them (``channels``, ``logprob``, ``order``, ``controls``), ``report``
shows them in report.md and the run summary, ``board`` on the leaderboard (the "Forced vs open" tab)."""

from polibench.families.channels import board, metric, report
from polibench.kit.registry import Family

FAMILY = Family(name="channels", order=100,
                run_metrics=(metric.CHANNELS, metric.LOGPROB, metric.ORDER, metric.CONTROLS),
                run_reports={"channels": report.CHANNELS_REPORT, "logprob": report.COMPARISON_REPORT,
                             "order": report.COMPARISON_REPORT, "controls": report.CONTROLS_REPORT},
                run_boards={"channels": board.BOARD})
