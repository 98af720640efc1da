"""The site's vocabulary: what a metric contributes to the leaderboard, a :class:`Board` (a run-level metric's: a
:class:`RunBoard`), registered for the metric by its family (:mod:`polibench.leaderboard.boards`).

A board says what the metric adds to a leaderboard entry (``details``: a JSON-able part of the task beside its
``estimates``, extracted from the metric's results block), how the site shows it (columns of the main table, a
2-D position for the compass, a tooltip line, sections of the model page, a tab of its own, a tab drawn from every
entry and the files beside them) and how the task fields of a version-1 entry move into ``estimates`` and
``details``. The leaderboard loops over the registered metrics' boards and names no metric; the built-in boards
live in ``polibench/families/<family>/board.py``.
See docs/architecture.md, "How to write a metric".
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any, Callable, Optional

from pydantic import BaseModel, Field

from polibench.kit.strict import Strict
from polibench.metrics.position import PositionReading


class Value(Strict):
    """A number and, when the run computed one, its confidence interval ``[low, high]``."""

    value: Optional[float] = None
    ci: Optional[list[float]] = Field(None, min_length=2, max_length=2)


def value_of(block: Optional[BaseModel], key: str) -> Optional[Value]:
    """Estimate ``key`` of an estimate ``block`` with its interval (None when the block has no such estimate)."""
    if block is None or key not in type(block).model_fields or not hasattr(block, "estimate"):
        return None
    value, interval = block.estimate(key)
    return Value(value=value, ci=None if interval is None else [interval.low, interval.high])


def stored_values(block: Optional[BaseModel], keys) -> dict[str, dict]:
    """``{key: {value, ci}}`` (as an entry stores them) for each of ``keys`` the estimate ``block`` has."""
    return {key: found.model_dump(mode="json") for key in keys if (found := value_of(block, key)) is not None}


def value_text(found: Optional[Value], digits: int, scale: float = 1.0, unit: str = "") -> str:
    """``found`` as HTML text: the value (times ``scale``, with ``unit``) and its interval in a ``ci`` span; "–"
    without a value."""
    if found is None or found.value is None:
        return "–"
    text = f"{scale * found.value:.{digits}f}{unit}"
    if not found.ci:
        return text
    return text + f' <span class="ci">[{scale * found.ci[0]:.{digits}f}, {scale * found.ci[1]:.{digits}f}]</span>'


def task_cell(task: Any, scored_by: str) -> str:
    """A tab's first cell after the model's: the task's name and what scored it (e.g. "grader", "judge")."""
    return f'<td>{escape(task.name)}<div class="sub">{scored_by} {escape(task.scorer or "?")}</div></td>'


def values(found: Optional[dict]) -> dict[str, Value]:
    """``{key: Value}`` from an entry's ``{key: {value, ci}}`` (a details part as stored in JSON)."""
    return {key: v if isinstance(v, Value) else Value.model_validate(v) for key, v in (found or {}).items()}


@dataclass(frozen=True)
class Column:
    """A column of the main table: the metric's estimate ``key``. A column no row has a value in is left out,
    unless ``always``."""

    key: str
    header: str
    title: str
    always: bool = False


@dataclass(frozen=True)
class Position:
    """The metric places a task on the compass: its estimates ``x`` (left to right) and ``y`` (bottom to top).

    ``reading(estimates, details, coverage)`` judges the position (insufficient data: hollow and unranked; no
    answer on an axis: no point), and ``flag(estimates, details)`` is the text of a warning badge named
    ``flag_badge``, or None. The compass's range and its caption's axis names come from the ``x`` and ``y``
    estimates' declarations (:class:`~polibench.metrics.registry.Estimate`)."""

    x: str
    y: str
    reading: Callable[[dict[str, Value], dict, Any], Optional[PositionReading]]
    flag: Callable[[dict[str, Value], dict], Optional[str]]
    flag_badge: str = "warning"


@dataclass(frozen=True)
class Bars:
    """A bar chart from zero: one bar per (label, value), on ``low`` .. ``high``."""

    title: str
    rows: tuple[tuple[str, Value], ...]
    low: float = -1.0
    high: float = 1.0


@dataclass(frozen=True)
class Spread:
    """Dots on one line per axis, one dot per row (e.g. a prompt variant), on ``low`` .. ``high``."""

    axes: tuple[str, ...]
    rows: dict[str, dict[str, Optional[float]]]
    low: float
    high: float


@dataclass(frozen=True)
class Section:
    """A section of a task on its model page: bar charts, a spread, or (with neither) ``note``."""

    heading: str
    bars: tuple[Bars, ...] = ()
    spread: Optional[Spread] = None
    note: str = ""


@dataclass(frozen=True)
class Tab:
    """A tab of the index page with one table row per task that has the metric's details.

    ``head``: the header cells after "Model" (HTML); ``cells(details, task)``: the row's cells after the model's
    (HTML, every value escaped); ``lead``, ``note``: HTML paragraphs above and under the table; ``missing``: why
    the models named under the table are not in it; ``empty``: what the tab says when no entry has the metric."""

    anchor: str
    title: str
    lead: str
    table_id: str
    head: str
    cells: Callable[[dict, Any], str]
    note: str = ""
    missing: str = ""
    empty: str = ""


