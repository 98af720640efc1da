"""Political even-handedness on paired prompts (Anthropic 2025): ``metric`` computes the shares of pairs helped
alike, refused and hedged, ``report`` shows them in report.md (section, figure, run summary), ``board`` on the
leaderboard (its columns and tab)."""

from polibench.families.even_handedness import board, metric, report
from polibench.kit.registry import Family

FAMILY = Family(name="even_handedness", order=50, metrics=(metric.METRIC,),
                reports={metric.METRIC.name: report.REPORT}, boards={metric.METRIC.name: board.BOARD})
