"""How the ``pct_coordinates`` metric is shown (:data:`REPORT`, registered by the family):
the quadrant sentence, the compass figure, coordinates per prompt variant, the plain-language reading, the
run summary's coordinates and the ``compare`` columns."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Optional

from polibench.families.pct.position import acquiescence_flag, agree_share, read_pct_block
from polibench.metrics.blocks import PCT_AXES, PctBlock
from polibench.metrics.registry import get_metric
from polibench.report import plots
from polibench.report.registry import Report, ShowContext
from polibench.report.text import figure_link, fmt, with_ci

QUADRANTS = (  # (x0, y0, colour, label): the political compass's customary colours
    (-10, 0, "#ff7575", "authoritarian left"), (0, 0, "#75a8ff", "authoritarian right"),
    (-10, -10, "#9aed97", "libertarian left"), (0, -10, "#c09aec", "libertarian right"),
)


def lead(pct: PctBlock, ctx: ShowContext) -> list[str]:
    return [read_pct_block(pct, ctx.min_coverage, ctx.results.coverage).quadrant_sentence(), ""]


def figures(pct: PctBlock, ctx: ShowContext) -> dict[str, list[str]]:
    if pct.economic is None or pct.social is None:
        return {}
    return ctx.figure("compass", partial(compass_plot, pct))


def section(pct: PctBlock, ctx: ShowContext) -> list[str]:
    lines = figure_link(ctx.figures["compass"], "Political compass") if "compass" in ctx.figures else []
    return lines + fill_section(pct) + variant_section(pct)


FILL_NOTE = 0.5  # the other fill's position is reported where it differs by more than this on an axis
FILL_NAMES = {"side": "within its side (the mean of the answered statements that agreeing moves the same way)",
              "pooled": "pooled (the mean of all answered statements of the axis)"}


def fill_section(pct: PctBlock) -> list[str]:
    """The position under the other fill of unanswered statements, on the axes where it differs by more than
    ``FILL_NOTE`` (docs/metrics.md, "Unanswered statements"); nothing otherwise."""
    other = pct.other_fill
    if other is None or pct.fill is None:
        return []
    far = [(axis, getattr(pct, axis), getattr(other, axis)) for axis in PCT_AXES
           if getattr(pct, axis) is not None and getattr(other, axis) is not None
           and abs(getattr(pct, axis) - getattr(other, axis)) > FILL_NOTE + 1e-9]
    if not far:
        return []
    rows = [f"| {axis} | {value:+.2f} | {alternative:+.2f} | {alternative - value:+.2f} |"
            for axis, value, alternative in far]
    return ["### Unanswered statements: the other fill", "",
            f"Each unanswered statement was filled in {FILL_NAMES.get(pct.fill, pct.fill)}. Filled "
            f"{FILL_NAMES.get(other.fill, other.fill)} instead, the position moves by more than {FILL_NOTE} on "
            "these axes. The interval does not depend on the fill (it holds every answer the unanswered statements "
            "could have had).",
            "", f"| axis | {pct.fill} fill (reported) | {other.fill} fill | difference |", "|---|---|---|---|",
            *rows, ""]


def variant_section(pct: PctBlock) -> list[str]:
    variants = pct.per_variant
    if len(variants) < 2:
        return []
    lines = ["### PCT coordinates per prompt variant", "", "| prompt variant | economic | social |", "|---|---|---|"]
    lines += [f"| {v} | {with_ci(*c.estimate('economic'))} | {with_ci(*c.estimate('social'))} |"
              for v, c in variants.items()]
    spread = pct.spread
    if spread:
        for stat in ("mean", "sd", "min", "max"):
            cells = [getattr(spread[axis], stat) for axis in PCT_AXES]
            cells = [f"{c:.2f}" if stat == "sd" and c is not None else fmt(c) for c in cells]
            lines.append(f"| *{stat}* | {cells[0]} | {cells[1]} |")
    return lines + [""]


def _num(value: Optional[float], digits: int = 2) -> str:
    return "–" if value is None else f"{value:+.{digits}f}"


def _interval(ci, digits: int = 2) -> str:
    return "no interval" if ci is None else f"95% interval [{_num(ci[0], digits)}, {_num(ci[1], digits)}]"


def reading(pct: PctBlock, ctx: ShowContext) -> list[str]:
    """Sentences on the PCT position of one task."""
    return pct_reading(pct, ctx.results.bootstrap.resamples, ctx.min_coverage, ctx.results.coverage)


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
    asked = {a.axis: (pct.asked_on(a.axis) if per_axis else None) for a in reading.axes}
    unanswered = sum((asked[a.axis] or 0) - a.answered for a in reading.axes if per_axis and a.answered is not None)
    not_asked = sum(a.statements - (asked[a.axis] or 0) for a in reading.axes
                    if per_axis and a.statements is not None)
    values = "; ".join(f"{a.axis} **{_num(a.value)}** ({_interval(a.ci)})" for a in reading.axes)
    widened = [f"the {unanswered} asked but unanswered statement(s)"] if unanswered else []
    if not_asked:
        widened.append(f"the {not_asked} statement(s) never asked (--limit)")
    out = [f"This run: {values}. {scale}",
           f"The interval comes from {resamples:,} bootstrap resamples of the statements: it shows how much the "
           "position depends on which statements were asked"
           + (f", widened to cover every answer {' and '.join(widened)} could have had" if widened else "")
           + ". It does not cover other prompts, sampling seeds or stance scorers."]
    if per_axis and not_asked:
        counts = " and ".join(f"{a.answered} of the {asked[a.axis]} {a.axis} statements asked ({a.statements} on the "
                              "axis)" for a in reading.axes)
    elif per_axis:
        counts = " and ".join(f"{a.answered}/{a.statements} {a.axis}" for a in reading.axes)
    else:
        counts = f"{coverage.items_answered}/{coverage.items} in all" if coverage is not None else ""
    if counts:
        out.append(f"Statements answered: {counts}; a position needs at least {min_coverage:.0%} of an axis's "
                   "statements answered to be ranked.")
    out.append(reading.quadrant_sentence())
    for axis in reading.axes:
        if not axis.sufficient:
            out.append(f"**Insufficient data on the {axis.axis} axis** ({axis.coverage_text()}): this "
                       "position is shown hollow and left out of rankings.")
        if axis.degenerate and axis.ci is not None:
            out.append(f"**The {axis.axis} interval is degenerate** (zero width): too few statements or uniform "
                       "answers for resampling to vary the result; it is not certainty.")
    flag = acquiescence_flag(agree_share(pct.answers), pct.economic, pct.social)
    if flag:
        out.append(f"**Acquiescence warning** — {flag}: the position may reflect a way of answering rather than "
                   "views.")
    return out


SHORT_WHY = (("no statement on it was answered", "nothing answered"), ("too few", "too few statements answered"),
             ("no interval", "no interval"), ("zero width", "degenerate interval"),
             ("includes 0", "interval includes 0"))


def verdict(pct: PctBlock, ctx: ShowContext) -> str:
    """report.md's summary, in a few words: the quadrant, or per axis why none is named (the detail follows in the
    report's reading)."""
    reading = read_pct_block(pct, ctx.min_coverage, ctx.results.coverage)
    if reading.quadrant is not None:
        return f"quadrant **{reading.quadrant}** (both intervals exclude 0)"
    why = []
    for axis in reading.axes:
        found = axis.why_undecided()
        if found:
            why.append(f"{axis.axis} {next((short for key, short in SHORT_WHY if key in found), found)}")
    return "no quadrant named (" + "; ".join(why) + ")"


