"""Inline SVG charts for the site: bar charts and spreads (of the metrics' boards); the compass is
:mod:`polibench.leaderboard.compass_view`'s.

Every piece of text from an entry goes through :func:`html.escape` here; the charts need no script to
draw (the index page's script only adds hover details and filtering).
"""

from __future__ import annotations

from html import escape
from typing import Optional, Sequence

from polibench.leaderboard.board import Spread
from polibench.leaderboard.markers import PALETTE
from polibench.leaderboard.schema import Metric


def fmt(value: Optional[float], digits: int = 2) -> str:
    return "–" if value is None else f"{value:+.{digits}f}"


def fmt_metric(m: Optional[Metric], digits: int = 2) -> str:
    """``+1.23 [+0.50, +2.00]`` (plain text; escape before use in HTML)."""
    if m is None or m.value is None:
        return "–"
    ci = f" [{m.ci[0]:+.{digits}f}, {m.ci[1]:+.{digits}f}]" if m.ci else ""
    return f"{m.value:+.{digits}f}{ci}"


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
