"""The PCT asked in several languages (language_effect, a run-level metric); on the leaderboard, the "Languages" tab
(``board``).

Its metric (registered here, not on import) and report still live in polibench/metrics/ and polibench/report/
until issue 40 moves them here."""

from polibench.families.languages import board
from polibench.kit.registry import Family
from polibench.metrics import language_effect

FAMILY = Family(name="languages", order=110, run_metrics=(language_effect.METRIC,),
                run_boards={"language_effect": board.BOARD})
