"""The ``category_bias`` metric on the leaderboard (its family's board, :class:`~polibench.leaderboard.board.
Board`): the site's "PrismIA 2026" tab (an :class:`~polibench.leaderboard.board.EntriesTab`, drawn from every entry
and PrismIA's panel file beside the entries folder, which the site copies with its licence): each model over the
months with its month-to-month changes, polibench's reading beside PrismIA's panel, their rank agreement over
models, the bias per category (the metric's block), and the MIT attribution. The rows are
:mod:`polibench.families.prismia.panel`'s. Every value from an entry is escaped here."""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any, Optional

from polibench.families.prismia.panel import (
    LICENSE_FILE,
    PANEL_FILE,
    Change,
    PrismiaRow,
    agreement,
    load_panel,
    month_changes,
    prismia_rows,
)
from polibench.leaderboard.board import Board, EntriesTab, Site

W, H, PAD_L, PAD_R, PAD_T, PAD_B = 590, 300, 58, 170, 14, 34
LOW, HIGH = -1.0, 1.0  # Faulborn bias and the panel position share this range


def _y(value: float) -> float:
    return round(PAD_T + (HIGH - max(LOW, min(HIGH, value))) / (HIGH - LOW) * (H - PAD_T - PAD_B), 2)


def _axes(x_labels: list[tuple[float, str]], title: str) -> list[str]:
    out = [f'<line class="axis" x1="{PAD_L}" y1="{_y(0)}" x2="{W - PAD_R}" y2="{_y(0)}"/>']
    for v in (-1, -0.5, 0.5, 1):
        out.append(f'<line class="grid" x1="{PAD_L}" y1="{_y(v)}" x2="{W - PAD_R}" y2="{_y(v)}"/>')
    for v in (-1, -0.5, 0, 0.5, 1):
        out.append(f'<text class="tick" x="{PAD_L - 6}" y="{_y(v) + 4}" text-anchor="end">{v:+.1f}</text>')
    for x, label in x_labels:
        out.append(f'<text class="tick" x="{x}" y="{H - PAD_B + 16}" text-anchor="middle">{escape(label)}</text>')
    out.append(f'<text class="axis-label" x="12" y="{(H - PAD_B) / 2}" text-anchor="middle" '
               f'transform="rotate(-90 12 {(H - PAD_B) / 2})">{escape(title)}</text>')
    return out


def colours(rows: list[PrismiaRow], palette: tuple[str, ...]) -> dict[str, str]:
    """One colour per model, in the order the models first come."""
    return {m: palette[n % len(palette)] for n, m in enumerate(dict.fromkeys(r.model for r in rows))}


def over_time_svg(rows: list[PrismiaRow], colour: dict[str, str]) -> str:
    """Each model's Faulborn bias per month with its interval; a model's months are joined by a line."""
    months = sorted({r.month for r in rows})
    step = (W - PAD_L - PAD_R) / max(len(months), 1)
    x_of = {m: round(PAD_L + step * (n + 0.5), 2) for n, m in enumerate(months)}
    models = list(colour)
    offset = {m: round((n - (len(models) - 1) / 2) * 5, 2) for n, m in enumerate(models)}  # spread overlapping bars
    parts = _axes([(x_of[m], m) for m in months], "Faulborn bias (left − / right +)")
    for model in models:
        mine = [r for r in rows if r.model == model and r.bias and r.bias.value is not None]
        if len(mine) > 1:
            pts = " ".join(f"{x_of[r.month] + offset[model]},{_y(r.bias.value)}" for r in mine)  # type: ignore
            parts.append(f'<polyline class="series" points="{pts}" fill="none" stroke="{colour[model]}"/>')
    for r in rows:
        if not r.bias or r.bias.value is None:
            continue
        x, y = x_of[r.month] + offset[r.model], _y(r.bias.value)
        label = f"{r.model}, {r.month}: Faulborn bias {r.bias_text()}"
        ci = (f'<line class="ci" x1="{x}" y1="{_y(r.bias.ci[0])}" x2="{x}" y2="{_y(r.bias.ci[1])}" '
              f'stroke="{colour[r.model]}"/>' if r.bias.ci else "")
        parts.append(f'<g class="time-point" data-model="{escape(r.model)}" data-month="{escape(r.month)}" '
                     f'data-value="{r.bias.value:.4f}" role="img" aria-label="{escape(label)}"><title>'
                     f'{escape(label)}</title>{ci}<circle cx="{x}" cy="{y}" r="5" fill="{colour[r.model]}"/></g>')
    for n, model in enumerate(models):
        y = PAD_T + 10 + 16 * n
        parts.append(f'<circle cx="{W - PAD_R + 14}" cy="{y - 4}" r="5" fill="{colour[model]}"/>'
                     f'<text class="legend-label" x="{W - PAD_R + 24}" y="{y}">{escape(model)}</text>')
    return (f'<svg class="over-time" viewBox="0 0 {W} {H}" role="img" aria-label="Faulborn bias per model and '
            f'month">{"".join(parts)}</svg>')


