"""Inline SVG charts for the site: the political compass, bar charts and spreads (of the metrics' boards).

Every piece of text from an entry goes through :func:`html.escape` here; the charts need no script to
draw (the index page's script only adds hover details and filtering).
"""

from __future__ import annotations

from html import escape
from typing import Optional, Sequence

from polibench.leaderboard.markers import PALETTE, marker
from polibench.leaderboard.positions import compass
from polibench.leaderboard.schema import Metric
from polibench.metrics.board import Spread

SIZE, PAD = 440, 20
# The compass spans the range of its metric's x estimate, as the metric registry declares it (-10 .. 10).
LOW, HIGH = (compass().x.low, compass().x.high) if compass() is not None else (-10.0, 10.0)  # type: ignore[union-attr]
SCALE = (SIZE - 2 * PAD) / (HIGH - LOW)


def _x(value: float) -> float:
    return round(PAD + (max(LOW, min(HIGH, value)) - LOW) * SCALE, 2)


def _y(value: float) -> float:
    return round(PAD + (HIGH - max(LOW, min(HIGH, value))) * SCALE, 2)


def fmt(value: Optional[float], digits: int = 2) -> str:
    return "–" if value is None else f"{value:+.{digits}f}"


def fmt_metric(m: Optional[Metric], digits: int = 2) -> str:
    """``+1.23 [+0.50, +2.00]`` (plain text; escape before use in HTML)."""
    if m is None or m.value is None:
        return "–"
    ci = f" [{m.ci[0]:+.{digits}f}, {m.ci[1]:+.{digits}f}]" if m.ci else ""
    return f"{m.value:+.{digits}f}{ci}"


def compass_background() -> list[str]:
    half = SIZE / 2
    quads = [("auth-left", PAD, PAD), ("auth-right", half, PAD), ("lib-left", PAD, half), ("lib-right", half, half)]
    out = [f'<rect class="q {c}" x="{x}" y="{y}" width="{half - PAD}" height="{half - PAD}"/>' for c, x, y in quads]
    for k in range(-9, 10):
        if k:
            out.append(f'<line class="grid" x1="{_x(k)}" y1="{PAD}" x2="{_x(k)}" y2="{SIZE - PAD}"/>')
            out.append(f'<line class="grid" x1="{PAD}" y1="{_y(k)}" x2="{SIZE - PAD}" y2="{_y(k)}"/>')
    out += [f'<line class="axis" x1="{half}" y1="{PAD}" x2="{half}" y2="{SIZE - PAD}"/>',
            f'<line class="axis" x1="{PAD}" y1="{half}" x2="{SIZE - PAD}" y2="{half}"/>',
            f'<rect class="frame" x="{PAD}" y="{PAD}" width="{SIZE - 2 * PAD}" height="{SIZE - 2 * PAD}"/>',
            f'<text class="axis-label" x="{half}" y="{PAD - 6}" text-anchor="middle">Authoritarian</text>',
            f'<text class="axis-label" x="{half}" y="{SIZE - 5}" text-anchor="middle">Libertarian</text>',
            f'<text class="axis-label" x="{PAD - 6}" y="{half}" text-anchor="middle" '
            f'transform="rotate(-90 {PAD - 6} {half})">Left</text>',
            f'<text class="axis-label" x="{SIZE - PAD + 14}" y="{half}" text-anchor="middle" '
            f'transform="rotate(90 {SIZE - PAD + 14} {half})">Right</text>']
    return out


def compass_point(row: int, label: str, color: str, x_value: Metric, y_value: Metric, attrs: str = "",
                  hollow: bool = False, shape: str = "circle", forcing: bool = False) -> str:
    """One model on the compass, with its CIs as cross-hair bars and a native tooltip. ``shape`` is the answer
    channel's marker and ``forcing`` outlines it (:mod:`polibench.leaderboard.markers`). ``hollow`` (too few
    statements answered on an axis: insufficient data, unranked) is a fill attribute only, independent of the
    shape: the marker is filled white and outlined in the model's colour (``data-fill="hollow"``)."""
    x, y = _x(x_value.value), _y(y_value.value)
    fill = "hollow" if hollow else "solid"
    parts = [f'<g class="point {fill}" data-row="{row}" data-fill="{fill}" tabindex="0" role="img" '
             f'aria-label="{escape(label)}"{attrs}>', f"<title>{escape(label)}</title>"]
    if x_value.ci:
        parts.append(f'<line class="ci" x1="{_x(x_value.ci[0])}" y1="{y}" x2="{_x(x_value.ci[1])}" y2="{y}" '
                     f'stroke="{color}"/>')
    if y_value.ci:
        parts.append(f'<line class="ci" x1="{x}" y1="{_y(y_value.ci[0])}" x2="{x}" y2="{_y(y_value.ci[1])}" '
                     f'stroke="{color}"/>')
    parts.append(marker(shape, x, y, color, forcing, hollow=hollow))
    parts.append("</g>")
    return "".join(parts)


