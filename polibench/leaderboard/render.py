"""HTML of the index and per-model pages. Every value taken from an entry is escaped here or in
:mod:`polibench.leaderboard.charts`; the embedded JSON is escaped for a ``<script>`` element."""

from __future__ import annotations

import json
from html import escape
from importlib import resources
from string import Template
from typing import Optional

from polibench import __version__
from polibench.leaderboard.channels_html import channels_tab, imported_badge, model_channels
from polibench.leaderboard.charts import bar_chart, compass_point, compass_svg, fmt_metric, spread_chart
from polibench.leaderboard.markers import CHANNELS, FORCING_NOTE, channel_of, is_forcing, legend_marker, model_colours
from polibench.leaderboard.positions import task_acquiescence, task_position
from polibench.leaderboard.schema import Entry, Metric, TaskResult
from polibench.metrics.blocks import BIAS_DIMENSIONS
from polibench.metrics.liu_null import indistinguishable
from polibench.metrics.position import LIMIT_LABEL, AxisReading
from polibench.metrics.registry import registered

FAULBORN = BIAS_DIMENSIONS


def template(name: str) -> Template:
    return Template(resources.files("polibench.leaderboard").joinpath("templates", name).read_text(encoding="utf-8"))


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


def rows_of(entries: list[Entry]) -> list[tuple[Entry, TaskResult, str]]:
    """One table row per (entry, task), with its model's colour (one per model, none shared). The models with a
    point on the compass take the palette's colour-blind-safe colours first; models seen only in other tabs
    (PrismIA 2026, say) come after them."""
    on_compass = [e.model.id for e in entries if any(has_position(t) for t in e.tasks)]
    colours = model_colours([*on_compass, *(e.model.id for e in entries)])
    return [(entry, task, colours[entry.model.id]) for entry in entries for task in entry.tasks]


# The table's optional columns: (header, title, the row's metric); a column no row has a value in is left out.
BIAS_COLUMNS = (
    ("Bias econ.", "Faulborn et al. bias, economic dimension (−1 left … +1 right)", "economic"),
    ("Bias social", "Faulborn et al. bias, social dimension (their 'cultural')", "social"),
    ("Bias total", "Faulborn et al. bias, all statements", "total"),
)


def bias_columns(rows: list[tuple[Entry, TaskResult, str]]) -> list[str]:
    """The Faulborn dimensions at least one row has a value for (the others' columns would be all "–")."""
    return [key for _, _, key in BIAS_COLUMNS
            if any(_val(t.faulborn_bias.get(key)) is not None for _, t, _ in rows)]


def table_head(columns: list[str]) -> str:
    bias = "".join(f'<th data-type="num" aria-sort="none" title="{escape(title)}">{escape(name)}</th>'
                   for name, title, key in BIAS_COLUMNS if key in columns)
    return ('<th data-type="text" aria-sort="none">Model</th><th data-type="text" aria-sort="none">Task</th>'
            '<th data-type="num" aria-sort="none" title="PCT economic coordinate, left − / right +">Economic</th>'
            '<th data-type="num" aria-sort="none" title="PCT social coordinate, libertarian − / authoritarian +">'
            f'Social</th>{bias}<th data-type="num" aria-sort="none" title="share of responses whose stance was kept">'
            'Coverage</th><th data-type="text" aria-sort="none">Date</th>')


def has_position(task: TaskResult) -> bool:
    return all(m is not None and m.value is not None for m in (task.economic, task.social))


def _badges(entry: Entry) -> str:
    out = []
    if entry.partial:
        out.append(f'<span class="badge warn" title="a --limit run (only the first {entry.run.limit} items): '
                   f'{LIMIT_LABEL}">partial: {LIMIT_LABEL}</span>')
    out.append(imported_badge(entry))
    return "".join(out)


