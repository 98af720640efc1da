"""The compass of the index page, drawn to be read in ten seconds: one point per model for a chosen task, its name
beside it, numbered axes, a plot large enough to separate the models.

Each task with positions is one layer (``g.layer[data-task]``) of one inline SVG; the page's script shows the
chosen task's layer (the one with the most models by default, :func:`default_task`) and, on demand, a second
task's points faint and joined to the first's (another answer channel of the same models). A layer's labels are
placed here, when the page is built (:func:`place_labels`): beside the point where there is room, further out with a
leader line where there is not, never over another label or point of the layer. The chart needs no script to
draw; the script only switches layers and adds hover details.

Every piece of text from an entry goes through :func:`html.escape` here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from html import escape
from typing import Optional, Sequence

from polibench.leaderboard.markers import marker
from polibench.leaderboard.positions import compass
from polibench.leaderboard.schema import Metric

PLOT = 560                      # the plot's side, px (viewBox units; the page scales the SVG to its column)
LEFT, TOP, RIGHT, BOTTOM = 64, 30, 26, 58
WIDTH, HEIGHT = LEFT + PLOT + RIGHT, TOP + PLOT + BOTTOM
LOW, HIGH = (compass().x.low, compass().x.high) if compass() is not None else (-10.0, 10.0)  # type: ignore[union-attr]
TICKS = (-10, -5, 0, 5, 10)
CHAR_W, LINE_H, MARKER_R = 6.9, 13.0, 8.0   # label font 12 px: mean character width, line height; marker radius


def px(value: float) -> float:
    """The x pixel of an economic value, kept within the plot (a coordinate is never drawn off the scale)."""
    return round(LEFT + (max(LOW, min(HIGH, value)) - LOW) / (HIGH - LOW) * PLOT, 2)


def py(value: float) -> float:
    """The y pixel of a social value (up is authoritarian), kept within the plot."""
    return round(TOP + (HIGH - max(LOW, min(HIGH, value))) / (HIGH - LOW) * PLOT, 2)


@dataclass
class CompassPoint:
    """One model's position on one task, as the compass draws it."""

    row: int                    # the row of the table and of the page's data
    model: str
    task: str
    colour: str
    x: Metric
    y: Metric
    label: str                  # the short name written beside the point
    shape: str = "circle"
    forcing: bool = False
    hollow: bool = False        # insufficient data
    flags: list[str] = field(default_factory=list)   # warnings (acquiescence, not answering): marked on the label
    channel: str = "open"
    instruments: str = ""

    @property
    def cx(self) -> float:
        return px(self.x.value)  # type: ignore[arg-type]

    @property
    def cy(self) -> float:
        return py(self.y.value)  # type: ignore[arg-type]

    @property
    def text(self) -> str:
        return self.label + (" ⚠" if self.flags else "")


@dataclass(frozen=True)
class Placed:
    """A label's anchor (x, y of the text baseline), its text-anchor and its box; ``leader``: draw a line to it."""

    x: float
    y: float
    anchor: str
    box: tuple[float, float, float, float]
    leader: bool = False


def short_label(model: str, taken: Sequence[str] = ()) -> str:
    """The name written beside a point: a hub id's last part (``meta-llama/Llama-2-13b-chat-hf`` ->
    ``Llama-2-13b-chat-hf``), the whole id where another model of the board has the same last part."""
    last = model.rstrip("/").rsplit("/", 1)[-1] or model
    return model if sum(1 for m in taken if (m.rstrip("/").rsplit("/", 1)[-1] or m) == last) > 1 else last


def _box(x: float, y: float, anchor: str, width: float) -> tuple[float, float, float, float]:
    left = x if anchor == "start" else x - width if anchor == "end" else x - width / 2
    return (left, y - LINE_H + 3, left + width, y + 3)


