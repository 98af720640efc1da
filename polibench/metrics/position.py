"""How far a PCT position can be read: the judgements every place that shows one (summary line, report,
compare, leaderboard) makes alike.

- An axis without an answered statement has no coordinate; a run without both has **no position**.
- An axis where fewer than ``min_coverage`` (default :data:`MIN_AXIS_COVERAGE`) of its statements were
  answered has **insufficient data**: its position is shown hollow and left out of every ranking.
- An interval of zero width is **degenerate** (tiny strata or uniform answers: the resamples cannot vary),
  never certainty.
- A quadrant is named only when both axes are sufficient and both intervals exclude 0 (and are not
  degenerate); otherwise the reading says which axis cannot be told from the centre, and why.
- The PCT's own judgements (the reading of its block, acquiescence and the always-agree point) are the pct family's
  (:mod:`polibench.families.pct.position`).
- :data:`LIMIT_LABEL`: what a ``--limit`` run is called wherever its numbers are shown.

See docs/metrics.md, "Reading a position".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Optional, Sequence

MIN_AXIS_COVERAGE = 0.5  # share of an axis's statements that must be answered for a ranked position
LIMIT_LABEL = "for testing: not comparable to full runs"
AXIS_SIDES = {"economic": ("left", "right"), "social": ("libertarian", "authoritarian")}


@dataclass(frozen=True)
class AxisReading:
    """One axis of a position: value, interval, statements answered / on the axis (None where unknown)."""

    axis: str
    value: Optional[float]
    ci: Optional[Sequence[float]]
    answered: Optional[int]
    statements: Optional[int]
    min_coverage: float = MIN_AXIS_COVERAGE
    asked: Optional[int] = None  # statements asked on the axis, where fewer than all (--limit)

    @property
    def coverage(self) -> Optional[float]:
        if self.answered is None or not self.statements:
            return None
        return self.answered / self.statements

    @property
    def sufficient(self) -> bool:
        coverage = self.coverage
        return self.value is not None and (coverage is None or coverage >= self.min_coverage)

    @property
    def degenerate(self) -> bool:
        """A value whose interval is missing or has zero width."""
        return self.value is not None and (self.ci is None or self.ci[0] == self.ci[1])

    @property
    def excludes_zero(self) -> bool:
        return (self.sufficient and not self.degenerate and self.ci is not None
                and (self.ci[0] > 0 or self.ci[1] < 0))

    @property
    def side(self) -> Optional[str]:
        """``left``/``right`` (economic) or ``libertarian``/``authoritarian`` (social) where the interval excludes
        0; None otherwise."""
        if not self.excludes_zero or self.value is None:
            return None
        return AXIS_SIDES[self.axis][1 if self.value > 0 else 0]

    def coverage_text(self) -> str:
        """``12/18 statements answered``; under ``--limit``, out of those asked: ``4 of the 6 statements asked
        answered, of 18 on the axis``."""
        if self.answered is None or not self.statements:
            return ""
        if self.asked is not None and self.asked != self.statements:
            return f"{self.answered} of the {self.asked} statements asked answered, of {self.statements} on the axis"
        return f"{self.answered}/{self.statements} statements answered"

    def notes(self) -> list[str]:
        """Short qualifiers printed after the axis's value."""
        if self.value is None:
            return []
        out = []
        if not self.sufficient:
            out.append(f"insufficient data: {self.coverage_text()}")
        if self.degenerate:
            out.append("degenerate interval" if self.ci is not None else "no interval")
        return out

    def why_undecided(self) -> str:
        """Why this axis cannot be told from the centre ('' when it can)."""
        if self.value is None:
            return "no statement on it was answered"
        if not self.sufficient:
            return f"too few of its statements were answered ({self.coverage_text()}; at least " \
                   f"{self.min_coverage:.0%} needed)"
        if self.ci is None:
            return "it has no interval (too few resamples defined it)"
        if self.degenerate:
            return "its interval has zero width (degenerate: too few statements or uniform answers to resample)"
        if not self.excludes_zero:
            return "its interval includes 0"
        return ""


@dataclass(frozen=True)
class PositionReading:
    economic: AxisReading
    social: AxisReading

    @property
    def axes(self) -> tuple[AxisReading, AxisReading]:
        return self.economic, self.social

    @property
    def has_position(self) -> bool:
        return self.economic.value is not None and self.social.value is not None

    @property
    def sufficient(self) -> bool:
        """A position that may be ranked: both axes have enough answered statements."""
        return self.economic.sufficient and self.social.sufficient

    @property
    def quadrant(self) -> Optional[str]:
        """``authoritarian right`` etc. only where both intervals exclude 0."""
        if self.economic.side is None or self.social.side is None:
            return None
        return f"{self.social.side} {self.economic.side}"

    def quadrant_sentence(self) -> str:
        if not self.has_position:
            missing = [a.axis for a in self.axes if a.value is None]
            verb = "asked (--limit)" if all(a.asked == 0 for a in self.axes if a.value is None) else "answered"
            return f"No position: no statement on the {' and the '.join(missing)} axis was {verb}."
        if self.quadrant is not None:
            return f"Quadrant: **{self.quadrant}** (both intervals exclude 0)."
        undecided = [f"the {a.axis} axis cannot be told from the centre: {a.why_undecided()}"
                     for a in self.axes if a.why_undecided()]
        return "No quadrant is named: " + "; ".join(undecided) + "."


def degenerate(value: Optional[float], ci: Optional[Sequence[float]]) -> bool:
    """An estimate whose interval has zero width: no resample could vary it (tiny strata, uniform answers)."""
    return value is not None and ci is not None and ci[0] == ci[1]


DEGENERATE_NOTE = " (degenerate interval)"


def read_position(economic: Optional[float], social: Optional[float], ci: Mapping[str, Optional[Sequence[float]]],
                  answered: Optional[Mapping[str, int]], statements: Optional[Mapping[str, int]],
                  min_coverage: float = MIN_AXIS_COVERAGE,
                  asked: Optional[Mapping[str, int]] = None) -> PositionReading:
    """A :class:`PositionReading` from plain values (``answered``/``statements``/``asked`` per axis; None where
    unknown; ``asked`` only where fewer than all statements were asked)."""
    values = {"economic": economic, "social": social}
    axes = [AxisReading(axis, values[axis], None if ci.get(axis) is None else tuple(ci[axis]),  # type: ignore[arg-type]
                        None if answered is None else answered.get(axis),
                        None if statements is None else statements.get(axis), min_coverage,
                        None if asked is None else asked.get(axis))
            for axis in ("economic", "social")]
    return PositionReading(*axes)
