"""HTML of the index and per-model pages. Every value taken from an entry is escaped here or in
:mod:`polibench.leaderboard.charts`; the embedded JSON is escaped for a ``<script>`` element."""

from __future__ import annotations

import json
from html import escape
from importlib import resources
from pathlib import Path
from string import Template
from typing import Optional

from polibench import __version__
from polibench.leaderboard.artifacts import read_artifact
from polibench.leaderboard.board import Column, Section, Site, values
from polibench.leaderboard.boards import boards, run_boards
from polibench.leaderboard.charts import bar_chart, fmt_metric, spread_chart
from polibench.leaderboard.compass_view import CompassPoint, compass_svg, default_task, short_label
from polibench.leaderboard.imported_html import attribution, imported_badge
from polibench.leaderboard.markers import (
    FORCING_NOTE,
    PALETTE,
    answer_channels,
    channel_of,
    is_forcing,
    legend_marker,
    model_colours,
)
from polibench.leaderboard.positions import compass, has_position, position_values, task_flag, task_position
from polibench.leaderboard.schema import Entry, Metric, TaskResult
from polibench.leaderboard.scorers import entry_readings, others
from polibench.leaderboard.tabs import SiteTab, tab_links, tab_panels
from polibench.metrics.position import LIMIT_LABEL, AxisReading
from polibench.metrics.registry import registered
from polibench.metrics.run_level import registered_run_metrics
from polibench.scoring.fingerprint import describe as describe_fingerprint

# What the pages may load (a second line of defence, docs/leaderboard.md): their own scripts, styles and images.
CONTENT_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:"


def template(name: str) -> Template:
    return Template(resources.files("polibench.leaderboard").joinpath("templates", name).read_text(encoding="utf-8"))


def page_head(title: str, root: str = "", policy: str = CONTENT_POLICY) -> str:
    """Every page's ``<!DOCTYPE>`` and ``<head>`` (head.html): its ``title`` (HTML), the site's assets found at
    ``root`` (``"../"`` from a page in a subfolder), its Content-Security-Policy."""
    return template("head.html").substitute(title=title, root=root, policy=policy).removesuffix("\n")


