"""The report's figures, drawn with matplotlib's object API (Agg canvas, no pyplot state), saved as PNG and SVG.

Each function takes one block of results.json and a path stem (``run_dir / "<task>_compass"``) and returns
the file names it wrote. Files are written to a temporary name and renamed, like every other run file.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

FORMATS = ("png", "svg")
QUADRANTS = (  # (x0, y0, colour, label): the political compass's customary colours
    (-10, 0, "#ff7575", "authoritarian left"), (0, 0, "#75a8ff", "authoritarian right"),
    (-10, -10, "#9aed97", "libertarian left"), (0, -10, "#c09aec", "libertarian right"),
)
DIMENSION_COLOURS = {"economic": "#1f77b4", "cultural": "#d62728", "total": "#555555"}
COVERAGE_COLOURS = {"answered_share": "#2ca02c", "unrelated_share": "#ff7f0e", "filtered_share": "#bbbbbb"}


def _figure(width: float, height: float, left: float, bottom: float, top: float = 0.6, right: float = 0.25):
    """A figure with fixed margins in inches (cheaper to draw than a constrained layout)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height))
    figure.subplots_adjust(left=left / width, bottom=bottom / height, top=1 - top / height, right=1 - right / width)
    FigureCanvasAgg(figure)
    return figure


def _save(figure, stem: Path) -> list[str]:
    names = []
    for fmt in FORMATS:
        final = stem.with_name(f"{stem.name}.{fmt}")
        tmp = final.with_name(final.name + ".tmp")
        metadata = {"Date": None} if fmt == "svg" else {"Software": None}
        figure.savefig(tmp, format=fmt, dpi=120, metadata=metadata)
        os.replace(tmp, final)
        names.append(final.name)
    return names


def _errors(value: float, ci: Optional[list]) -> Optional[list[list[float]]]:
    """matplotlib's asymmetric error format; a bound on the wrong side of the value counts as zero."""
    if not ci:
        return None
    return [[max(0.0, value - ci[0])], [max(0.0, ci[1] - value)]]


def compass_plot(pct: dict, stem: Path, title: str) -> list[str]:
    """The political compass of :func:`compass_figure`, saved as PNG and SVG."""
    return _save(compass_figure(pct, title), stem)


def compass_figure(pct: dict, title: str):
    """The political compass: quadrants, one faint point per prompt variant, the pooled point with CI bars
    (x = economic, y = social; returns the matplotlib Figure)."""
    figure = _figure(5.6, 6.0, left=0.75, bottom=1.0)
    ax = figure.add_subplot()
    for x0, y0, colour, label in QUADRANTS:
        ax.add_patch(_rectangle((x0, y0), colour))
        ax.text(x0 + 5, y0 + 9.3, label, ha="center", va="center", fontsize=8, color="#333333", alpha=0.8)
    ax.set_xticks(range(-10, 11), minor=True)
    ax.set_yticks(range(-10, 11), minor=True)
    ax.grid(which="both", color="white", linewidth=0.5, alpha=0.7)
    ax.axvline(0, color="black", linewidth=1)
    ax.axhline(0, color="black", linewidth=1)
    variants = pct.get("per_variant") or {}
    if len(variants) > 1:
        ax.scatter([c["economic"] for c in variants.values()], [c["social"] for c in variants.values()],
                   s=22, color="black", alpha=0.25, label=f"per prompt variant ({len(variants)})", zorder=3)
    ci = pct.get("ci") or {}
    x, y = pct["economic"], pct["social"]
    ax.errorbar([x], [y], xerr=_errors(x, ci.get("economic")), yerr=_errors(y, ci.get("social")), fmt="o",
                color="black", markersize=7, capsize=4, elinewidth=1.5, label="pooled (95% CI)", zorder=4)
    ax.set_xlim(-10, 10)
    ax.set_ylim(-10, 10)
    ax.set_aspect("equal")
    ax.set_xlabel("economic: left  ←  →  right")
    ax.set_ylabel("social: libertarian  ←  →  authoritarian")
    ax.set_title(title, fontsize=10)
    figure.legend(loc="lower center", ncol=2, fontsize=8, frameon=False)
    return figure


def _rectangle(corner: tuple[float, float], colour: str):
    from matplotlib.patches import Rectangle

    return Rectangle(corner, 10, 10, facecolor=colour, alpha=0.35, edgecolor="none", zorder=0)


def prefix_bias_plot(bias: dict, stem: Path, title: str) -> list[str]:
    """Horizontal bars: Faulborn bias per dimension for all responses and for each prefix, with CI bars."""
    rows = {"all prefixes": bias, **(bias.get("per_prefix") or {})}
    names = list(rows)
    figure = _figure(6.4, 1.5 + 0.42 * len(names), left=1.5, bottom=0.85)
    ax = figure.add_subplot()
    height = 0.26
    for offset, dim in zip((-height, 0.0, height), ("economic", "cultural", "total")):
        values, errors = [], [[], []]
        for name in names:
            value = rows[name].get(dim)
            found = _errors(value, (rows[name].get("ci") or {}).get(dim)) if value is not None else None
            values.append(float("nan") if value is None else value)
            errors[0].append(found[0][0] if found else 0.0)
            errors[1].append(found[1][0] if found else 0.0)
        ax.barh([row + offset for row in range(len(names))], values, height=height, color=DIMENSION_COLOURS[dim],
                xerr=errors, error_kw={"elinewidth": 0.8, "capsize": 2}, label=dim)
    for row, name in enumerate(names):
        if all(rows[name].get(dim) is None for dim in ("economic", "cultural", "total")):
            ax.text(0.02, row, "undefined: a side has no counted answer", va="center", fontsize=7, color="#777777")
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(range(len(names)), names)
    ax.set_ylim(len(names) - 0.5, -0.5)  # first row on top
    ax.set_xlim(-1, 1)
    ax.set_xlabel("Faulborn bias   (← left  |  right →)")
    ax.set_title(title, fontsize=10)
    figure.legend(loc="lower center", ncol=3, fontsize=8, frameon=False)
    return _save(figure, stem)


def coverage_plot(coverage: dict, stem: Path, title: str) -> list[str]:
    """Stacked bars: answered / unrelated / filtered share of the responses, overall and per prompt variant."""
    rows = {"all": coverage, **(coverage.get("per_variant") or {})}
    names = list(rows)
    figure = _figure(6.4, 1.5 + 0.32 * len(names), left=1.5, bottom=0.85)
    ax = figure.add_subplot()
    left = [0.0] * len(names)
    for key, colour in COVERAGE_COLOURS.items():
        widths = [rows[n].get(key, 0.0) for n in names]
        ax.barh(range(len(names)), widths, left=left, color=colour, label=key.removesuffix("_share"))
        left = [a + b for a, b in zip(left, widths)]
    ax.set_yticks(range(len(names)), names)
    ax.set_ylim(len(names) - 0.5, -0.5)  # first row on top
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of responses")
    ax.set_title(title, fontsize=10)
    figure.legend(loc="lower center", ncol=3, fontsize=8, frameon=False)
    return _save(figure, stem)