def comparison_svg(rows: list[PrismiaRow], colour: dict[str, str]) -> str:
    """polibench's bias (x) against PrismIA's panel position (y), one point per model-month, with both intervals."""
    size, pad = 300, 40
    inner = size - 2 * pad

    def sx(v: float) -> float:
        return round(pad + (max(LOW, min(HIGH, v)) - LOW) / (HIGH - LOW) * inner, 2)

    def sy(v: float) -> float:
        return round(pad + (HIGH - max(LOW, min(HIGH, v))) / (HIGH - LOW) * inner, 2)

    parts = [f'<rect class="frame" x="{pad}" y="{pad}" width="{inner}" height="{inner}"/>',
             f'<line class="axis" x1="{sx(0)}" y1="{pad}" x2="{sx(0)}" y2="{size - pad}"/>',
             f'<line class="axis" x1="{pad}" y1="{sy(0)}" x2="{size - pad}" y2="{sy(0)}"/>',
             f'<line class="grid" x1="{sx(-1)}" y1="{sy(-1)}" x2="{sx(1)}" y2="{sy(1)}"/>',
             f'<text class="axis-label" x="{size / 2}" y="{size - 8}" text-anchor="middle">polibench Faulborn bias '
             "(right +)</text>",
             f'<text class="axis-label" x="12" y="{size / 2}" text-anchor="middle" transform="rotate(-90 12 '
             f'{size / 2})">PrismIA panel position (right +)</text>']
    for r in rows:
        if not r.bias or r.bias.value is None:
            continue
        x, y = sx(r.bias.value), sy(r.panel_position)
        label = f"{r.model}, {r.month}: polibench {r.bias_text()}, panel {r.panel_text()}"
        bars = ""
        if r.bias.ci:
            bars += (f'<line class="ci" x1="{sx(r.bias.ci[0])}" y1="{y}" x2="{sx(r.bias.ci[1])}" y2="{y}" '
                     f'stroke="{colour[r.model]}"/>')
        if r.panel_ci:
            bars += (f'<line class="ci" x1="{x}" y1="{sy(r.panel_ci[0])}" x2="{x}" y2="{sy(r.panel_ci[1])}" '
                     f'stroke="{colour[r.model]}"/>')
        parts.append(f'<g class="compare-point" data-model="{escape(r.model)}" data-month="{escape(r.month)}" '
                     f'role="img" aria-label="{escape(label)}"><title>{escape(label)}</title>{bars}'
                     f'<circle cx="{x}" cy="{y}" r="5" fill="{colour[r.model]}"/></g>')
    return (f'<svg class="prismia-compare" viewBox="0 0 {size} {size}" role="img" aria-label="polibench against '
            f'PrismIA\'s panel">{"".join(parts)}</svg>')


def _cell(text: str, value: Optional[float]) -> str:
    return f'<td class="num" data-value="{"" if value is None else f"{value:.6f}"}">{escape(text)}</td>'


