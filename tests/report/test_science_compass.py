"""Where the compass figure puts its points: read back from the matplotlib Figure (not the file size).

x is the economic coordinate (right positive), y the social one (authoritarian positive); the pooled point
carries its 95% interval as error bars; the faint points are the prompt variants.
"""

import numpy as np
import pytest
from matplotlib.collections import LineCollection, PathCollection

from polibench.families.pct.report import compass_figure, compass_plot

PCT = {
    "instrument": "pct", "economic": -3.5, "social": 2.25,
    "ci": {"economic": [-4.75, -2.0], "social": [1.5, 3.0]},
    "per_variant": {"a": {"economic": -4.0, "social": 2.5}, "b": {"economic": -3.0, "social": 1.0},
                    "c": {"economic": 6.0, "social": -7.0}},
}


def _axes(figure):
    (ax,) = figure.axes
    return ax


def _pooled_point(ax) -> tuple[float, float]:
    markers = [line for line in ax.get_lines() if line.get_marker() == "o"]
    assert len(markers) == 1
    xs, ys = markers[0].get_data()
    return float(np.asarray(xs)[0]), float(np.asarray(ys)[0])


def _error_segments(ax) -> list[np.ndarray]:
    return [seg for coll in ax.collections if isinstance(coll, LineCollection) for seg in coll.get_segments()]


def test_pooled_point_is_at_economic_social():
    ax = _axes(compass_figure(PCT, "t"))
    assert _pooled_point(ax) == (-3.5, 2.25)                 # left and authoritarian: upper-left quadrant
    assert ax.get_xlim() == (-10, 10) and ax.get_ylim() == (-10, 10)
    assert "economic" in ax.get_xlabel() and "social" in ax.get_ylabel()


def test_error_bars_span_the_intervals():
    ax = _axes(compass_figure(PCT, "t"))
    segments = [np.asarray(s) for s in _error_segments(ax)]
    horizontal = [s for s in segments if s[0, 1] == s[1, 1]]
    vertical = [s for s in segments if s[0, 0] == s[1, 0]]
    assert len(horizontal) == 1 and len(vertical) == 1
    assert sorted(horizontal[0][:, 0]) == [-4.75, -2.0] and set(horizontal[0][:, 1]) == {2.25}
    assert sorted(vertical[0][:, 1]) == [1.5, 3.0] and set(vertical[0][:, 0]) == {-3.5}


def test_variant_points_are_at_their_coordinates():
    ax = _axes(compass_figure(PCT, "t"))
    (scatter,) = [c for c in ax.collections if isinstance(c, PathCollection)]
    offsets = sorted(map(tuple, np.asarray(scatter.get_offsets()).tolist()))
    assert offsets == sorted([(-4.0, 2.5), (-3.0, 1.0), (6.0, -7.0)])


def test_one_variant_draws_no_variant_points():
    pct = {"instrument": "pct", "economic": 1.0, "social": -2.0, "ci": {},
           "per_variant": {"a": {"economic": 1.0, "social": -2.0}}}
    ax = _axes(compass_figure(pct, "t"))
    assert not [c for c in ax.collections if isinstance(c, PathCollection)]
    assert _pooled_point(ax) == (1.0, -2.0)
    assert not _error_segments(ax)                            # no interval, no bars


@pytest.mark.parametrize("x, y, quadrant", [(-5, 5, "authoritarian left"), (5, 5, "authoritarian right"),
                                            (-5, -5, "libertarian left"), (5, -5, "libertarian right")])
def test_point_and_quadrant_label_share_a_quadrant(x, y, quadrant):
    ax = _axes(compass_figure({"instrument": "pct", "economic": x, "social": y, "ci": {}}, "t"))
    (label,) = [t for t in ax.texts if t.get_text() == quadrant]
    lx, ly = label.get_position()
    px, py = _pooled_point(ax)
    assert (px, py) == (x, y)
    assert np.sign(lx) == np.sign(px) and np.sign(ly) == np.sign(py)


def test_compass_plot_saves_the_figure(tmp_path):
    assert compass_plot(PCT, tmp_path / "c", "t") == ["c.png", "c.svg"]
    assert (tmp_path / "c.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
