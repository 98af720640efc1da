"""The PCT's own judgements of a position (the engine's shared ones are :mod:`polibench.metrics.position`): the
reading of a results.json ``pct`` block, and :func:`acquiescence_flag`: a model that agrees (or disagrees) with nearly
every statement, or sits on the always-agree point (the js.js offsets), is flagged: its position then says more
about answering style than about views."""

from __future__ import annotations

from typing import Mapping, Optional

from polibench.families.pct.metric import ECON_OFFSET, SOC_OFFSET
from polibench.metrics.position import AXIS_SIDES, MIN_AXIS_COVERAGE, PositionReading, read_position

ACQUIESCENCE_SHARE = 0.9  # agree share at or above this (or at or below 1 - this) is flagged
ALWAYS_AGREE_POINT = (ECON_OFFSET, SOC_OFFSET)  # js.js weights give "agree" 0 on every statement
AGREEING = ("agree", "strongly agree")


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
