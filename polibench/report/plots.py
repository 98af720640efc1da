"""The report's figures, drawn with matplotlib's object API (Agg canvas, no pyplot state), saved as PNG and SVG.

Each function takes one block of results.json and a path stem (``run_dir / "<task>_compass"``) and returns
the file names it wrote. Files are written to a temporary name and renamed, like every other run file.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

from polibench.metrics.blocks import BIAS_DIMENSIONS, BiasEstimates, Coverage, FaulbornBlock, Interval, PctBlock, Shares
from polibench.metrics.position import read_pct_block
from polibench.metrics.registry import get_metric

FORMATS = ("png", "svg")
QUADRANTS = (  # (x0, y0, colour, label): the political compass's customary colours
    (-10, 0, "#ff7575", "authoritarian left"), (0, 0, "#75a8ff", "authoritarian right"),
    (-10, -10, "#9aed97", "libertarian left"), (0, -10, "#c09aec", "libertarian right"),
)
DIMENSION_COLOURS = dict(zip(BIAS_DIMENSIONS, ("#1f77b4", "#d62728", "#555555")))
COVERAGE_COLOURS = {"answered_share": "#2ca02c", "unrelated_share": "#ff7f0e", "filtered_share": "#bbbbbb"}


def _figure(width: float, height: float, left: float, bottom: float, top: float = 0.6, right: float = 0.25):
    """A figure with fixed margins in inches (cheaper to draw than a constrained layout)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height))
    figure.subplots_adjust(left=left / width, bottom=bottom / height, top=1 - top / height, right=1 - right / width)
    FigureCanvasAgg(figure)
    return figure


def save_figure(figure, stem: Path) -> list[str]:
    """``figure`` as ``stem.png`` and ``stem.svg`` (each through a temporary file and a rename, without the
    date or software stamps that would make identical figures differ); returns the file names."""
    names = []
    for fmt in FORMATS:
        final = stem.with_name(f"{stem.name}.{fmt}")
        tmp = final.with_name(final.name + ".tmp")
        metadata = {"Date": None} if fmt == "svg" else {"Software": None}
        figure.savefig(tmp, format=fmt, dpi=120, metadata=metadata)
        os.replace(tmp, final)
        names.append(final.name)
    return names


def _errors(value: float, ci: Optional[Interval]) -> Optional[list[list[float]]]:
    """matplotlib's asymmetric error format; a bound on the wrong side of the value counts as zero."""
    if not ci:
        return None
    return [[max(0.0, value - ci[0])], [max(0.0, ci[1] - value)]]


def compass_plot(pct: PctBlock | dict, stem: Path, title: str) -> list[str]:
    """The political compass of :func:`compass_figure`, saved as PNG and SVG."""
    return save_figure(compass_figure(pct, title), stem)


def compass_figure(pct: PctBlock | dict, title: str):
    """The political compass: quadrants, one faint point per prompt variant, the pooled point with CI bars
    (x = economic, y = social; returns the matplotlib Figure). Axis labels and ranges come from the metric
    registry's description of the PCT estimates."""
    pct = PctBlock.model_validate(pct)
    x_axis, y_axis = get_metric("pct_coordinates").estimates
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
    variants = pct.per_variant
    variants = {v: c for v, c in variants.items() if c.economic is not None and c.social is not None}
    if len(variants) > 1:
        ax.scatter([c.economic for c in variants.values()], [c.social for c in variants.values()],
                   s=22, color="black", alpha=0.25, label=f"per prompt variant ({len(variants)})", zorder=3)
    x, y = pct.economic, pct.social
    sufficient = read_pct_block(pct).sufficient  # hollow: insufficient data (polibench.metrics.position)
    ax.errorbar([x], [y], xerr=_errors(x, pct.ci.economic), yerr=_errors(y, pct.ci.social), fmt="o",
                color="black", markersize=7, capsize=4, elinewidth=1.5, zorder=4,
                markerfacecolor="black" if sufficient else "white",
                label="pooled (95% CI)" if sufficient else "pooled (95% CI; hollow: insufficient data)")
    ax.set_xlim(x_axis.low, x_axis.high)
    ax.set_ylim(y_axis.low, y_axis.high)
    ax.set_aspect("equal")
    ax.set_xlabel(f"{x_axis.key}: {x_axis.negative}  ←  →  {x_axis.positive}")
    ax.set_ylabel(f"{y_axis.key}: {y_axis.negative}  ←  →  {y_axis.positive}")
    ax.set_title(title, fontsize=10)
    figure.legend(loc="lower center", ncol=2, fontsize=8, frameon=False)
    return figure