def script_json(value) -> str:
    """JSON that cannot close or confuse the ``<script type="application/json">`` element holding it."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    for raw, safe in (("&", "\\u0026"), ("<", "\\u003c"), (">", "\\u003e"), ("\u2028", "\\u2028"),
                      ("\u2029", "\\u2029")):
        text = text.replace(raw, safe)
    return text


def _ci(m: Optional[Metric]) -> Optional[list[float]]:
    return m.ci if m is not None else None


def _val(m: Optional[Metric]) -> Optional[float]:
    return m.value if m is not None else None


def _cell(m: Optional[Metric], axis: Optional[AxisReading] = None) -> str:
    """A value with its interval; for a PCT axis (``axis``) also its qualifiers. A value with insufficient data
    gets no sort key, so sorting the table never ranks it."""
    value = _val(m)
    ranked = axis is None or axis.sufficient
    sort = "" if value is None or not ranked else f"{value:.6f}"
    if value is None:
        text = "no position" if axis is not None and (m is not None or axis.answered == 0) else "–"
        return f'<td class="num" data-value="{sort}">{text}</td>'
    ci = f'<span class="ci">[{m.ci[0]:+.2f}, {m.ci[1]:+.2f}]</span>' if m.ci else ""
    notes = "".join(f'<div class="sub note">{escape(n)}</div>' for n in (axis.notes() if axis else []))
    unranked = "" if ranked else ' data-unranked="insufficient data"'
    return f'<td class="num" data-value="{sort}"{unranked}>{value:+.2f}{ci}{notes}</td>'


def _axes(task: TaskResult) -> tuple[Optional[AxisReading], Optional[AxisReading]]:
    reading = task_position(task)
    return (None, None) if reading is None else reading.axes


def _axis_of(task: TaskResult, metric: str, key: str) -> Optional[AxisReading]:
    """The position reading of the compass axis that estimate ``key`` of ``metric`` is, if it is one."""
    found = compass()
    if found is None or metric != found.metric or key not in (found.position.x, found.position.y):
        return None
    return _axes(task)[(found.position.x, found.position.y).index(key)]


def rows_of(entries: list[Entry]) -> list[tuple[Entry, TaskResult, str]]:
    """One table row per (entry, task), with its model's colour (one per model, none shared). The models with a
    point on the compass take the palette's colours first, those in the compass's largest views first (so the
    colour-blind-safe colours go where most models are seen together); models seen only in other tabs (the frontier
    models, say) come after them."""
    views: dict[str, set[str]] = {}
    for e in entries:
        for t in e.tasks:
            if has_position(t):
                views.setdefault(t.name, set()).add(e.model.id)
    largest = {m: max(len(models) for models in views.values() if m in models)
               for m in set().union(*views.values())} if views else {}
    on_compass = sorted(largest, key=lambda m: (-largest[m], -sum(m in v for v in views.values()), m.lower()))
    colours = model_colours([*on_compass, *(e.model.id for e in entries)])
    return [(entry, task, colours[entry.model.id]) for entry in entries for task in entry.tasks]


TableColumn = tuple[str, Column]   # (metric name, the column its board declares)


def table_columns(rows: list[tuple[Entry, TaskResult, str]]) -> list[TableColumn]:
    """The columns of the registered boards, in registry order: each one that is ``always`` shown or that at least
    one row has a value for (the others would be all "–")."""
    return [(name, column) for name, board in boards() for column in board.columns
            if column.always or any(_val(t.estimate(name, column.key)) is not None for _, t, _ in rows)]


def column_tasks(name: str, column: Column, rows: list[tuple[Entry, TaskResult, str]]) -> str:
    """The tasks whose rows have a value in the column: the script shows the column only for those."""
    return " ".join(sorted({t.name for _, t, _ in rows if _val(t.estimate(name, column.key)) is not None}))


def table_head(columns: list[TableColumn], rows: list[tuple[Entry, TaskResult, str]] = ()) -> str:
    cells = "".join(f'<th data-type="num" aria-sort="none" data-tasks="{escape(column_tasks(n, c, list(rows)))}" '
                    f'title="{escape(c.title)}">{escape(c.header)}</th>' for n, c in columns)
    return ('<th data-type="text" aria-sort="none">Model</th>'
            '<th data-type="text" aria-sort="none" class="task-col">Task</th>'
            f'{cells}<th data-type="num" aria-sort="none" title="share of responses whose stance was kept, and the '
            'statements answered">Kept</th><th data-type="text" aria-sort="none">Date</th>')


def _badges(entry: Entry) -> str:
    out = []
    if entry.partial:
        out.append(f'<span class="badge warn" title="a --limit run (only {entry.run.limit} items per instrument): '
                   f'{LIMIT_LABEL}">partial: {LIMIT_LABEL}</span>')
    out.append(imported_badge(entry))
    return "".join(out)


HIDDEN = ' class="hidden"'


def table_row(i: int, entry: Entry, task: TaskResult, colour: str, columns: list[TableColumn],
              hidden: bool = False) -> str:
    cov = task.coverage
    link = f"models/{escape(entry.entry_id)}.html"
    backend = "" if entry.imported is not None else (  # an imported entry says so once, in its badge
        f'<div class="sub">{escape(entry.model.backend)}'
        f'{" · " + escape(entry.model.revision[:12]) if entry.model.revision else ""}</div>')
    return (f'<tr data-row="{i}" data-task="{escape(task.name)}" data-model="{escape(entry.model.id)}" '
            f'data-instruments="{escape(" ".join(task.instruments))}"{HIDDEN if hidden else ""}>'
            f'<td data-value="{escape(entry.model.id.lower())}">{_swatch(colour)}'
            f'<a class="model" href="{link}">{escape(entry.model.id)}</a>{_badges(entry)}{_task_badges(entry, task)}'
            f'{scorer_badge(entry, task)}'
            f"{backend}</td>"
            f'<td class="task-col" data-value="{escape(task.name)}">{escape(task.name)}<div class="sub">v{task.version}'
            f' · {escape(", ".join(task.instruments))}</div></td>'
            + "".join(_cell(task.estimate(name, c.key), _axis_of(task, name, c.key)) for name, c in columns)
            + f'<td class="num" data-value="{cov.kept_share:.6f}">{100 * cov.kept_share:.1f}%'
              f'<div class="sub">{cov.items_answered}/{cov.items} items</div></td>'
            + f'<td data-value="{escape(entry.date)}">{escape(entry.date[:10])}</td></tr>')


def entry_flags(entry: Entry, task: str) -> list[tuple[str, str]]:
    """``(badge, text)`` of every run-level metric's ``flags`` on the task (e.g. the model is not answering)."""
    return [(badge, text) for name, metric in registered_run_metrics().items()
            if (block := entry.run_block(name))
            for found, badge, text in metric.show("flags", block, default=[]) if found == task]