def _overlaps(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _inside(box: tuple[float, float, float, float]) -> bool:
    return box[0] >= LEFT + 2 and box[2] <= LEFT + PLOT - 2 and box[1] >= TOP + 2 and box[3] <= TOP + PLOT - 2


CORNERS = (("authoritarian left", LEFT + 8, TOP + 16, "start"),
           ("authoritarian right", LEFT + PLOT - 8, TOP + 16, "end"),
           ("libertarian left", LEFT + 8, TOP + PLOT - 8, "start"),
           ("libertarian right", LEFT + PLOT - 8, TOP + PLOT - 8, "end"))
CORNER_BOXES = tuple(_box(x, y, a, 6.2 * len(t)) for t, x, y, a in CORNERS)  # quadrant names: 11 px text
NEAR = ((11, 4, "start"), (-11, 4, "end"), (0, -12, "middle"), (0, 21, "middle"), (9, -8, "start"),
        (9, 17, "start"), (-9, -8, "end"), (-9, 17, "end"))


def _candidates(cx: float, cy: float, width: float):
    for dx, dy, anchor in NEAR:
        yield Placed(cx + dx, cy + dy, anchor, _box(cx + dx, cy + dy, anchor, width))
    for distance in (26, 40, 56, 74, 96):
        for step in range(16):
            angle = 2 * math.pi * step / 16
            dx, dy = distance * math.cos(angle), distance * math.sin(angle)
            anchor = "start" if dx > 4 else "end" if dx < -4 else "middle"
            x, y = cx + dx, cy + dy + 4
            yield Placed(round(x, 2), round(y, 2), anchor, _box(x, y, anchor, width), leader=True)


def place_labels(points: Sequence[CompassPoint]) -> dict[int, Placed]:
    """Where each point's label goes (by row): the first candidate beside it (right, left, above, below, then
    the diagonals; then further out on circles, with a leader line) whose box is inside the plot and overlaps no
    label placed before it and no marker of the layer. Crowded points choose first; a label that finds no free
    place takes the candidate overlapping the fewest others."""
    markers = {p.row: (p.cx - MARKER_R, p.cy - MARKER_R, p.cx + MARKER_R, p.cy + MARKER_R) for p in points}

    def crowd(p: CompassPoint) -> int:
        return sum(1 for q in points if q is not p and math.hypot(p.cx - q.cx, p.cy - q.cy) < 60)

    placed: dict[int, Placed] = {}
    for point in sorted(points, key=lambda p: (-crowd(p), p.cx, p.cy)):
        width = CHAR_W * len(point.text) + 2
        obstacles = [*(placed[r].box for r in placed), *(box for r, box in markers.items() if r != point.row),
                     *CORNER_BOXES]
        best: Optional[tuple[int, Placed]] = None
        for candidate in _candidates(point.cx, point.cy, width):
            if not _inside(candidate.box):
                continue
            clashes = sum(_overlaps(candidate.box, o) for o in obstacles)
            if clashes == 0:
                best = (0, candidate)
                break
            if best is None or clashes < best[0]:
                best = (clashes, candidate)
        if best is None:  # no candidate inside the plot (a very long name): beside the point, whatever it covers
            anchor = "end" if point.cx > LEFT + PLOT / 2 else "start"
            x = point.cx + (-11 if anchor == "end" else 11)
            best = (0, Placed(x, point.cy + 4, anchor, _box(x, point.cy + 4, anchor, width)))
        placed[point.row] = best[1]
    return placed


def background() -> list[str]:
    """Quadrants, the minor grid, the axes through 0, the frame, numbered ticks and the axis titles."""
    x_axis, y_axis = (compass().x, compass().y) if compass() is not None else (None, None)  # type: ignore[union-attr]
    mid_x, mid_y = px(0), py(0)
    out = [f'<rect class="q auth-left" x="{LEFT}" y="{TOP}" width="{mid_x - LEFT}" height="{mid_y - TOP}"/>',
           f'<rect class="q auth-right" x="{mid_x}" y="{TOP}" width="{LEFT + PLOT - mid_x}" height="{mid_y - TOP}"/>',
           f'<rect class="q lib-left" x="{LEFT}" y="{mid_y}" width="{mid_x - LEFT}" height="{TOP + PLOT - mid_y}"/>',
           f'<rect class="q lib-right" x="{mid_x}" y="{mid_y}" width="{LEFT + PLOT - mid_x}" '
           f'height="{TOP + PLOT - mid_y}"/>']
    for k in range(int(LOW) + 1, int(HIGH)):
        if k:
            out.append(f'<line class="grid" x1="{px(k)}" y1="{TOP}" x2="{px(k)}" y2="{TOP + PLOT}"/>')
            out.append(f'<line class="grid" x1="{LEFT}" y1="{py(k)}" x2="{LEFT + PLOT}" y2="{py(k)}"/>')
    out += [f'<line class="axis" x1="{mid_x}" y1="{TOP}" x2="{mid_x}" y2="{TOP + PLOT}"/>',
            f'<line class="axis" x1="{LEFT}" y1="{mid_y}" x2="{LEFT + PLOT}" y2="{mid_y}"/>',
            f'<rect class="frame" x="{LEFT}" y="{TOP}" width="{PLOT}" height="{PLOT}"/>']
    for tick in TICKS:
        number = "0" if tick == 0 else f"{tick:+d}".replace("-", "−")
        bottom = TOP + PLOT
        out.append(f'<line class="tick-mark" x1="{px(tick)}" y1="{bottom}" x2="{px(tick)}" y2="{bottom + 5}"/>'
                   f'<text class="tick x-tick" x="{px(tick)}" y="{bottom + 19}" text-anchor="middle">{number}</text>')
        out.append(f'<line class="tick-mark" x1="{LEFT - 5}" y1="{py(tick)}" x2="{LEFT}" y2="{py(tick)}"/>'
                   f'<text class="tick y-tick" x="{LEFT - 9}" y="{py(tick) + 4}" text-anchor="end">{number}</text>')
    out += [f'<text class="quadrant-label" x="{x}" y="{y}" text-anchor="{a}">{t}</text>' for t, x, y, a in CORNERS]
    if x_axis is not None and y_axis is not None:
        x_title = f"{x_axis.key}: {x_axis.negative} ← → {x_axis.positive}"
        y_title = f"{y_axis.key}: {y_axis.negative} ← → {y_axis.positive}"
        out.append(f'<text class="axis-title" x="{LEFT + PLOT / 2}" y="{HEIGHT - 12}" text-anchor="middle">'
                   f"{escape(x_title.capitalize())}</text>")
        out.append(f'<text class="axis-title" x="16" y="{TOP + PLOT / 2}" text-anchor="middle" '
                   f'transform="rotate(-90 16 {TOP + PLOT / 2})">{escape(y_title.capitalize())}</text>')
    return out


def point_svg(point: CompassPoint, place: Placed, tooltip: str) -> str:
    """One point: its interval bars (shown on demand), its marker, its label (with a leader line when placed
    away from it). ``data-cx``/``data-cy`` let the script join it to the same model's point on another task."""
    x, y = point.cx, point.cy
    fill = "hollow" if point.hollow else "solid"
    classes = " ".join(["point", fill, *(["flagged"] if point.flags else [])])
    parts = [f'<g class="{classes}" data-row="{point.row}" data-fill="{fill}" data-task="{escape(point.task)}" '
             f'data-instruments="{escape(point.instruments)}" data-model="{escape(point.model)}" '
             f'data-channel="{escape(point.channel)}" data-cx="{x}" data-cy="{y}" tabindex="0" role="img" '
             f'aria-label="{escape(tooltip)}">', f"<title>{escape(tooltip)}</title>"]
    if point.x.ci:
        parts.append(f'<line class="ci" x1="{px(point.x.ci[0])}" y1="{y}" x2="{px(point.x.ci[1])}" y2="{y}" '
                     f'stroke="{point.colour}"/>')
    if point.y.ci:
        parts.append(f'<line class="ci" x1="{x}" y1="{py(point.y.ci[0])}" x2="{x}" y2="{py(point.y.ci[1])}" '
                     f'stroke="{point.colour}"/>')
    if place.leader:
        end_x = place.box[0] if place.anchor == "start" else place.box[2] if place.anchor == "end" else place.x
        end_y = place.y - 4
        parts.append(f'<line class="leader" x1="{x}" y1="{y}" x2="{round(end_x, 2)}" y2="{round(end_y, 2)}"/>')
    parts.append(marker(point.shape, x, y, point.colour, point.forcing, hollow=point.hollow))
    parts.append(f'<text class="label" x="{place.x}" y="{place.y}" text-anchor="{place.anchor}">'
                 f"{escape(point.text)}</text>")
    parts.append("</g>")
    return "".join(parts)


def layer_svg(task: str, points: Sequence[CompassPoint], tooltips: dict[int, str], shown: bool) -> str:
    places = place_labels(points)
    body = "".join(point_svg(p, places[p.row], tooltips.get(p.row, p.model)) for p in points)
    return (f'<g class="layer{"" if shown else " hidden"}" data-task="{escape(task)}" data-points="{len(points)}">'
            f"{body}</g>")


def default_task(layers: dict[str, list[CompassPoint]]) -> Optional[str]:
    """The task shown first: the one with the most models on the compass (the first by name on a tie)."""
    if not layers:
        return None
    return min(layers, key=lambda t: (-len({p.model for p in layers[t]}), t))


def compass_svg(layers: dict[str, list[CompassPoint]], tooltips: dict[int, str], shown: Optional[str]) -> str:
    """The whole compass: the background, then one layer per task (``shown`` visible, the others hidden)."""
    body = "".join(layer_svg(task, points, tooltips, task == shown) for task, points in sorted(layers.items()))
    return (f'<svg class="compass" viewBox="0 0 {WIDTH} {HEIGHT}" xmlns="http://www.w3.org/2000/svg" role="img" '
            f'aria-label="political compass">' + "".join(background()) + f'<g class="joins"></g>{body}</svg>')