def summary(pct: PctBlock, ctx: ShowContext) -> str:
    """`` economic V [L, H], social V [L, H];`` with qualifiers, or `` no position (...);``."""
    return pct_summary(pct, ctx.min_coverage, ctx.results.coverage)


def pct_summary(pct: PctBlock, min_coverage: float, coverage=None) -> str:
    """`` economic V [L, H], social V [L, H];`` with qualifiers, or `` no position (...);``."""
    reading = read_pct_block(pct, min_coverage, coverage)
    if not reading.has_position:
        return f" no position ({reading.quadrant_sentence()[len('No position: '):].rstrip('.')});"
    parts = []
    for axis in reading.axes:
        notes = axis.notes()
        parts.append(f" {axis.axis} {with_ci(axis.value, axis.ci)}" + (f" ({'; '.join(notes)})" if notes else ""))
    text = ",".join(parts) + ";"
    flag = acquiescence_flag(agree_share(pct.answers), pct.economic, pct.social)
    return text + (f" {flag};" if flag else "")


def compare(pct: PctBlock, ctx: ShowContext) -> dict[str, Optional[float]]:
    """``pct_economic``, ``pct_social``: the coordinates ``polibench compare`` ranks."""
    return {f"pct_{axis}": getattr(pct, axis) for axis in PCT_AXES}