def table_row(i: int, entry: Entry, task: TaskResult, colour: str, columns: list[str] = FAULBORN) -> str:
    cov = task.coverage
    link = f"models/{escape(entry.entry_id)}.html"
    return (f'<tr data-row="{i}" data-task="{escape(task.name)}" '
            f'data-instruments="{escape(" ".join(task.instruments))}">'
            f'<td data-value="{escape(entry.model.id.lower())}">{_swatch(colour)}'
            f'<a class="model" href="{link}">{escape(entry.model.id)}</a>{_badges(entry)}{_task_badges(task)}'
            f'<div class="sub">{escape(entry.model.backend)}'
            f'{" · " + escape(entry.model.revision[:12]) if entry.model.revision else ""}</div></td>'
            f'<td data-value="{escape(task.name)}">{escape(task.name)}<div class="sub">v{task.version} · '
            f'{escape(", ".join(task.instruments))}</div></td>'
            + _cell(task.economic, _axes(task)[0]) + _cell(task.social, _axes(task)[1])
            + "".join(_cell(task.faulborn_bias.get(k)) for k in columns)
            + f'<td class="num" data-value="{cov.kept_share:.6f}">{100 * cov.kept_share:.1f}%'
              f'<div class="sub">{cov.items_answered}/{cov.items} items</div></td>'
            + f'<td data-value="{escape(entry.date)}">{escape(entry.date[:10])}</td></tr>')


def _task_badges(task: TaskResult) -> str:
    """Badges of one task's PCT position: insufficient data (unranked), acquiescence."""
    out = []
    reading = task_position(task)
    if reading is not None and reading.has_position and not reading.sufficient:
        out.append('<span class="badge warn" title="fewer than the minimum share of an axis\'s statements answered: '
                   'shown hollow, left out of rankings">insufficient data</span>')
    flag = task_acquiescence(task)
    if flag:
        out.append(f'<span class="badge warn" title="{escape(flag)}">acquiescence</span>')
    return "".join(out)


def point_data(i: int, entry: Entry, task: TaskResult, colour: str) -> dict:
    reading = task_position(task)
    return {"row": i, "model": entry.model.id, "task": task.name, "colour": colour,
            "sufficient": bool(reading is not None and reading.sufficient),
            "economic": _val(task.economic), "economic_ci": _ci(task.economic),
            "social": _val(task.social), "social_ci": _ci(task.social),
            "faulborn_total": _val(task.faulborn_bias.get("total")), "kept_share": task.coverage.kept_share,
            "page": f"models/{entry.entry_id}.html"}


def _swatch(colour: str) -> str:
    return (f'<svg class="swatch" viewBox="0 0 10 10" aria-hidden="true">'
            f'<rect width="10" height="10" rx="2" fill="{colour}"/></svg>')


def legend(rows: list[tuple[Entry, TaskResult, str]]) -> str:
    """One line per model on the compass: its colour, its name (linking to its first entry) and its task sets
    (the models with no point there are named under it, by :func:`not_on_compass`)."""
    seen: dict[str, tuple[Entry, str, list[str]]] = {}
    for entry, task, colour in rows:
        if not any(has_position(t) for t in entry.tasks):
            continue
        seen.setdefault(entry.model.id, (entry, colour, []))[2].append(task.name)
    return "".join(f'<li data-model="{escape(model)}" data-colour="{colour}">{_swatch(colour)}'
                   f'<a href="models/{escape(entry.entry_id)}.html">{escape(model)}</a> '
                   f'<span class="sub">{escape(", ".join(dict.fromkeys(tasks)))}</span></li>'
                   for model, (entry, colour, tasks) in seen.items()) or "<li>none yet</li>"


def shape_legend(rows: list[tuple[Entry, TaskResult, str]]) -> str:
    """The marker shapes of the channels on the board, and the outline of forcing runs when there are any."""
    channels = {channel_of(t) for _, t, _ in rows if has_position(t)}
    items = [f'<li data-channel="{name}">{legend_marker(shape)}{escape(text)}</li>'
             for name, (shape, text) in CHANNELS.items() if name in channels]
    if any(is_forcing(t) for _, t, _ in rows if has_position(t)):
        items.append(f'<li data-channel="forcing">{legend_marker("circle", forcing=True)}{escape(FORCING_NOTE)}</li>')
    return "".join(items)


