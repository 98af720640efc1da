"""The run-level comparisons between channels (forced choice vs open, log-probabilities, option order) and each task's
instrument controls; on the leaderboard, the "Forced vs open" tab (``board``).

Its metric (registered here, not on import) and report still live in polibench/metrics/ and polibench/report/
until issue 40 moves them here."""

from polibench.families.channels import board
from polibench.kit.registry import Family
from polibench.metrics import run_builtin

FAMILY = Family(name="channels", order=100,
                run_metrics=(run_builtin.CHANNELS, run_builtin.LOGPROB, run_builtin.ORDER, run_builtin.CONTROLS),
                run_boards={"channels": board.BOARD})