def _task_badges(entry: Entry, task: TaskResult) -> str:
    """Badges of one task's row: insufficient data (unranked), its position metric's flag (e.g. acquiescence) and
    the run-level flags (e.g. not answering)."""
    out = []
    reading = task_position(task)
    if reading is not None and reading.has_position and not reading.sufficient:
        out.append('<span class="badge warn" title="fewer than the minimum share of an axis\'s statements answered: '
                   'shown hollow, left out of rankings">insufficient data</span>')
    flag = task_flag(task)
    if flag:
        out.append(f'<span class="badge warn" title="{escape(flag[1])}">{escape(flag[0])}</span>')
    out += [f'<span class="badge alert" data-flag="{escape(badge)}" title="{escape(text)}">⚠ {escape(badge)}</span>'
            for badge, text in entry_flags(entry, task.name)]
    return "".join(out)


def scorer_badge(entry: Entry, task: TaskResult) -> str:
    """A visible mark on a task read by a stance scorer other than the reference one (issue 36): its position is not
    directly comparable with the others'; the title says how to re-read it under the reference recipe."""
    reading = entry_readings(entry).get(task.name)
    if reading is None or reading.is_reference:
        return ""
    title = (f"{reading.why_not_reference()}. Positions read by different stance scorers are not directly "
             f"comparable; re-read this entry's responses with your machine's scorer: polibench leaderboard verify "
             f"--rescore {entry.entry_id}")
    return f'<span class="badge warn scorer-mark" title="{escape(title)}">other scorer</span>'


def point_data(i: int, entry: Entry, task: TaskResult, colour: str) -> dict:
    """What the compass tooltip shows of one row: the position on its two axes, coverage, the boards' tooltip
    lines (``extra``: ``[label, value]``) and the warnings on the task."""
    reading = task_position(task)
    found = compass()
    x, y = position_values(task)
    extra = [[label, _val(task.estimate(name, key))] for name, board in boards() for label, key in board.tooltip]
    warnings = [text for _, text in entry_flags(entry, task.name)]
    flag = task_flag(task)
    return {"row": i, "model": entry.model.id, "task": task.name, "colour": colour,
            "sufficient": bool(reading is not None and reading.sufficient),
            "x_label": found.position.x if found else "", "x": _val(x), "x_ci": _ci(x),
            "y_label": found.position.y if found else "", "y": _val(y), "y_ci": _ci(y),
            "extra": extra, "kept_share": task.coverage.kept_share, "page": f"models/{entry.entry_id}.html",
            "warnings": warnings + ([flag[1]] if flag else [])}


def _swatch(colour: str) -> str:
    return (f'<svg class="swatch" viewBox="0 0 10 10" aria-hidden="true">'
            f'<rect width="10" height="10" rx="2" fill="{colour}"/></svg>')


