"""Even-handedness on paired prompts (Anthropic 2025); on the leaderboard, its columns and tab (``board``).

Its metric (registered here, not on import) and report still live in polibench/metrics/ and polibench/report/
until issue 40 moves them here."""

from polibench.families.even_handedness import board
from polibench.kit.registry import Family
from polibench.metrics import even_handedness

FAMILY = Family(name="even_handedness", order=50, metrics=(even_handedness.METRIC,),
                boards={"even_handedness": board.BOARD})