def comparison_table(rows: list[PrismiaRow]) -> str:
    body = []
    for r in rows:
        refusal = r.refusal
        parity = (f"{refusal.parity:+.3f}" if refusal and refusal.parity is not None else "–")
        body.append(
            f'<tr data-model="{escape(r.model)}" data-month="{escape(r.month)}"><td><a href="models/'
            f'{escape(r.entry.entry_id)}.html">{escape(r.model)}</a></td><td>{escape(r.month)}</td>'
            + _cell(r.bias_text(), r.bias.value if r.bias else None)
            + _cell(f"{r.panel_mean:.3f}", r.panel_mean) + _cell(r.panel_text(), r.panel_position)
            + _cell(r.refusal_text(), refusal.share if refusal else None)
            + _cell(parity, refusal.parity if refusal else None)
            + _cell(str(r.panel_refusals), r.panel_refusals)
            + _cell(f"{100 * r.kept_share:.1f}%", r.kept_share) + "</tr>")
    return ('<div class="table-wrap"><table id="prismia-compare"><thead><tr><th>Model</th><th>Month</th>'
            "<th>polibench bias</th><th>Panel mean (1 = left)</th><th>Panel position (right +)</th>"
            "<th>Refusal share</th><th>Refusal parity</th><th>PrismIA refused</th><th>Kept</th></tr></thead><tbody>"
            + "".join(body) + "</tbody></table></div>")


def change_text(c: Change) -> str:
    """The change with its interval, three decimals (an interval ending at -0.002 must not read as -0.00)."""
    return f"{c.change:+.3f}" + (f" [{c.ci[0]:+.3f}, {c.ci[1]:+.3f}]" if c.ci else "")


def change_reading(c: Change) -> str:
    """What the change's interval supports: "differs" only where it excludes 0."""
    if c.ci is None:
        return "no interval"
    if c.ci[0] == c.ci[1]:
        return "no change (degenerate: no resample moved it)"
    return "differs" if c.differs else "no difference shown (interval includes 0)"


def change_table(changes: list[Change]) -> str:
    """Each model's month-to-month change (and each successor's) with its paired interval."""
    body = "".join(
        f'<tr data-model="{escape(c.after.model)}" data-from="{escape(c.before.month)}" '
        f'data-to="{escape(c.after.month)}" data-differs="{str(c.differs).lower()}"><td>{escape(c.family)}</td>'
        f"<td>{escape(c.before.model)}, {escape(c.before.month)}</td><td>{escape(c.after.model)}, "
        f"{escape(c.after.month)}{' (successor)' if c.successor else ''}</td>"
        + _cell(change_text(c), c.change)
        + f"<td>{escape(change_reading(c))}</td></tr>" for c in changes)
    return ('<p>Change of the Faulborn bias from one month to the next (later − earlier), paired over the statements '
            "both answered, with a 95% item-bootstrap interval; a successor is compared with its family's model of "
            "the month before. A change is called a difference only where its interval excludes 0.</p>"
            '<div class="table-wrap"><table id="prismia-changes" class="small"><thead><tr><th>Family</th><th>From'
            "</th><th>To</th><th>Change</th><th>Reading</th></tr></thead><tbody>" + body + "</tbody></table></div>")


def category_table(rows: list[PrismiaRow]) -> str:
    names = sorted({c for r in rows if r.categories for c in r.categories.per_category})
    body = []
    for r in rows:
        per = r.categories.per_category if r.categories else {}
        cells = "".join(
            _cell(f"{per[c].bias:+.2f}" + (f" [{per[c].ci.bias.low:+.2f}, {per[c].ci.bias.high:+.2f}]"
                                            if per[c].ci.bias else ""), per[c].bias)
            if c in per and per[c].bias is not None else _cell("–", None) for c in names)
        body.append(f"<tr><td>{escape(r.model)}</td><td>{escape(r.month)}</td>{cells}</tr>")
    head = "".join(f"<th>{escape(c.replace('_', ' '))}</th>" for c in names)
    return (f'<div class="table-wrap"><table id="prismia-categories" class="small"><thead><tr><th>Model</th>'
            f"<th>Month</th>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>")