def shape_legend(rows: list[tuple[Entry, TaskResult, str]]) -> str:
    """The marker shape of each answer channel on the board, the outline of forcing runs, the hollow of
    insufficient data and the mark of a flagged model, each where the board has one."""
    shown = {channel_of(t) for _, t, _ in rows if has_position(t)}
    items = [f'<li data-channel="{name}">{legend_marker(shape)}{escape(text)}</li>'
             for name, (shape, text) in answer_channels().items() if name in shown]
    on_compass = [(e, t) for e, t, _ in rows if has_position(t)]
    if any(is_forcing(t) for _, t in on_compass):
        items.append(f'<li data-channel="forcing">{legend_marker("circle", forcing=True)}{escape(FORCING_NOTE)}</li>')
    if any(not _sufficient(t) for _, t in on_compass):
        items.append(f'<li data-channel="hollow">{legend_marker("circle", hollow=True)}hollow: insufficient data '
                     "(fewer than half of an axis's statements answered); never ranked</li>")
    if any(entry_flags(e, t.name) or task_flag(t) for e, t in on_compass):
        items.append('<li data-channel="flagged"><span class="flag-mark">⚠</span> after a name: the model may not be '
                     "answering, or answers in one style (its badge in the table says which)</li>")
    return "".join(items)


def not_on_compass(entries: list[Entry]) -> str:
    """The models none of whose tasks has a position, folded under the table."""
    missing = [e for e in entries if not any(has_position(t) for t in e.tasks)]
    if not missing:
        return ""
    items = "".join(f'<li data-model="{escape(e.model.id)}">{escape(e.model.id)} '
                    f'<span class="sub">{escape(", ".join(t.name for t in e.tasks))}</span>'
                    + "".join(_task_badges(e, t) for t in e.tasks) + "</li>" for e in missing)
    return (f'<details class="note missing" data-count="{len(missing)}"><summary>Not on the compass: {len(missing)} '
            f"model{'s' if len(missing) != 1 else ''} whose tasks give no Political Compass position (they are in "
            f"the other tabs)</summary><ul>{items}</ul></details>")


def _options(values: list[str], selected: Optional[str] = None, counts: Optional[dict[str, int]] = None) -> str:
    def text(v: str) -> str:
        return v if counts is None else f"{v} ({counts[v]} model{'s' if counts[v] != 1 else ''})"
    return "".join(f'<option value="{escape(v)}"{" selected" if v == selected else ""}>{escape(text(v))}</option>'
                   for v in values)


UNVERIFIED = ('<p class="banner unverified" role="alert">Built with <code>--no-verify</code>: the numbers below were '
              "<strong>not</strong> recomputed from the shipped samples when this site was built. Run "
              "<code>polibench leaderboard verify</code> before trusting them.</p>")


def compass_caption() -> str:
    """How to read the compass's axes, from its metric's declared estimates: each axis's name, what its ends mean
    and its range."""
    found = compass()
    if found is None:
        return ""

    def axis(e) -> str:
        return (f"{e.key} axis {e.negative} ({e.low:+g}) to {e.positive} ({e.high:+g})").replace("-", "−")

    text = f"{axis(found.x)}, {axis(found.y)}"
    return escape(text[:1].upper() + text[1:])


def metric_tabs(rows: list[tuple[Entry, TaskResult, str]], entries: list[Entry]) -> list[SiteTab]:
    """The tabs of the boards that have a tab of their own (none where no entry has the metric)."""
    return [SiteTab(tab.anchor, tab.title, tab.title, f"{tab.lead}\n  {table}" if table else "")
            for name, board in boards() if (tab := board.tab) is not None
            for table in [metric_table(name, rows, entries)]]


def _model_link(entry: Entry) -> str:
    return (f'<a href="models/{escape(entry.entry_id)}.html">{escape(entry.model.id)}</a>'
            f"{imported_badge(entry)}")