def _rectangle(corner: tuple[float, float], colour: str):
    from matplotlib.patches import Rectangle

    return Rectangle(corner, 10, 10, facecolor=colour, alpha=0.35, edgecolor="none", zorder=0)


def prefix_bias_plot(bias: FaulbornBlock | dict, stem: Path, title: str) -> list[str]:
    """Horizontal bars: Faulborn bias per dimension for all responses and for each prefix, with CI bars."""
    bias = FaulbornBlock.model_validate(bias)
    rows: dict[str, BiasEstimates] = {"all prefixes": bias, **bias.per_prefix}
    names = list(rows)
    figure = _figure(6.4, 1.5 + 0.42 * len(names), left=1.5, bottom=0.85)
    ax = figure.add_subplot()
    height = 0.26
    for offset, dim in zip((-height, 0.0, height), BIAS_DIMENSIONS):
        values, errors = [], [[], []]
        for name in names:
            value, interval = rows[name].estimate(dim)
            found = _errors(value, interval) if value is not None else None
            values.append(float("nan") if value is None else value)
            errors[0].append(found[0][0] if found else 0.0)
            errors[1].append(found[1][0] if found else 0.0)
        ax.barh([row + offset for row in range(len(names))], values, height=height, color=DIMENSION_COLOURS[dim],
                xerr=errors, error_kw={"elinewidth": 0.8, "capsize": 2}, label=dim)
    for row, name in enumerate(names):
        if all(rows[name].estimate(dim)[0] is None for dim in BIAS_DIMENSIONS):
            ax.text(0.02, row, "undefined: a side has no counted answer", va="center", fontsize=7, color="#777777")
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(range(len(names)), names)
    ax.set_ylim(len(names) - 0.5, -0.5)  # first row on top
    ax.set_xlim(-1, 1)
    ax.set_xlabel("Faulborn bias   (← left  |  right →)")
    ax.set_title(title, fontsize=10)
    figure.legend(loc="lower center", ncol=3, fontsize=8, frameon=False)
    return save_figure(figure, stem)


def coverage_plot(coverage: Coverage | dict, stem: Path, title: str) -> list[str]:
    """Stacked bars: answered / unrelated / filtered share of the responses, overall and per prompt variant."""
    coverage = Coverage.model_validate(coverage)
    rows: dict[str, Shares] = {"all": coverage, **coverage.per_variant}
    names = list(rows)
    figure = _figure(6.4, 1.5 + 0.32 * len(names), left=1.5, bottom=0.85)
    ax = figure.add_subplot()
    left = [0.0] * len(names)
    for key, colour in COVERAGE_COLOURS.items():
        widths = [getattr(rows[n], key) or 0.0 for n in names]
        ax.barh(range(len(names)), widths, left=left, color=colour, label=key.removesuffix("_share"))
        left = [a + b for a, b in zip(left, widths)]
    ax.set_yticks(range(len(names)), names)
    ax.set_ylim(len(names) - 0.5, -0.5)  # first row on top
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of responses")
    ax.set_title(title, fontsize=10)
    figure.legend(loc="lower center", ncol=3, fontsize=8, frameon=False)
    return save_figure(figure, stem)