ATTRIBUTION = ('<div class="attribution"><p>Statements, prompts, responses and panel scores: PrismIA AI Political '
               "Bias Benchmark (2026), github.com/swissprismia/llm-political-bias-bench (commit 632a5dd). MIT licence, "
               "Copyright (c) 2026 PrismIA; the licence text ships with the instrument (tasks/prismia2026/LICENSE) "
               "and the panel file (leaderboard/prismia2026/LICENSE). The responses were generated by PrismIA, not "
               "by polibench; polibench scored them with its offline stance scorer. The panel scores are "
               "PrismIA's.</p></div>")


_ROWS: dict[tuple, list[PrismiaRow]] = {}


def rows_of(entries: list[Any], entries_dir: Optional[Path], site: Site) -> list[PrismiaRow]:
    """The tab's rows (read once per build: the tab and its headline beside the compass share them)."""
    if entries_dir is None or site.read_artifact is None:
        return []
    key = (str(entries_dir), tuple((e.entry_id, e.samples.sha256, e.results.sha256) for e in entries))
    if key not in _ROWS:
        _ROWS.clear()
        _ROWS[key] = prismia_rows(entries, entries_dir, load_panel(entries_dir.parent / PANEL_FILE),
                                  site.read_artifact)
    return _ROWS[key]


def latest(rows: list[PrismiaRow]) -> list[PrismiaRow]:
    """Each model's row of its latest month, from the leftmost bias to the rightmost."""
    last: dict[str, PrismiaRow] = {}
    for r in rows:
        if r.bias is not None and r.bias.value is not None and (r.model not in last or r.month > last[r.model].month):
            last[r.model] = r
    return sorted(last.values(), key=lambda r: r.bias.value)  # type: ignore[union-attr]


def frontier_chart(rows: list[PrismiaRow], colour: dict[str, str]) -> str:
    """One point per model (its latest month) with its interval and its name beside it, on the bias scale −1 … +1
    with numbered ticks: the frontier models' view, as large as its rows need."""
    width, left, right, row_h, top = 560, 235, 56, 26, 8
    plot = width - left - right
    height = top + row_h * len(rows) + 34

    def x_of(v: float) -> float:
        return round(left + (max(LOW, min(HIGH, v)) - LOW) / (HIGH - LOW) * plot, 2)

    parts = [f'<line class="grid" x1="{x_of(v)}" y1="{top}" x2="{x_of(v)}" y2="{height - 28}"/>' for v in (-0.5, 0.5)]
    parts.append(f'<line class="axis" x1="{x_of(0)}" y1="{top}" x2="{x_of(0)}" y2="{height - 28}"/>')
    for v in (-1, -0.5, 0, 0.5, 1):
        parts.append(f'<text class="tick" x="{x_of(v)}" y="{height - 14}" text-anchor="middle">'
                     f'{f"{v:+.1f}".replace("+0.0", "0").replace("-", "−")}</text>')
    parts.append(f'<text class="tick" x="{x_of(-1)}" y="{height - 1}" text-anchor="start">← left</text>'
                 f'<text class="tick" x="{x_of(1)}" y="{height - 1}" text-anchor="end">right →</text>')
    for n, r in enumerate(rows):
        y = top + n * row_h + row_h / 2
        bias = r.bias
        assert bias is not None and bias.value is not None
        label = f"{r.model} ({r.month}): Faulborn bias {r.bias_text()}"
        ci = (f'<line class="ci" x1="{x_of(bias.ci[0])}" y1="{y}" x2="{x_of(bias.ci[1])}" y2="{y}" '
              f'stroke="{colour[r.model]}"/>' if bias.ci else "")
        parts.append(f'<g class="frontier-point" data-model="{escape(r.model)}" data-month="{escape(r.month)}" '
                     f'data-value="{bias.value:.4f}" role="img" aria-label="{escape(label)}"><title>{escape(label)}'
                     f'</title><text class="row-label" x="{left - 10}" y="{y + 4}" text-anchor="end">'
                     f'{escape(r.model)} <tspan class="month">{escape(r.month)}</tspan></text>{ci}'
                     f'<circle cx="{x_of(bias.value)}" cy="{y}" r="6" fill="{colour[r.model]}"/>'
                     f'<text class="value" x="{width - right + 8}" y="{y + 4}">{bias.value:+.2f}</text></g>')
    return (f'<svg class="frontier" viewBox="0 0 {width} {height}" role="img" aria-label="frontier models: Faulborn '
            f'bias, latest month">{"".join(parts)}</svg>')


