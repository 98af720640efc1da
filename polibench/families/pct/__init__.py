"""The Political Compass Test's coordinates (Feng et al. 2023): computed from the averaged stances (js.js); on the
leaderboard, the compass and the main table's columns (``board``).

Its metric (registered here, not on import) and report still live in polibench/metrics/ and polibench/report/
until issue 40 moves them here."""

from polibench.families.pct import board
from polibench.kit.registry import Family
from polibench.metrics import builtin

FAMILY = Family(name="pct", order=10, metrics=(builtin.PCT_METRIC,), boards={"pct_coordinates": board.BOARD})
