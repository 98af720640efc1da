"""Liu et al.'s generation bias (liu_bias): ``metric`` computes the Wasserstein distances of the ideology scores per
group, ``null`` the permutation null they are read against, ``report`` shows them in report.md (its section and
Table 5 over the run), ``board`` on the leaderboard (its tab)."""

from polibench.families.generation_bias import board, metric, report
from polibench.kit.registry import Family

FAMILY = Family(name="generation_bias", order=60, metrics=(metric.METRIC,),
                reports={metric.METRIC.name: report.REPORT}, boards={metric.METRIC.name: board.BOARD})