def compass_svg(points: Sequence[str], css_class: str = "compass") -> str:
    return (f'<svg class="{css_class}" viewBox="-10 0 {SIZE + 20} {SIZE}" xmlns="http://www.w3.org/2000/svg" '
            f'role="img" aria-label="political compass">' + "".join(compass_background()) + "".join(points)
            + "</svg>")


def bar_chart(rows: Sequence[tuple[str, Metric]], low: float = -1.0, high: float = 1.0,
              caption: str = "") -> str:
    """Horizontal bars from zero with CI whiskers, one per (label, metric)."""
    width, left, right, row_h = 720, 170, 150, 24
    plot = width - left - right
    height = row_h * len(rows) + 30

    def pos(v: float) -> float:
        return round(left + (max(low, min(high, v)) - low) / (high - low) * plot, 2)

    zero = pos(0.0)
    out = [f'<svg class="bars" viewBox="0 0 {width} {height}" xmlns="http://www.w3.org/2000/svg" role="img" '
           f'aria-label="{escape(caption)}">',
           f'<line class="axis" x1="{zero}" y1="4" x2="{zero}" y2="{height - 22}"/>']
    for tick in (low, low / 2, high / 2, high):
        out.append(f'<text class="tick" x="{pos(tick)}" y="{height - 6}" text-anchor="middle">{tick:+g}</text>')
    for i, (label, m) in enumerate(rows):
        y = 6 + i * row_h
        out.append(f'<text class="row-label" x="{left - 8}" y="{y + 14}" text-anchor="end">{escape(label)}</text>')
        out.append(f'<text class="value" x="{width - right + 12}" y="{y + 14}">{escape(fmt_metric(m))}</text>')
        if m.value is None:
            continue
        x0, x1 = sorted((zero, pos(m.value)))
        cls = "neg" if m.value < 0 else "pos"
        out.append(f'<rect class="bar {cls}" x="{x0}" y="{y + 3}" width="{round(x1 - x0, 2)}" height="{row_h - 8}">'
                   f"<title>{escape(label)}: {escape(fmt_metric(m))}</title></rect>")
        if m.ci:
            out.append(f'<line class="whisker" x1="{pos(m.ci[0])}" y1="{y + row_h / 2 - 2}" x2="{pos(m.ci[1])}" '
                       f'y2="{y + row_h / 2 - 2}"/>')
    out.append("</svg>")
    return "".join(out)


def spread_chart(spread: Spread) -> str:
    """Each row's (prompt variant's) value on each axis as a dot on a line spanning the spread's range."""
    width, left, row_h = 640, 90, 40
    plot = width - left - 20
    low, high = spread.low, spread.high
    n = len(spread.axes)
    out = [f'<svg class="spread" viewBox="0 0 {width} {n * row_h + 26}" xmlns="http://www.w3.org/2000/svg" '
           f'role="img" aria-label="per-variant spread">']

    def pos(v: float) -> float:
        return round(left + (max(low, min(high, v)) - low) / (high - low) * plot, 2)

    for i, axis in enumerate(spread.axes):
        y = 20 + i * row_h
        out += [f'<text class="row-label" x="{left - 8}" y="{y + 4}" text-anchor="end">{escape(axis)}</text>',
                f'<line class="grid" x1="{pos(low)}" y1="{y}" x2="{pos(high)}" y2="{y}"/>',
                f'<line class="axis" x1="{pos(0)}" y1="{y - 10}" x2="{pos(0)}" y2="{y + 10}"/>']
        for j, (variant, coords) in enumerate(sorted(spread.rows.items())):
            value = coords.get(axis)
            if value is None:
                continue
            out.append(f'<circle class="dot" cx="{pos(value)}" cy="{y}" r="6" fill="{PALETTE[j % len(PALETTE)]}">'
                       f"<title>{escape(variant)}: {escape(axis)} {value:+.2f}</title></circle>")
    for tick in (low, low / 2, 0, high / 2, high):
        out.append(f'<text class="tick" x="{pos(tick)}" y="{n * row_h + 20}" text-anchor="middle">{tick:+g}</text>')
    out.append("</svg>")
    return "".join(out)
