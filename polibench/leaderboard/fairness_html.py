"""HTML of the leaderboard's fairness tab and of the fairness section of a model page.

For each submission and task: the overall table (Feng et al.'s Table 3 columns, with intervals), Table 6 for
each partisan ensemble, and per grouping a models x groups heatmap table of BACC and F1 (Feng et al.'s
Table 4): each cell is coloured by its distance from the group's mean over models (classes ``heat-m3`` …
``heat-p3``; no inline styles, the page's CSP forbids them), the best model of a group is marked ▲ and the
worst ▼, and the cell's tooltip gives the interval and the group size. Every value is escaped here.
"""

from __future__ import annotations

import math
from html import escape
from typing import Optional

from polibench.errors import PolibenchError
from polibench.fairness.compare import NAMES, ci_text, extremes, group_matrix
from polibench.fairness.compare import pct as percent
from polibench.leaderboard.fairness_submit import FairnessSubmission

HEAT_STEPS = 3
METRICS = ("bacc", "f1")


def _num(stat: Optional[dict]) -> str:
    value = (stat or {}).get("value")
    sort = "" if value is None else f"{value:.6f}"
    ci = ci_text((stat or {}).get("ci"))
    return (f'<td class="num" data-value="{sort}">{percent(value)}'
            + (f'<span class="ci">{escape(ci)}</span>' if ci else "") + "</td>")


def heat_levels(values: list[list[Optional[float]]]) -> list[list[Optional[int]]]:
    """Per cell, -3 … +3: its distance from its column's mean, scaled by the largest such distance."""
    columns = list(zip(*values)) if values else []
    centred: list[list[Optional[float]]] = [[None] * len(columns) for _ in values]
    for c, column in enumerate(columns):
        present = [v for v in column if v is not None and math.isfinite(v)]
        if len(present) < 2:
            continue
        mean = sum(present) / len(present)
        for r, v in enumerate(column):
            if v is not None and math.isfinite(v):
                centred[r][c] = v - mean
    limit = max((abs(x) for row in centred for x in row if x is not None), default=0.0)
    return [[None if x is None else (round(HEAT_STEPS * x / limit) if limit else 0) for x in row] for row in centred]


def _heat_class(level: Optional[int]) -> str:
    if level is None:
        return "heat-none"
    return f"heat-{'p' if level > 0 else 'm'}{abs(level)}" if level else "heat-0"


def heat_table(document: dict, task: str, grouping: str, metric: str) -> str:
    names, groups, values = group_matrix(document, task, grouping, metric)
    if not groups:
        return ""
    best, worst = extremes(values, metric)
    levels = heat_levels(values)
    blocks = [document["tasks"][task]["models"][n]["groupings"].get(grouping, {}).get("groups", {}) for n in names]
    head = "".join(f'<th scope="col">{escape(g)}</th>' for g in groups)
    rows = []
    for r, name in enumerate(names):
        cells = []
        for c, group in enumerate(groups):
            stat = blocks[r].get(group, {}).get(metric) or {}
            mark, kind = ("▲", " best") if r in best[c] else (("▼", " worst") if r in worst[c] else ("", ""))
            title = (f"{name} · {group}: {NAMES[metric]} {percent(values[r][c])} {ci_text(stat.get('ci'))}, "
                     f"n={blocks[r].get(group, {}).get('n', 0)}")
            cells.append(f'<td class="num heat {_heat_class(levels[r][c])}{kind}" title="{escape(title)}" '
                         f'data-model="{escape(name)}" data-group="{escape(group)}">{percent(values[r][c])}'
                         + (f'<span class="mark">{mark}</span>' if mark else "") + "</td>")
        rows.append(f'<tr><th scope="row">{escape(name)}</th>{"".join(cells)}</tr>')
    sizes = "".join(f'<td class="num">{blocks[0].get(g, {}).get("n", 0)}</td>' for g in groups)
    caption = f"{task} / {grouping}: {NAMES[metric]} (%) per group"
    return (f'<table class="heatmap" data-task="{escape(task)}" data-grouping="{escape(grouping)}" '
            f'data-metric="{escape(metric)}"><caption>{escape(caption)}</caption>'
            f'<thead><tr><th scope="col">model</th>{head}</tr></thead><tbody>{"".join(rows)}'
            f'<tr class="sizes"><th scope="row">n (test items)</th>{sizes}</tr></tbody></table>')