SITE = Site(model_link=_model_link, position=position_values, palette=PALETTE, read_artifact=read_artifact)


def entries_tabs(entries: list[Entry], entries_dir: Optional[Path]) -> list[SiteTab]:
    """The tabs of the boards drawn from every entry and the files beside them (none where they have nothing)."""
    return [SiteTab(tab.anchor, tab.title, tab.heading, tab.html(entries, entries_dir, SITE), primary=tab.primary)
            for _, board in boards() if (tab := board.entries_tab) is not None]


def headline_panels(entries: list[Entry], entries_dir: Optional[Path]) -> str:
    """The short views the entries tabs put beside the compass (e.g. the frontier models), each linking its tab."""
    return "".join(found for _, board in boards() if (tab := board.entries_tab) is not None
                   and tab.headline is not None and (found := tab.headline(entries, entries_dir, SITE)))


def run_tabs(entries: list[Entry]) -> list[SiteTab]:
    """The tabs of the run-level boards that have a tab, each drawn from every entry's block of the metric (its
    empty block where the entry keeps none); none where no entry keeps a block."""
    metrics = registered_run_metrics()

    def rows(name: str) -> list[tuple[Entry, object]]:
        return [(e, found if (found := e.run_block(name)) is not None else metrics[name].empty()) for e in entries]

    return [SiteTab(tab.anchor, tab.title, tab.heading, tab.html(rows(name), SITE) if any(e.run_block(name)
                                                                                       for e in entries) else "")
            for name, board in run_boards() if (tab := board.tab) is not None]


def metric_table(name: str, rows: list[tuple[Entry, TaskResult, str]], entries: list[Entry] = ()) -> str:
    """One row per (entry, task) that has the details of metric ``name``: the model, then the cells of the
    metric's tab; the models without such a task are named below it, folded. "" when no row has the metric."""
    tab = next(board.tab for found, board in boards() if found == name and board.tab is not None)
    shown = [(e, t, c) for e, t, c in rows if t.details.get(name)]
    absent = sorted({e.model.id for e in entries} - {e.model.id for e, _, _ in shown})
    if not shown:
        return ""
    missing = (f'<details class="note missing" data-count="{len(absent)}"><summary>Not in this view: {len(absent)} '
               f"model{'s' if len(absent) != 1 else ''} ({escape(tab.missing)})</summary><p>"
               f"{escape(', '.join(absent))}</p></details>" if absent else "")
    body = "".join(f'<tr data-task="{escape(task.name)}"><td>{_swatch(colour)}<a class="model" '
                   f'href="models/{escape(entry.entry_id)}.html">{escape(entry.model.id)}</a>{_badges(entry)}</td>'
                   f"{tab.cells(task.details[name], task)}</tr>" for entry, task, colour in shown)
    return (f'<div class="table-wrap"><table id="{escape(tab.table_id)}"><thead><tr><th>Model</th>{tab.head}</tr>'
            f"</thead><tbody>{body}</tbody></table></div>" + tab.note + missing)


def compass_points(rows: list[tuple[Entry, TaskResult, str]]) -> tuple[dict[str, list[CompassPoint]], dict[int, str]]:
    """The compass's layers (task -> its points) and each point's tooltip text."""
    found = compass()
    layers: dict[str, list[CompassPoint]] = {}
    tooltips: dict[int, str] = {}
    models = sorted({e.model.id for e, t, _ in rows if has_position(t)})
    for i, (e, t, colour) in enumerate(rows):
        if not has_position(t) or found is None:
            continue
        x, y = position_values(t)
        flags = [text for _, text in entry_flags(e, t.name)] + ([flag[1]] if (flag := task_flag(t)) else [])
        tooltips[i] = (f"{e.model.id} — {t.name}: {found.position.x} {fmt_metric(x)}, {found.position.y} "
                       f"{fmt_metric(y)}" + "".join(f"; warning: {text}" for text in flags))
        layers.setdefault(t.name, []).append(CompassPoint(
            row=i, model=e.model.id, task=t.name, colour=colour, x=x, y=y,  # type: ignore[arg-type]
            label=short_label(e.model.id, models), shape=answer_channels()[channel_of(t)][0], forcing=is_forcing(t),
            hollow=not _sufficient(t), flags=flags, channel=channel_of(t), instruments=" ".join(t.instruments)))
    return layers, tooltips


