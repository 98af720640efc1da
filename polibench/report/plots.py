"""What the report's figures share, drawn with matplotlib's object API (Agg canvas, no pyplot state): a figure
with fixed margins, asymmetric error bars, and saving as PNG and SVG (through a temporary name and a rename,
like every other run file). Each metric draws its own figures in its report module (its ``figures`` hook),
from its block of results.json and a path stem (``run_dir / "<task>_<kind>"``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

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


def error_bars(value: float, ci: Optional[Interval]) -> Optional[list[list[float]]]:
    """matplotlib's asymmetric error format; a bound on the wrong side of the value counts as zero."""
    if not ci:
        return None
    return [[max(0.0, value - ci[0])], [max(0.0, ci[1] - value)]]