def overall_table(document: dict, task: str) -> str:
    entry = document["tasks"][task]
    rows = []
    for name, block in entry["models"].items():
        gaps = [next(iter(block["groupings"].values()), {}).get("gaps", {}).get(k) for k in
                ("gap_bacc", "equalized_odds_difference")]
        label = escape(name) + (' <span class="sub">(reference)</span>' if entry.get("reference") == name else "")
        kind = "ensemble of " + ", ".join(block.get("members") or []) if block["kind"] == "ensemble" else "model"
        rows.append(f'<tr data-model="{escape(name)}"><th scope="row">{label}<div class="sub">{escape(kind)}</div></th>'
                    + _num(block["overall"]["bacc"]) + _num(block["overall"]["f1"])
                    + "".join(_num(g) for g in gaps) + f'<td class="num">{len(block["seeds"])}</td></tr>')
    return (f'<table class="small fairness-overall" data-task="{escape(task)}"><caption>{escape(task)}: overall '
            f'(%, mean over seeds)</caption><thead><tr><th>model</th><th>BACC</th><th>F1</th>'
            f'<th title="largest minus smallest per-group BACC (first grouping)">BACC gap</th>'
            f'<th title="fairlearn equalised-odds difference (first grouping)">EOD</th><th>seeds</th></tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>')


def ensemble_tables(document: dict, task: str) -> str:
    out = []
    for name, ensemble in document["tasks"][task].get("ensembles", {}).items():
        rows = "".join(f'<tr><th scope="row">{escape(row)}</th><td class="num">{percent(values.get("bacc"))}</td>'
                       f'<td class="num">{percent(values.get("f1"))}</td></tr>'
                       for row, values in ((r, ensemble["table6"].get(r, {})) for r in
                                           ("avg-uni-model", "best-uni-model", "partisan-ensemble")))
        out.append(f'<table class="small table6"><caption>{escape(task)}: {escape(name)} = '
                   f'{escape(", ".join(ensemble["members"]))} (Feng et al. Table 6)</caption>'
                   f'<thead><tr><th></th><th>BACC</th><th>F1</th></tr></thead><tbody>{rows}</tbody></table>')
    return "".join(out)


def submission_section(submission: FairnessSubmission) -> str:
    doc = submission.document
    settings = doc.get("settings", {})
    facts = [("submitted", escape(submission.submitted)), ("evaluated", escape(str(doc.get("generated", "?")))),
             ("polibench", escape(str(doc.get("polibench_version", "?")))),
             ("intervals", escape(f"{settings.get('ci_level', 0):.0%} bootstrap, {settings.get('bootstrap')} "
                                  f"resamples of test items")),
             ("seed runs", f"{submission.n_runs}"),
             ("files", f'<a href="fairness/{escape(submission.name)}.json">{escape(submission.name)}.json</a>, '
                       f'<a href="fairness/{escape(submission.predictions.file)}">predictions</a> '
                       f'(sha256 <code>{escape(submission.predictions.sha256[:16])}…</code>)')]
    if settings.get("reference"):
        facts.insert(3, ("reference", escape(f"{settings['reference']} (t-test across seeds, p < "
                                             f"{settings.get('alpha')})")))
    parts = [f'<section class="fairness-submission" data-name="{escape(submission.name)}">'
             f"<h3>{escape(submission.name)}</h3>"
             + (f'<p class="note">{escape(submission.note)}</p>' if submission.note else "")
             + "<dl>" + "".join(f"<dt>{escape(k)}</dt><dd>{v}</dd>" for k, v in facts) + "</dl>"]
    for task, entry in doc["tasks"].items():
        parts.append(f"<h4>task {escape(task)}</h4>" + overall_table(doc, task) + ensemble_tables(doc, task))
        for grouping in entry["groupings"]:
            parts.extend(heat_table(doc, task, grouping, metric) for metric in METRICS)
    return "".join(parts) + "</section>"


def fairness_tab(submissions: list[FairnessSubmission], folder=None) -> str:
    if not submissions:
        return ('<p class="note">No downstream fairness results yet: see <code>polibench fairness submit</code> '
                'in docs/fairness.md.</p>')
    parts = []
    for submission in submissions:
        try:
            parts.append(submission_section(submission))
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            where = f"{folder}/{submission.name}.json" if folder else f"{submission.name}.json"
            raise PolibenchError(f"{where}: field 'document': not the layout `polibench fairness eval` writes "
                                 f"({type(exc).__name__}: {exc!s:.80}); run `polibench leaderboard verify`") from None
    return "".join(parts)


def model_fairness(rows: list[tuple[FairnessSubmission, str]]) -> str:
    """The model page's section: overall BACC/F1 of this model in each submission that evaluated it."""
    if not rows:
        return '<p class="note">No downstream fairness results for this model yet.</p>'
    body = []
    for submission, model in rows:
        for task, entry in submission.document["tasks"].items():
            block = entry["models"].get(model)
            if block:
                body.append(f'<tr><td>{escape(submission.name)}</td><td>{escape(task)}</td>'
                            + _num(block["overall"]["bacc"]) + _num(block["overall"]["f1"])
                            + f'<td class="num">{len(block["seeds"])}</td></tr>')
    return ('<table class="small"><thead><tr><th>submission</th><th>task</th><th>BACC (%)</th><th>F1 (%)</th>'
            f'<th>seeds</th></tr></thead><tbody>{"".join(body)}</tbody></table>'
            '<p class="note">Per-group tables: <a href="../index.html#fairness">the “Downstream fairness” tab</a>.</p>')
