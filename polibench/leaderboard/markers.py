"""How the compass tells its points apart: one colour per model, one marker shape per answer channel, and an
outline for the runs under forcing instructions (docs/leaderboard.md, "Reading the compass").

Colours: the Okabe-Ito palette without its black, then Paul Tol's colours that stay furthest from it, none of
them near-black (black and a dark navy were told apart by nobody, and black is the colour of the axes and of the
forcing outline); every pair of the first :data:`SAFE_COLOURS` differs by at least 13 CIELAB units with normal
vision and under simulated deuteranopia, protanopia and tritanopia, and none is darker than CIELAB L* 38
(tests/leaderboard/test_leaderboard_legibility.py). A board with more models than that gets the further colours
and then evenly spread hues: still one colour per model, no longer checked for colour-blind readers (the name
beside each point on the compass then carries the difference).
"""

from __future__ import annotations

import colorsys
from typing import Iterable

from polibench.leaderboard.schema import TaskResult
from polibench.scoring.readers import OPEN, READERS

PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442",  # Okabe-Ito, no black
           "#AA3377", "#117733", "#999933",  # Paul Tol's, checked with the above
           "#EE99AA", "#44AA99", "#994455", "#6699CC", "#DDAA33", "#BB5566")  # Paul Tol's, not checked
SAFE_COLOURS = 10



def answer_channels() -> dict[str, tuple[str, str]]:
    """Answer channel -> (marker shape, what the legend calls it): each answer channel of the answer readers'
    registrations (:mod:`polibench.scoring.readers`), in their order, the open-ended channel first."""
    return {c.name: (c.shape, c.label) for c in [OPEN, *(r.channel for r in READERS.values() if r.channel is not None)]}

FORCING_NOTE = "outlined: asked under forcing instructions (Röttger et al.'s *-forcing tasks)"


def model_colours(model_ids: Iterable[str]) -> dict[str, str]:
    """A distinct colour for each model id, in the order given (the board's order)."""
    ids = list(dict.fromkeys(model_ids))
    extra = len(ids) - len(PALETTE)
    spread = [_hue(k / extra) for k in range(extra)] if extra > 0 else []
    return dict(zip(ids, [*PALETTE, *spread]))


def _hue(h: float) -> str:
    r, g, b = colorsys.hls_to_rgb(h, 0.45, 0.75)
    return "#" + "".join(f"{round(255 * c):02X}" for c in (r, g, b))


def channel_of(task: TaskResult) -> str:
    """The answer channel of the task (a name of :func:`answer_channels`): the channel of its variants' answer readers
    when they all share one, else ``open`` (mixed formats, free text, or a task polibench does not ship)."""
    scorings = _variant_scorings().get(task.variant_set, set())
    found_channels = {reader.channel if (reader := READERS.get(s)) is not None else None for s in scorings}
    found = next(iter(found_channels)) if len(found_channels) == 1 else None
    return (found or OPEN).name


def is_forcing(task: TaskResult) -> bool:
    """Asked under Röttger et al.'s forcing instructions (their variant sets are named ``*-forcing``)."""
    return task.variant_set.endswith("-forcing")


_SCORINGS: dict[str, set[str]] = {}


def _variant_scorings() -> dict[str, set[str]]:
    if not _SCORINGS:
        from polibench.taskspec.loader import load_registry

        for name, variant_set in load_registry().variant_sets.items():
            _SCORINGS[name] = {str(v.scoring) for v in variant_set.variants}
    return _SCORINGS


def marker(shape: str, x: float, y: float, colour: str, forcing: bool, r: float = 7.0, hollow: bool = False) -> str:
    """One SVG marker centred on (x, y); ``data-shape`` names it for the legend and the browser test."""
    cls = "marker forcing" if forcing else "marker"
    paint = f'fill="#ffffff" color="{colour}"' if hollow else f'fill="{colour}"'  # hollow: outline = currentColor
    common = f'class="{cls}" data-shape="{shape}" {paint}'
    if shape == "square":
        s = round(r * 0.9, 2)
        return f'<rect {common} x="{round(x - s, 2)}" y="{round(y - s, 2)}" width="{2 * s}" height="{2 * s}"/>'
    if shape == "triangle":
        h = r * 1.25
        base = round(y + h * 0.75, 2)
        points = f"{x},{round(y - h, 2)} {round(x + h, 2)},{base} {round(x - h, 2)},{base}"
        return f'<polygon {common} points="{points}"/>'
    return f'<circle {common} cx="{x}" cy="{y}" r="{r}"/>'


def legend_marker(shape: str, forcing: bool = False, colour: str = "#5d6677", hollow: bool = False) -> str:
    """A marker alone in a small inline SVG, for the legend."""
    return (f'<svg class="swatch shape{" hollow" if hollow else ""}" viewBox="0 0 20 20" aria-hidden="true">'
            f"{marker(shape, 10, 10, colour, forcing, 6, hollow=hollow)}</svg>")