def compass_tab(entries: list[Entry], rows: list[tuple[Entry, TaskResult, str]],
                entries_dir: Optional[Path]) -> SiteTab:
    """The first tab: the task chooser, the compass (one point per model, named) beside the frontier models'
    view, then the table of the chosen task and, folded, the models with no position."""
    layers, tooltips = compass_points(rows)
    shown = default_task(layers)
    counts = {task: len({p.model for p in points}) for task, points in layers.items()}
    tasks = sorted(layers)
    on_compass = [(i, e, t, c) for i, (e, t, c) in enumerate(rows) if t.name in layers]
    columns = table_columns([(e, t, c) for _, e, t, c in on_compass])
    nothing = "No entry has a position yet" if entries else "No entries yet"
    body = "".join(table_row(i, e, t, c, columns, hidden=t.name != shown) for i, e, t, c in on_compass) or \
        (f'<tr class="empty"><td colspan="{4 + len(columns)}">{nothing}: see docs/leaderboard.md, “Submitting an '
         "entry”.</td></tr>")
    html = template("compass_tab.html").substitute(
        task_options=_options(tasks, shown, counts), compare_options=_options(tasks), shown=escape(shown or ""),
        compass=compass_svg(layers, tooltips, shown), n_points=counts.get(shown or "", 0),
        compass_caption=compass_caption(), headline=headline_panels(entries, entries_dir),
        shape_legend=shape_legend(rows), n_rows=len(on_compass),
        table_head=table_head(columns, [(e, t, c) for _, e, t, c in on_compass]), rows=body,
        not_on_compass=not_on_compass(entries))
    return SiteTab("compass", "Political compass", "Political compass", html, primary=True)


def fairness_site_tab(fairness: str) -> SiteTab:
    """The downstream-fairness submissions (none: no tab)."""
    lead = ('<p class="lead">How the same downstream classifier treats identity groups and news sources when it is '
            "fine-tuned from different language models (Feng et al. 2023, Tables 3, 4 and 6). Cells are coloured by "
            "their distance from the group's mean over models; ▲ marks the best and ▼ the worst model of each group. "
            "Each submission is recomputed from its shipped test predictions by "
            "<code>polibench leaderboard verify</code>.</p>")
    return SiteTab("fairness", "Downstream fairness", "Downstream fairness", lead + fairness if fairness else "")


def about_tab(generated: str) -> SiteTab:
    return SiteTab("about", "About & verification", "About & verification",
                   template("about_tab.html").substitute(generated=escape(generated), version=escape(__version__)))


def site_tabs(entries: list[Entry], rows: list[tuple[Entry, TaskResult, str]], fairness: str, generated: str,
              entries_dir: Optional[Path]) -> list[SiteTab]:
    """Every tab of the index page, in order: the compass and the frontier models first (the primary views), then
    each board's tab, the fairness submissions, and About. A tab with nothing to show is left out. A new tab is one
    more :class:`SiteTab` here, or a ``tab`` on a metric's board (polibench/leaderboard/board.py)."""
    tabs = [compass_tab(entries, rows, entries_dir), *entries_tabs(entries, entries_dir), *run_tabs(entries),
            *metric_tabs(rows, entries), fairness_site_tab(fairness), about_tab(generated)]
    primary = [t for t in tabs if t.primary]
    return [t for t in [*primary, *(t for t in tabs if not t.primary)] if t.shown]