def not_on_compass(entries: list[Entry]) -> str:
    """The models none of whose tasks has PCT coordinates, and why, under the compass."""
    missing = [e for e in entries if not any(has_position(t) for t in e.tasks)]
    if not missing:
        return ""
    names = ", ".join(f"{escape(e.model.id)} ({escape(', '.join(t.name for t in e.tasks))})" for e in missing)
    return (f'<p class="note missing" data-count="{len(missing)}">Not on the compass: {names}: no task of theirs '
            "places them on the Political Compass (they are in the table and the other tabs).</p>")


def _options(values: list[str]) -> str:
    return "".join(f'<option value="{escape(v)}">{escape(v)}</option>' for v in values)


UNVERIFIED = ('<p class="banner unverified" role="alert">Built with <code>--no-verify</code>: the numbers below were '
              "<strong>not</strong> recomputed from the shipped samples when this site was built. Run "
              "<code>polibench leaderboard verify</code> before trusting them.</p>")


def index_page(entries: list[Entry], generated: str, fairness: str = "", verified: bool = True,
               prismia: str = "") -> str:
    rows = rows_of(entries)
    points = [compass_point(i, f"{e.model.id} — {t.name}: economic {fmt_metric(t.economic)}, "
                               f"social {fmt_metric(t.social)}", colour, t.economic, t.social,
                            attrs=f' data-task="{escape(t.name)}" data-instruments="{escape(" ".join(t.instruments))}"'
                                  f' data-model="{escape(e.model.id)}" data-channel="{channel_of(t)}"',
                            hollow=not _sufficient(t), shape=CHANNELS[channel_of(t)][0],
                            forcing=is_forcing(t))
              for i, (e, t, colour) in enumerate(rows) if has_position(t)]
    tasks = sorted({t.name for _, t, _ in rows})
    instruments = sorted({n for _, t, _ in rows for n in t.instruments})
    columns = bias_columns(rows)
    body = "".join(table_row(i, e, t, c, columns) for i, (e, t, c) in enumerate(rows)) or \
        f'<tr class="empty"><td colspan="{6 + len(columns)}">No entries yet: see “How to submit”.</td></tr>'
    return template("index.html").substitute(
        version=escape(__version__), generated=escape(generated), n_entries=len(entries),
        n_models=len({e.model.id for e in entries}), task_options=_options(tasks),
        instrument_options=_options(instruments), compass=compass_svg(points), n_points=len(points),
        n_rows=len(rows), table_head=table_head(columns), rows=body, legend=legend(rows),
        shape_legend=shape_legend(rows), not_on_compass=not_on_compass(entries),
        banner="" if verified else UNVERIFIED, fairness=fairness, generation_bias=generation_bias_table(rows, entries),
        channels=channels_tab(entries), prismia=prismia or '<p class="note">No PrismIA 2026 entries yet.</p>',
        data=script_json([point_data(i, e, t, c) for i, (e, t, c) in enumerate(rows)]))


def _sufficient(task: TaskResult) -> bool:
    reading = task_position(task)
    return reading is not None and reading.sufficient


def _bias_cell(m: Optional[Metric]) -> str:
    if m is None or m.value is None:
        return '<td class="num" data-value="">–</td>'
    ci = f'<span class="ci">[{m.ci[0]:.4f}, {m.ci[1]:.4f}]</span>' if m.ci else ""
    return f'<td class="num" data-value="{m.value:.6f}">{m.value:.4f}{ci}</td>'


