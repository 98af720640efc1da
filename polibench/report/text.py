"""Small text formatters shared by report.md, the run summary and the metrics' report sections."""

from __future__ import annotations

from typing import Optional


def fmt(value, digits: int = 2) -> str:
    """``+1.23`` for a float, ``–`` for None, the value as text otherwise."""
    if value is None:
        return "–"
    return f"{value:+.{digits}f}" if isinstance(value, float) else str(value)


def with_ci(value, ci, digits: int = 2) -> str:
    """``+1.23 [+0.50, +2.00]``; ``ci`` is an Interval, a ``[low, high]`` pair or None."""
    text = fmt(value, digits)
    return f"{text} [{fmt(ci[0], digits)}, {fmt(ci[1], digits)}]" if ci and value is not None else text


def share(value: Optional[float]) -> str:
    """``12.3%``, or ``–`` for None."""
    return "–" if value is None else f"{100 * value:.1f}%"


def figure_link(names: list[str], alt: str) -> list[str]:
    """Markdown lines showing a figure's PNG and linking its SVG (when drawn)."""
    png = next(n for n in names if n.endswith(".png"))
    svg = next((n for n in names if n.endswith(".svg")), None)
    return [f"![{alt}]({png})", "", f"[{alt} (SVG)]({svg})" if svg else "", ""]