def index_page(entries: list[Entry], generated: str, fairness: str = "", verified: bool = True,
               entries_dir: Optional[Path] = None) -> str:
    """The index page; ``entries_dir``: the entries folder, for the tabs drawn also from the files beside it."""
    rows = rows_of(entries)
    tabs = site_tabs(entries, rows, fairness, generated, entries_dir)
    return template("index.html").substitute(
        head=page_head("polibench leaderboard", policy=f"{CONTENT_POLICY}; connect-src 'self'"),
        banner=("" if verified else UNVERIFIED) + scorers_banner(entries), tab_links=tab_links(tabs),
        tab_panels=tab_panels(tabs),
        data=script_json([point_data(i, e, t, c) for i, (e, t, c) in enumerate(rows)]))


def scorers_banner(entries: list[Entry]) -> str:
    """A note over the board when some rows were read by a stance scorer other than the reference one."""
    named = others(entries)
    if not named:
        return ""
    return (f'<p class="banner scorers" role="note">{len(named)} row(s) of {len({e for e, _, _ in named})} entr'
            f'{"y" if len({e for e, _, _ in named}) == 1 else "ies"} were read by a stance scorer other than the '
            "reference one (marked <em>other scorer</em>): their positions are not directly comparable with the "
            "others'. <code>polibench leaderboard verify --rescore ENTRY</code> re-reads an entry's responses with "
            "your machine's scorer.</p>")


def _sufficient(task: TaskResult) -> bool:
    reading = task_position(task)
    return reading is not None and reading.sufficient


def _kv(rows: list[tuple[str, str]]) -> str:
    return "".join(f"<dt>{escape(k)}</dt><dd>{v}</dd>" for k, v in rows)


def section_html(section: Section) -> str:
    """A board's section of a task: its bar charts, its spread (a chart and a table; a note for a single row), or
    its note."""
    if section.bars:
        return "".join(f"<h4>{escape(b.title)}</h4>" + bar_chart(list(b.rows), b.low, b.high, b.title)
                       for b in section.bars)
    spread = section.spread
    if spread is not None and len(spread.rows) > 1:
        head = "".join(f"<th>{escape(axis)}</th>" for axis in spread.axes)
        body = "".join(f"<tr><td>{escape(v)}</td>" + "".join(f"<td class='num'>{_fmt(c.get(axis))}</td>"
                                                             for axis in spread.axes) + "</tr>"
                       for v, c in sorted(spread.rows.items()))
        return (spread_chart(spread) + f'<table class="small"><thead><tr><th>variant</th>{head}</tr></thead>'
                f"<tbody>{body}</tbody></table>")
    if spread is not None and spread.rows:
        (v, c), = spread.rows.items()
        cells = ", ".join(f"{escape(axis)} {_fmt(c.get(axis))}" for axis in spread.axes)
        return f'<p class="note">One prompt variant (<code>{escape(v)}</code>: {cells}): no spread to show.</p>'
    return f'<p class="note">{escape(section.note)}</p>'


def task_sections(task: TaskResult) -> str:
    """Every board's sections of the task (a board whose metric the task lacks says so), by ``section_order``."""
    found = [(board.section_order, section) for name, board in boards() if board.sections is not None
             for section in board.sections(task.details.get(name), values(task.estimates.get(name)))]
    return "".join(f"<h3>{escape(section.heading)}</h3>{section_html(section)}"
                   for _, section in sorted(found, key=lambda pair: pair[0]))


