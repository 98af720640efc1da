"""What the report's figures share, drawn with matplotlib's object API (Agg canvas, no pyplot state): a figure
with fixed margins, a figure of horizontal bars one row per name, asymmetric error bars, and saving as PNG and SVG
(through a temporary name and a rename, like every other run file). Each metric draws its own figures in its
report module (its ``figures`` hook), from its block of results.json and a path stem (``run_dir / "<task>_<kind>"``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Optional

from polibench.kit.files import atomic_path
from polibench.metrics.blocks import Interval

FORMATS = ("png", "svg")


def blank_figure(width: float, height: float, left: float, bottom: float, top: float = 0.6, right: float = 0.25):
    """A figure with fixed margins in inches (cheaper to draw than a constrained layout)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height))
    figure.subplots_adjust(left=left / width, bottom=bottom / height, top=1 - top / height, right=1 - right / width)
    FigureCanvasAgg(figure)
    return figure


def bar_rows(stem: Path, names: list[str], row_height: float, draw: Callable[[Any], None], xlim: tuple[float, float],
             xlabel: str, title: str) -> list[str]:
    """Horizontal bars, one row per name (the first on top, ``row_height`` inches each), that ``draw(ax)`` puts on
    the axes (at y = the row's index, with a ``label`` each for the legend under the figure), on ``xlim``; saved
    as ``stem``.png and .svg (:func:`save_figure`)."""
    figure = blank_figure(6.4, 1.5 + row_height * len(names), left=1.5, bottom=0.85)
    ax = figure.add_subplot()
    draw(ax)
    ax.set_yticks(range(len(names)), names)
    ax.set_ylim(len(names) - 0.5, -0.5)  # first row on top
    ax.set_xlim(*xlim)
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=10)
    figure.legend(loc="lower center", ncol=3, fontsize=8, frameon=False)
    return save_figure(figure, stem)


def save_figure(figure, stem: Path) -> list[str]:
    """``figure`` as ``stem.png`` and ``stem.svg`` (each through a temporary file and a rename, without the
    date or software stamps that would make identical figures differ); returns the file names."""
    names = []
    for fmt in FORMATS:
        final = stem.with_name(f"{stem.name}.{fmt}")
        metadata = {"Date": None} if fmt == "svg" else {"Software": None}
        with atomic_path(final) as tmp:
            figure.savefig(tmp, format=fmt, dpi=120, metadata=metadata)
        names.append(final.name)
    return names


def error_bars(value: float, ci: Optional[Interval]) -> Optional[list[list[float]]]:
    """matplotlib's asymmetric error format; a bound on the wrong side of the value counts as zero."""
    if not ci:
        return None
    return [[max(0.0, value - ci[0])], [max(0.0, ci[1] - value)]]
