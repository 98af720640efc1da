"""The plain-language reading that opens report.md: what this run's numbers say, on what scale, how sure,
from how much data, and what may not be read into them (:mod:`polibench.metrics.position`)."""

from __future__ import annotations

from typing import Optional

from polibench.metrics.blocks import FaulbornBlock, PctBlock
from polibench.metrics.position import (
    LIMIT_LABEL,
    MIN_AXIS_COVERAGE,
    acquiescence_flag,
    agree_share,
    degenerate,
    read_pct_block,
)
from polibench.results.document import ResultsDocument, TaskResults


def _num(value: Optional[float], digits: int = 2) -> str:
    return "–" if value is None else f"{value:+.{digits}f}"


def _interval(ci, digits: int = 2) -> str:
    return "no interval" if ci is None else f"95% interval [{_num(ci[0], digits)}, {_num(ci[1], digits)}]"


def pct_reading(pct: PctBlock, resamples: int, min_coverage: float, coverage=None) -> list[str]:
    """Sentences on the PCT position of one task."""
    reading = read_pct_block(pct, min_coverage, coverage)
    scale = ("The Political Compass places a respondent on two axes, each running from −10 to +10: **economic** "
             "(negative = left, positive = right) and **social** (negative = libertarian, positive = "
             "authoritarian); (0, 0) is the centre.")
    if not reading.has_position:
        return [scale + " " + reading.quadrant_sentence() + " polibench does not put such a run on the compass "
                "(js.js's formula would put an axis without answers on its always-agree value, +0.38 economic, "
                "+2.41 social)."]
    per_axis = pct.answered is not None and pct.statements is not None
    unanswered = sum(a.statements - a.answered for a in reading.axes
                     if per_axis and a.statements is not None and a.answered is not None)
    values = "; ".join(f"{a.axis} **{_num(a.value)}** ({_interval(a.ci)})" for a in reading.axes)
    out = [f"This run: {values}. {scale}",
           f"The interval comes from {resamples:,} bootstrap resamples of the statements: it shows how much the "
           "position depends on which statements were asked"
           + (f", widened to cover every answer the {unanswered} unanswered statement(s) could have had"
              if unanswered else "")
           + ". It does not cover other prompts, sampling seeds or stance scorers."]
    counts = " and ".join(f"{a.answered}/{a.statements} {a.axis}" for a in reading.axes) if per_axis else \
        (f"{coverage.items_answered}/{coverage.items} in all" if coverage is not None else "")
    if counts:
        out.append(f"Statements answered: {counts}; a position needs at least {min_coverage:.0%} of an axis's "
                   "statements answered to be ranked.")
    out.append(reading.quadrant_sentence())
    for axis in reading.axes:
        if not axis.sufficient:
            out.append(f"**Insufficient data on the {axis.axis} axis** ({axis.coverage_text()} answered): this "
                       "position is shown hollow and left out of rankings.")
        if axis.degenerate and axis.ci is not None:
            out.append(f"**The {axis.axis} interval is degenerate** (zero width): too few statements or uniform "
                       "answers for resampling to vary the result; it is not certainty.")
    flag = acquiescence_flag(agree_share(pct.answers), pct.economic, pct.social)
    if flag:
        out.append(f"**Acquiescence warning** — {flag}: the position may reflect a way of answering rather than "
                   "views.")
    return out


def reading_lines(document: ResultsDocument, min_coverage: float = MIN_AXIS_COVERAGE) -> list[str]:
    """The ``## Reading this result`` section: one paragraph per task."""
    lines = ["## Reading this result", ""]
    if document.run.limit is not None:
        lines += [f"**--limit {document.run.limit}: {LIMIT_LABEL}.** Only the first {document.run.limit} statements "
                  "of each instrument were asked.", ""]
    for name, results in document.results.items():
        lines += [f"**{name}.** " + " ".join(task_reading(results, document.scoring.get(name, {}), min_coverage)), ""]
    return lines


def task_reading(results: TaskResults, scoring: dict, min_coverage: float) -> list[str]:
    out: list[str] = []
    pct = results.block("pct")
    if isinstance(pct, PctBlock):
        out += pct_reading(pct, results.bootstrap.resamples, min_coverage, results.coverage)
    bias = results.block("faulborn_bias")
    if isinstance(bias, FaulbornBlock) and bias.total is not None:
        out.append(f"Faulborn bias {_num(bias.total, 3)} ({_interval(bias.ci.total, 3)}): agreement with "
                   "right-leaning minus left-leaning statements, from −1 (left) to +1 (right); 0 is balanced.")
        if degenerate(bias.total, bias.ci.total):
            out.append("**The Faulborn bias interval is degenerate** (zero width): too few statements per stratum or "
                       "uniform answers for resampling to vary the result; it is not certainty.")
    cov = results.coverage
    threshold = scoring.get("threshold")
    kept = (f"Kept share: {cov.responses_kept} of {cov.responses} responses ({100 * (cov.kept_share or 0.0):.1f}%) "
            "were kept.")
    if threshold is not None:
        kept += (f" A response is kept only when the stance scorer (`{scoring.get('scorer')}`) reads its stance with "
                 f"at least {threshold} confidence (the {threshold} filter, as Feng et al.); the others are dropped, "
                 "not counted as neutral, so a statement whose responses were all dropped is unanswered.")
    out.append(kept)
    return out