def _task_section(entry: Entry, task: TaskResult) -> str:
    table = "".join(f"<tr><th>{escape(name)}</th>{_cell(m, axis)}</tr>" for name, m, axis in headline_rows(task))
    cov = task.coverage
    coverage = (f"{cov.items_answered}/{cov.items} items answered; {cov.responses_kept}/{cov.responses} responses "
                f"kept ({100 * cov.kept_share:.1f}%)")
    facts = _kv([("version", f"{task.version}"), ("instruments", escape(", ".join(task.instruments))),
                 ("prompt variants", escape(task.variant_set)), ("forms", escape(", ".join(task.forms))),
                 ("seed", f"{task.seed}"), ("samples per prompt", f"{task.samples_per_prompt}"),
                 ("scorer", f"{escape(task.scorer or '?')} (threshold {escape(str(task.threshold))})"
                            + (f" <code>{escape(describe_fingerprint(task.scorer_fingerprint.model_dump()))}</code>"
                               if task.scorer_fingerprint else "") + scorer_badge(entry, task)),
                 ("coverage", escape(coverage)), ("spec sha256", f"<code>{escape(task.spec_sha256[:16])}…</code>")])
    return (f'<section class="task"><h2>{escape(task.name)}</h2><div class="cols"><table class="headline">'
            f"<tbody>{table}</tbody></table><dl>{facts}</dl></div>{task_sections(task)}</section>")


def headline_rows(task: TaskResult) -> list[tuple[str, Metric, Optional[AxisReading]]]:
    """(label with direction, value, the position reading of a compass axis or None) for every estimate of the
    task, labelled as the metric registry declares it (a metric this polibench does not know is shown by name)."""
    rows = []
    for name, found in task.estimates.items():
        declared = {e.key: e for e in known.estimates} if (known := registered().get(name)) else {}
        for key, m in found.items():
            e = declared.get(key)
            label = f"{e.label} ({e.negative} − / {e.positive} +)" if e else f"{name} {key}"
            rows.append((label, m, _axis_of(task, name, key)))
    return rows


def _fmt(value: Optional[float]) -> str:
    return "–" if value is None else f"{value:+.2f}"


def run_pages(entry: Entry) -> str:
    """The model page's part before the task sections: where imported responses come from, then each run-level
    board's part of the blocks the entry keeps."""
    parts = [attribution(entry.imported)] if entry.imported else []
    parts += [board.page(block) for name, board in run_boards()
              if board.page is not None and (block := entry.run_block(name))]
    return "".join(parts)


def model_page(entry: Entry, generated: str, fairness: str = "") -> str:
    m = entry.model
    args = json.dumps(m.args, ensure_ascii=False, sort_keys=True) if m.args else "none"
    facts = _kv([("model", escape(m.id)), ("revision", f"<code>{escape(m.revision or 'not recorded')}</code>"),
                 ("backend", escape(m.backend)), ("backend args", f"<code>{escape(args)}</code>"),
                 ("polibench", f"{escape(entry.polibench_version)} (git <code>{escape((entry.git_hash or '?')[:12])}"
                               "</code>)"),
                 ("run date", escape(entry.date)), ("submitted", escape(entry.submitted)),
                 ("run", escape(f"seed {entry.run.seed if entry.run.seed is not None else 'per task'}, "
                                f"limit {entry.run.limit if entry.run.limit is not None else 'none (all items)'}, "
                                f"{entry.run.n_samples} samples")),
                 ("samples.jsonl sha256", f'<code>{escape(entry.samples.sha256)}</code> '
                                          f'(<a href="../entries/{escape(entry.samples.file)}">download</a>)'),
                 ("results.json sha256", f'<code>{escape(entry.results.sha256)}</code> '
                                         f'(<a href="../entries/{escape(entry.results.file)}">download</a>)'),
                 ("entry", f'<a href="../entries/{escape(entry.entry_id)}.json">{escape(entry.entry_id)}.json</a>')])
    return template("model.html").substitute(
        head=page_head(f"{escape(m.id)} · polibench leaderboard", root="../"), title=escape(m.id),
        version=escape(__version__), generated=escape(generated), badges=_badges(entry),
        facts=facts, tasks=run_pages(entry) + "".join(_task_section(entry, t) for t in entry.tasks),
        fairness=fairness or '<p class="note">No downstream fairness results for this model yet.</p>',
        entry_id=escape(entry.entry_id))