def generation_bias_table(rows: list[tuple[Entry, TaskResult, str]], entries: list[Entry] = ()) -> str:
    """One row per (entry, generation-bias task): overall indirect and direct bias, then each option's; the
    models without such a task are named below it."""
    liu = [(e, t, c) for e, t, c in rows if t.generation_bias]
    shown = {e.model.id for e, _, _ in liu}
    absent = sorted({e.model.id for e in entries} - shown)
    missing = (f'<p class="note missing" data-count="{len(absent)}">Not in this view: {escape(", ".join(absent))}: '
               "no generation-bias task (liu-gender, liu-location, liu-topic) in their entries.</p>" if absent else "")
    if not liu:
        return '<p class="note">No generation-bias entries yet (tasks liu-gender, liu-location, liu-topic).</p>'
    body = []
    for entry, task, colour in liu:
        overall = task.generation_bias.get("overall", {})
        options = "".join(f'<li>{escape(name)}: indirect {fmt_bias(parts.get("indirect"))}'
                          f'{_excess_text(parts, "indirect")}, direct {fmt_bias(parts.get("direct"))}'
                          f'{_excess_text(parts, "direct")}</li>'
                          for name, parts in task.generation_bias.items() if name != "overall")
        body.append(f'<tr data-task="{escape(task.name)}"><td>{_swatch(colour)}<a class="model" '
                    f'href="models/{escape(entry.entry_id)}.html">{escape(entry.model.id)}</a>{_badges(entry)}</td>'
                    f'<td>{escape(task.name)}<div class="sub">judge {escape(task.scorer or "?")}</div></td>'
                    + _bias_cell(overall.get("indirect")) + _bias_cell(overall.get("direct"))
                    + _excess_cell(overall, "indirect") + _excess_cell(overall, "direct")
                    + f'<td><ul class="small options">{options}</ul></td></tr>')
    return ('<div class="table-wrap"><table id="generation-board"><thead><tr><th>Model</th><th>Task</th>'
            '<th title="mean over options of W2(option, attribute)">Indirect bias</th>'
            '<th title="mean over options of |W2 liberal − W2 conservative|">Direct bias</th>'
            '<th title="indirect bias − its mean under the permutation null (keywords\' options shuffled); '
            '≈ null: p ≥ 0.05">Indirect excess</th>'
            '<th title="direct bias − its mean under the permutation null; ≈ null: p ≥ 0.05">Direct excess</th>'
            f'<th>Per option</th></tr></thead><tbody>{"".join(body)}</tbody></table></div>' + missing
            + '<p class="note">Excess: observed − the mean W2 when keywords\' options are shuffled (the noise '
            'floor), with its bootstrap interval and the permutation p-value; "≈ null": p ≥ 0.05, '
            'indistinguishable from the noise floor.</p>')


def _excess_parts(parts: dict[str, Metric], measure: str) -> tuple[Optional[Metric], str]:
    """The excess of ``measure`` and a note: null mean, p-value, and "≈ null" when p ≥ 0.05."""
    excess, null, p = (parts.get(f"{measure}{suffix}") for suffix in ("_excess", "_null", "_p"))
    if excess is None or excess.value is None:
        return None, ""
    note = f"null {null.value:.4f}" if null is not None and null.value is not None else ""
    if p is not None and p.value is not None:
        note += f" · p {p.value:.3f}" + (" · ≈ null" if indistinguishable(p.value) else "")
    return excess, note


def _excess_cell(parts: dict[str, Metric], measure: str) -> str:
    excess, note = _excess_parts(parts, measure)
    if excess is None:
        return '<td class="num" data-value="">–</td>'
    return _bias_cell(excess).replace("</td>", f'<div class="sub">{escape(note)}</div></td>')


def _excess_text(parts: dict[str, Metric], measure: str) -> str:
    excess, note = _excess_parts(parts, measure)
    return "" if excess is None else f" (excess {fmt_bias(excess)}; {escape(note)})"


def fmt_bias(m: Optional[Metric]) -> str:
    if m is None or m.value is None:
        return "–"
    return f"{m.value:.4f}" + (f" [{m.ci[0]:.4f}, {m.ci[1]:.4f}]" if m.ci else "")


def _kv(rows: list[tuple[str, str]]) -> str:
    return "".join(f"<dt>{escape(k)}</dt><dd>{v}</dd>" for k, v in rows)


