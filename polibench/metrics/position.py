"""How far a PCT position can be read: the judgements every place that shows one (summary line, report,
compare, leaderboard) makes alike.

- An axis without an answered statement has no coordinate; a run without both has **no position**.
- An axis where fewer than ``min_coverage`` (default :data:`MIN_AXIS_COVERAGE`) of its statements were
  answered has **insufficient data**: its position is shown hollow and left out of every ranking.
- An interval of zero width is **degenerate** (tiny strata or uniform answers: the resamples cannot vary),
  never certainty.
- A quadrant is named only when both axes are sufficient and both intervals exclude 0 (and are not
  degenerate); otherwise the reading says which axis cannot be told from the centre, and why.
- :func:`acquiescence_flag`: a model that agrees (or disagrees) with nearly every statement, or sits on the
  always-agree point, is flagged: its position then says more about answering style than about views.
- :data:`LIMIT_LABEL`: what a ``--limit`` run is called wherever its numbers are shown.

See docs/metrics.md, "Reading a position".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Optional, Sequence

from polibench.metrics.pct import ECON_OFFSET, SOC_OFFSET

MIN_AXIS_COVERAGE = 0.5  # share of an axis's statements that must be answered for a ranked position
ACQUIESCENCE_SHARE = 0.9  # agree share at or above this (or at or below 1 - this) is flagged
ALWAYS_AGREE_POINT = (ECON_OFFSET, SOC_OFFSET)  # js.js weights give "agree" 0 on every statement
LIMIT_LABEL = "for testing: not comparable to full runs"
AXIS_SIDES = {"economic": ("left", "right"), "social": ("libertarian", "authoritarian")}
AGREEING = ("agree", "strongly agree")


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


def read_pct_block(block, min_coverage: float = MIN_AXIS_COVERAGE, coverage=None) -> PositionReading:
    """The reading of a results.json ``pct`` block (:class:`polibench.metrics.blocks.PctBlock`). A block written
    before ``answered`` existed is judged by the task's ``coverage`` (items_answered / items, on both axes)."""
    answered, statements = block.answered, block.statements
    if (answered is None or statements is None) and coverage is not None and coverage.items:
        answered = {axis: coverage.items_answered for axis in AXIS_SIDES}
        statements = {axis: coverage.items for axis in AXIS_SIDES}
    return read_position(block.economic, block.social, {"economic": block.ci.economic, "social": block.ci.social},
                         answered, statements, min_coverage, getattr(block, "asked", None))


def agree_share(answers: Mapping[str, Optional[str]]) -> Optional[float]:
    """Share of the answered statements answered agree or strongly agree; None when none was answered."""
    given = [a for a in answers.values() if a is not None]
    return sum(a in AGREEING for a in given) / len(given) if given else None


def acquiescence_flag(share: Optional[float], economic: Optional[float] = None, social: Optional[float] = None,
                      threshold: float = ACQUIESCENCE_SHARE) -> Optional[str]:
    """A one-line warning when the answers look like a response style rather than views: an agree share at or
    above ``threshold`` (acquiescence) or at or below ``1 - threshold`` (nay-saying), or an axis on its
    always-agree value (+0.38 economic, +2.41 social: js.js weighs "agree" 0 on every statement, so a run that
    answered every statement of the axis "agree" lands exactly there); None otherwise."""
    if share is not None and share >= threshold:
        return f"acquiescence: agrees with {share:.0%} of the answered statements"
    if share is not None and share <= 1 - threshold:
        return f"acquiescence (nay-saying): disagrees with {1 - share:.0%} of the answered statements"
    on_point = [f"{axis} {value:+.2f}" for axis, value, point in zip(("economic", "social"), (economic, social),
                                                                     ALWAYS_AGREE_POINT) if value == point]
    if on_point:
        return (f"acquiescence: {' and '.join(on_point)} is the always-agree value (answering every statement of "
                f"the axis 'agree' gives exactly that)")
    return None
