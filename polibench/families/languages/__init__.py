"""The PCT asked in several languages (the ``language_effect`` run-level metric): ``metric`` computes each language's
position and its difference from English, ``report`` shows them in report.md (section, figure) and the run summary,
``board`` on the leaderboard (the "Languages" tab). It uses the PCT's js.js formula (polibench.families.pct.metric:
the pct family sits below it)."""

from polibench.families.languages import board, metric, report
from polibench.kit.registry import Family

FAMILY = Family(name="languages", order=110, run_metrics=(metric.METRIC,),
                run_reports={metric.METRIC.name: report.REPORT}, run_boards={metric.METRIC.name: board.BOARD})