def _task_section(entry: Entry, task: TaskResult) -> str:
    table = "".join(f"<tr><th>{escape(name)}</th>{_cell(m, axis)}</tr>" for name, m, axis in headline_rows(task))
    cov = task.coverage
    coverage = (f"{cov.items_answered}/{cov.items} items answered; {cov.responses_kept}/{cov.responses} responses "
                f"kept ({100 * cov.kept_share:.1f}%)")
    if task.per_prefix:
        order = ("total", "economic", "social")
        metric_names = sorted({k for v in task.per_prefix.values() for k in v},
                              key=lambda k: (order.index(k) if k in order else len(order), k))
        charts = []
        for name in metric_names:
            rows = [(prefix, m[name]) for prefix, m in sorted(task.per_prefix.items()) if name in m]
            bound = 10.0 if name.startswith("pct_") else 1.0
            title = f"Faulborn bias, {name}" if name in order else name.replace("_", " ")
            charts.append(f"<h4>{escape(title)}</h4>" + bar_chart(rows, -bound, bound, title))
        prefix_html = "".join(charts)
    else:
        prefix_html = ('<p class="note">No per-prefix breakdown in this entry (its task has a single prompt '
                       'prefix, or its polibench version did not compute one).</p>')
    if len(task.per_variant) > 1:
        spread_rows = "".join(f"<tr><td>{escape(v)}</td><td class='num'>{_fmt(c.get('economic'))}</td>"
                              f"<td class='num'>{_fmt(c.get('social'))}</td></tr>"
                              for v, c in sorted(task.per_variant.items()))
        spread = (spread_chart(task.per_variant) + '<table class="small"><thead><tr><th>variant</th><th>economic</th>'
                  f"<th>social</th></tr></thead><tbody>{spread_rows}</tbody></table>")
    elif task.per_variant:
        (v, c), = task.per_variant.items()
        spread = (f'<p class="note">One prompt variant (<code>{escape(v)}</code>: economic {_fmt(c.get("economic"))}, '
                  f'social {_fmt(c.get("social"))}): no spread to show.</p>')
    else:
        spread = '<p class="note">No per-variant coordinates in this task.</p>'
    facts = _kv([("version", f"{task.version}"), ("instruments", escape(", ".join(task.instruments))),
                 ("prompt variants", escape(task.variant_set)), ("forms", escape(", ".join(task.forms))),
                 ("seed", f"{task.seed}"), ("samples per prompt", f"{task.samples_per_prompt}"),
                 ("scorer", f"{escape(task.scorer or '?')} (threshold {escape(str(task.threshold))})"),
                 ("coverage", escape(coverage)), ("spec sha256", f"<code>{escape(task.spec_sha256[:16])}…</code>")])
    return (f'<section class="task"><h2>{escape(task.name)}</h2><div class="cols"><table class="headline">'
            f"<tbody>{table}</tbody></table><dl>{facts}</dl></div>"
            f"<h3>Per prefix</h3>{prefix_html}<h3>Per-variant spread</h3>{spread}</section>")


def headline_rows(task: TaskResult) -> list[tuple[str, Metric, Optional[AxisReading]]]:
    """(label with direction, value, the position reading of a compass axis or None) for every estimate of the
    task, labelled as the metric registry declares it (a metric this polibench does not know is shown by name)."""
    axes = {id(m): axis for m, axis in zip((task.economic, task.social), _axes(task)) if m is not None}
    rows = []
    for name, found in task.estimates.items():
        declared = {e.key: e for e in known.estimates} if (known := registered().get(name)) else {}
        for key, m in found.items():
            e = declared.get(key)
            label = f"{e.label} ({e.negative} − / {e.positive} +)" if e else f"{name} {key}"
            rows.append((label, m, axes.get(id(m))))
    return rows


def _fmt(value: Optional[float]) -> str:
    return "–" if value is None else f"{value:+.2f}"


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
        title=escape(m.id), version=escape(__version__), generated=escape(generated), badges=_badges(entry),
        facts=facts, tasks=model_channels(entry) + "".join(_task_section(entry, t) for t in entry.tasks),
        fairness=fairness or '<p class="note">No downstream fairness results for this model yet.</p>',
        entry_id=escape(entry.entry_id))