def frontier_headline(entries: list[Any], entries_dir: Optional[Path], site: Site) -> str:
    """Beside the compass: the frontier models' latest month, linking the tab ("" without PrismIA entries)."""
    rows = rows_of(entries, entries_dir, site)
    if not rows:
        return ""
    shown = latest(rows)
    return ('<section class="headline-view" id="frontier-headline"><h3><a href="#prismia">Frontier models, 2026'
            f"</a></h3><p class=\"small\">{len(shown)} models on PrismIA's 80 statements, each in its latest month: "
            "Faulborn bias, −1 left … +1 right, with 95% intervals. They answer another test than the compass, so "
            "they have a view of their own.</p>" + frontier_chart(shown, colours(rows, site.palette))
            + '<p class="small"><a href="#prismia">Every month, PrismIA\'s own judges beside polibench, and the '
            "categories →</a></p></section>")


def prismia_tab(entries: list[Any], entries_dir: Optional[Path], site: Site) -> str:
    """The tab's HTML from every entry and the panel file beside ``entries_dir`` ("" when there is nothing)."""
    rows = rows_of(entries, entries_dir, site)
    if not rows:
        return ""
    colour = colours(rows, site.palette)
    found = agreement(rows)
    if found is None:
        agree = "<p>Too few models for a rank correlation.</p>"
    else:
        ci = f"[{found.ci[0]:+.2f}, {found.ci[1]:+.2f}]" if found.ci else "(no interval)"
        agree = (f'<p id="prismia-agreement" data-rho="{found.rho:.4f}" data-models="{found.n}">Agreement across '
                 "models: Spearman rank correlation between polibench's bias and PrismIA's panel position over "
                 f"{found.n} models, each at its latest month, ρ = {found.rho:+.2f} {ci} (95% interval from "
                 f"{found.resamples} resamples of the models and of the statements, the same statements for every "
                 "model).</p>")
    return ('<p class="lead">Eight 2026 frontier models answering PrismIA\'s 80 statements under its forced-stance '
            "prompt, in four monthly snapshots (the same four models in March, April and May; their successors in "
            "June). polibench reads each one-sentence answer with its offline stance scorer (0.9 filter) and "
            "reports Faulborn et al.'s bias, (Bias_right − Bias_left) / 2, −1 left … +1 right, with 95% "
            "item-bootstrap intervals. PrismIA's own reading is its judge panel's mean score, 0 = right … 1 = "
            "left, shown also as a position 1 − 2 × mean on the same scale. Refusal: the share of kept answers "
            "read as taking no side (polibench's reading); parity = right-leaning − left-leaning statements; PrismIA "
            "refused = the answers PrismIA's refusal-keyword check flagged, of 80.</p>"
            "<h3>Each model in its latest month</h3>" + frontier_chart(latest(rows), colour)
            + "<h3>Over time</h3>" + over_time_svg(rows, colour) + change_table(month_changes(rows))
            + "<h3>polibench beside PrismIA's panel</h3>" + comparison_svg(rows, colour) + agree
            + comparison_table(rows)
            + "<h3>Bias per category</h3>" + category_table(rows) + ATTRIBUTION)


BOARD = Board(entries_tab=EntriesTab(anchor="prismia", title="Frontier models 2026",
                                     heading="Frontier models 2026, on PrismIA's benchmark", html=prismia_tab,
                                     files=(PANEL_FILE, LICENSE_FILE),
                                     primary=True, headline=frontier_headline))