@dataclass(frozen=True)
class EntriesTab:
    """A tab of the index page drawn from every entry and the files beside the entries folder (e.g. another
    benchmark's own reading of the same responses): its link says ``title``, its panel ``heading`` and then
    ``html(entries, entries_dir, site)``, with every entry in the site's order and ``entries_dir`` the entries
    folder (None when the page is drawn without one); "" when it has nothing to show (the tab is then left out).

    ``files``: paths relative to the entries folder's parent that the site copies to the same place in itself,
    when they exist (the data the tab shows that is not in an entry, with its licence)."""

    anchor: str
    title: str
    heading: str
    html: Callable[[list[Any], Optional[Path], Site], str]
    files: tuple[str, ...] = ()
    # a primary view: its link comes right after the compass's and is drawn as large
    primary: bool = False
    # a short view shown beside the compass on the first tab (HTML, linking this tab; "" for none)
    headline: Optional[Callable[[list[Any], Optional[Path], Site], str]] = None


@dataclass(frozen=True)
class Board:
    """Everything a metric contributes to the leaderboard; every part is optional.

    - ``details(block, context)``: the JSON-able part of a task entry beside its estimates, under
      ``tasks[].details[<metric name>]`` (an empty dict is left out); ``verify`` recomputes it like the rest;
      ``details_model``: the pydantic model an entry's details of this metric must validate against (so a
      malformed entry is one error naming the field, not a failure while the site is drawn);
    - ``columns``: columns of the main table; ``position``: the compass; ``tooltip``: ``(label, estimate key)``
      lines of a compass point's tooltip;
    - ``sections(details or None, estimates)``: the sections of every task's model page (called also for a task
      without the metric, to say so), placed by ``section_order``;
    - ``tab``: a tab of its own, one row per task; ``entries_tab``: a tab drawn from every entry and the files
      beside them (:class:`EntriesTab`);
    - ``v1(task)``: moves the metric's fixed fields of a version-1 task (removed from ``task``) into
      ``(estimates, details)`` of version 2, the one migration (:func:`polibench.leaderboard.schema.migrate_entry`).
    """

    details: Optional[Callable[[BaseModel, Any], dict]] = None
    details_model: Optional[type[BaseModel]] = None
    columns: tuple[Column, ...] = ()
    position: Optional[Position] = None
    tooltip: tuple[tuple[str, str], ...] = ()
    sections: Optional[Callable[[Optional[dict], dict[str, Value]], list[Section]]] = None
    section_order: int = 0
    tab: Optional[Tab] = None
    entries_tab: Optional[EntriesTab] = None
    v1: Optional[Callable[[dict], tuple[dict, dict]]] = None


@dataclass(frozen=True)
class Site:
    """What the leaderboard lends a board's HTML: ``model_link(entry)``, the link to the model's page with its
    badges (HTML); ``position(task)``, the task's ``(x, y)`` compass estimates (None where none); ``palette``, the
    site's colours in order; ``read_artifact(entries_dir, artifact)``, the uncompressed bytes of a run file
    shipped beside an entry (its ``samples`` or ``results``), checked against the entry's hash."""

    model_link: Callable[[Any], str]
    position: Callable[[Any], tuple[Optional[Value], Optional[Value]]]
    palette: tuple[str, ...] = ()
    read_artifact: Optional[Callable[[Path, Any], bytes]] = None


@dataclass(frozen=True)
class RunTab:
    """A tab of the index page drawn by a run-level metric: its link says ``title``, its panel ``heading`` and then
    ``html(rows, site)``, where ``rows`` is ``(entry, block)`` for every entry (the metric's empty block when the
    entry keeps none), in the site's order."""

    anchor: str
    title: str
    heading: str
    html: Callable[[list[tuple[Any, Any]], Site], str]


@dataclass(frozen=True)
class RunBoard:
    """Everything a run-level metric (:class:`polibench.metrics.run_level.RunMetric`) contributes to the
    leaderboard. A run-level metric with a board keeps its block in the entry, under ``run_metrics[<name>]`` (left
    out when it is the metric's empty block; typed and validated by the metric's registration), recomputed by
    ``verify`` like the rest; every other part is optional:

    - ``tab``: a tab of its own (:class:`RunTab`);
    - ``page(block)``: HTML of the model page, before the task sections (called only when the entry keeps a block);
    - ``v1(entry)``: the block an earlier entry kept in a field of its own (removed from ``entry``, a dict), or
      None; part of the one migration (:func:`polibench.leaderboard.schema.migrate_entry`).
    """

    tab: Optional[RunTab] = None
    page: Optional[Callable[[Any], str]] = None
    v1: Optional[Callable[[dict], Any]] = None


def number_cell(value: Optional[float], ci: Optional[Any] = None, digits: int = 2, sign: bool = True,
                gap: str = "") -> str:
    """A sortable ``<td class="num">`` of ``value`` (``–`` for None) with its interval ``[low, high]`` after ``gap``,
    ``digits`` decimals, signed unless ``sign`` is False."""
    if value is None:
        return '<td class="num" data-value="">–</td>'
    fmt = f"{{:{'+' if sign else ''}.{digits}f}}"
    interval = f'{gap}<span class="ci">[{fmt.format(ci[0])}, {fmt.format(ci[1])}]</span>' if ci else ""
    return f'<td class="num" data-value="{value:.6f}">{fmt.format(value)}{interval}</td>'