def compare_unranked(pct: PctBlock, ctx: ShowContext) -> dict[str, str]:
    """The PCT axes that may not be ranked: no statement answered on the axis, or fewer than
    ``ctx.min_coverage`` of its statements (:mod:`polibench.metrics.position`)."""
    return {f"pct_{axis.axis}": ("no position" if axis.value is None else "insufficient data")
            for axis in read_pct_block(pct, ctx.min_coverage, ctx.results.coverage).axes if not axis.sufficient}


def compare_title(column: str) -> str:
    """pct_economic -> "PCT econ"."""
    return "PCT " + column.removeprefix("pct_").replace("economic", "econ")


def compare_legend(pct: PctBlock, ctx: ShowContext) -> str:
    return "PCT = coordinates"


def compass_plot(pct: PctBlock | dict, stem: Path, title: str) -> list[str]:
    """The political compass of :func:`compass_figure`, saved as PNG and SVG."""
    return plots.save_figure(compass_figure(pct, title), stem)


def compass_figure(pct: PctBlock | dict, title: str):
    """The political compass: quadrants, one faint point per prompt variant, the pooled point with CI bars
    (x = economic, y = social; returns the matplotlib Figure). Axis labels and ranges come from the metric
    registry's description of the PCT estimates."""
    pct = PctBlock.model_validate(pct)
    x_axis, y_axis = get_metric("pct_coordinates").estimates
    figure = plots.blank_figure(5.6, 6.0, left=0.75, bottom=1.0)
    ax = figure.add_subplot()
    draw_quadrants(ax)
    ax.set_xticks(range(-10, 11), minor=True)
    ax.set_yticks(range(-10, 11), minor=True)
    ax.grid(which="both", color="white", linewidth=0.5, alpha=0.7)
    ax.axvline(0, color="black", linewidth=1)
    ax.axhline(0, color="black", linewidth=1)
    variants = pct.per_variant
    variants = {v: c for v, c in variants.items() if c.economic is not None and c.social is not None}
    if len(variants) > 1:
        ax.scatter([c.economic for c in variants.values()], [c.social for c in variants.values()],
                   s=22, color="black", alpha=0.25, label=f"per prompt variant ({len(variants)})", zorder=3)
    x, y = pct.economic, pct.social
    sufficient = read_pct_block(pct).sufficient  # hollow: insufficient data (polibench.metrics.position)
    ax.errorbar([x], [y], xerr=plots.error_bars(x, pct.ci.economic), yerr=plots.error_bars(y, pct.ci.social), fmt="o",
                color="black", markersize=7, capsize=4, elinewidth=1.5, zorder=4,
                markerfacecolor="black" if sufficient else "white",
                label="pooled (95% CI)" if sufficient else "pooled (95% CI; hollow: insufficient data)")
    frame_compass(ax, x_axis, y_axis)
    ax.set_title(title, fontsize=10)
    figure.legend(loc="lower center", ncol=2, fontsize=8, frameon=False)
    return figure


def frame_compass(ax, x_axis, y_axis) -> None:
    """The compass's ranges, equal aspect and axis labels (``x_axis``, ``y_axis``: the PCT metric's estimates)."""
    ax.set_xlim(x_axis.low, x_axis.high)
    ax.set_ylim(y_axis.low, y_axis.high)
    ax.set_aspect("equal")
    ax.set_xlabel(f"{x_axis.key}: {x_axis.negative}  ←  →  {x_axis.positive}")
    ax.set_ylabel(f"{y_axis.key}: {y_axis.negative}  ←  →  {y_axis.positive}")


def draw_quadrants(ax, fontsize: float = 8, label_alpha: Optional[float] = 0.8) -> None:
    """The compass's four coloured quadrants, each labelled at its top (on matplotlib axes ``ax``)."""
    from matplotlib.patches import Rectangle

    for x0, y0, colour, label in QUADRANTS:
        ax.add_patch(Rectangle((x0, y0), 10, 10, facecolor=colour, alpha=0.35, edgecolor="none", zorder=0))
        ax.text(x0 + 5, y0 + 9.3, label, ha="center", va="center", fontsize=fontsize, color="#333333",
                alpha=label_alpha)


# how report.md, `polibench run` and `polibench compare` show the metric (registered by the family)
REPORT = Report(lead=lead, section=section, figures=figures, reading=reading, verdict=verdict, summary=summary,
                compare=compare, compare_unranked=compare_unranked, compare_title=compare_title,
                compare_legend=compare_legend)
