"""Tables and heatmaps across models from an evaluation document (``polibench fairness compare``).

Numbers are shown as percentages with two decimals, like Feng et al. In the per-group table (models as
rows, groups as columns, as Feng et al.'s Table 4; groups without test items are left out) the best model
of each group is **bold** and marked ``▲``, the worst _italic_ and marked ``▼`` (ties are all marked; a
column whose values are all equal is not marked). The heatmap colours
each cell by its distance from the group's mean over models (so a column's colours compare models on that
group), prints the value, and outlines the best (solid) and worst (dashed) cell of each column.
"""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path
from typing import Optional, Sequence

from polibench.errors import PolibenchError

NAMES = {"bacc": "BACC", "f1": "F1", "precision": "precision", "recall": "recall", "tpr": "TPR", "fpr": "FPR",
         "subgroup_auc": "subgroup AUC", "bpsn_auc": "BPSN AUC", "bnsp_auc": "BNSP AUC"}
LOWER_IS_BETTER = {"fpr"}


def pct(value: Optional[float]) -> str:
    return "–" if value is None or not math.isfinite(value) else f"{100 * value:.2f}"


def ci_text(ci) -> str:
    """``[lo, hi]`` in percent, or an empty string without an interval."""
    return f"[{pct(ci[0])}, {pct(ci[1])}]" if ci else ""


def _task(document: dict, task: str) -> dict:
    if task not in document.get("tasks", {}):
        raise PolibenchError(f"no results for task '{task}'; the document has {', '.join(document.get('tasks', {}))}")
    return document["tasks"][task]


def _models(entry: dict, models: Optional[Sequence[str]]) -> list[str]:
    names = list(entry["models"])
    if models:
        unknown = [m for m in models if m not in names]
        if unknown:
            raise PolibenchError(f"--models {', '.join(unknown)}: not in the document (have {', '.join(names)})")
        return list(models)
    return names


def overall_table(document: dict, task: str, models: Optional[Sequence[str]] = None) -> str:
    """Overall BACC and F1 per model (Feng et al.'s Table 3 columns), ``*`` = p < alpha vs the reference."""
    entry = _task(document, task)
    lines = [f"| {task} | BACC | 95% CI | F1 | 95% CI | seeds |", "|---|---:|---|---:|---|---:|"]
    for name in _models(entry, models):
        block = entry["models"][name]
        cells = []
        for metric in ("bacc", "f1"):
            stat = block["overall"][metric]
            test = (block.get("significance") or {}).get("overall", {}).get(metric) or {}
            cells += [pct(stat["value"]) + ("*" if test.get("significant") else ""), ci_text(stat["ci"])]
        label = name + (" (reference)" if entry.get("reference") == name else "")
        lines.append(f"| {label} | {' | '.join(cells)} | {len(block['seeds'])} |")
    return "\n".join(lines)


def table6_table(document: dict, task: str) -> str:
    """Feng et al.'s Table 6 for each ensemble of the task (empty string when there is none)."""
    entry = _task(document, task)
    out = []
    for name, ensemble in entry.get("ensembles", {}).items():
        rows = ensemble["table6"]
        lines = [f"| {task}: {name} ({', '.join(ensemble['members'])}) | BACC | F1 |", "|---|---:|---:|"]
        for row in ("avg-uni-model", "best-uni-model", "partisan-ensemble"):
            values = rows.get(row, {})
            lines.append(f"| {row} | {pct(values.get('bacc'))} | {pct(values.get('f1'))} |")
        out.append("\n".join(lines))
    return "\n\n".join(out)


def group_matrix(document: dict, task: str, grouping: str, metric: str,
                 models: Optional[Sequence[str]] = None) -> tuple[list[str], list[str], list[list[Optional[float]]]]:
    entry = _task(document, task)
    if grouping not in entry["groupings"]:
        raise PolibenchError(f"task '{task}' has no grouping '{grouping}' (has {', '.join(entry['groupings'])})")
    if metric not in NAMES:
        raise PolibenchError(f"unknown metric '{metric}'; one of {', '.join(NAMES)}")
    names = _models(entry, models)
    blocks = [entry["models"][name]["groupings"].get(grouping, {}).get("groups", {}) for name in names]
    groups = [g for g in entry["groupings"][grouping] if any(b.get(g, {}).get("n") for b in blocks)]
    values = [[(b.get(g, {}).get(metric) or {}).get("value") for g in groups] for b in blocks]
    return names, groups, values


def extremes(values: list[list[Optional[float]]], metric: str) -> tuple[list[set], list[set]]:
    """Rows holding the best and the worst value of each column (empty with fewer than two distinct values)."""
    best, worst = [], []
    for column in zip(*values) if values else []:
        present = [(v, r) for r, v in enumerate(column) if v is not None and math.isfinite(v)]
        if len(present) < 2:
            best.append(set())
            worst.append(set())
            continue
        top, bottom = max(v for v, _ in present), min(v for v, _ in present)
        if top == bottom:  # all equal: nothing to mark
            best.append(set())
            worst.append(set())
            continue
        if metric in LOWER_IS_BETTER:
            top, bottom = bottom, top
        best.append({r for v, r in present if v == top})
        worst.append({r for v, r in present if v == bottom})
    return best, worst


def group_table(document: dict, task: str, grouping: str, metric: str = "f1",
                models: Optional[Sequence[str]] = None) -> str:
    """Models x groups table of ``metric``, best of each group **bold ▲**, worst _italic ▼_, group sizes last."""
    names, groups, values = group_matrix(document, task, grouping, metric, models)
    best, worst = extremes(values, metric)
    lines = [f"| {task} / {grouping}: {NAMES[metric]} | " + " | ".join(groups) + " |",
             "|---|" + "---:|" * len(groups)]
    for r, name in enumerate(names):
        cells = []
        for c, value in enumerate(values[r]):
            text = pct(value)
            if r in best[c]:
                text = f"**{text} ▲**"
            elif r in worst[c]:
                text = f"_{text} ▼_"
            cells.append(text)
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    entry = _task(document, task)
    first = entry["models"][names[0]]["groupings"].get(grouping, {}).get("groups", {})
    lines.append("| n (test items) | " + " | ".join(str(first.get(g, {}).get("n", "–")) for g in groups) + " |")
    return "\n".join(lines)


DETAIL = ("bacc", "f1", "precision", "recall", "fpr", "subgroup_auc", "bpsn_auc", "bnsp_auc")


def detail_table(document: dict, task: str, grouping: str, model: str) -> str:
    """One model's per-group metrics (rows = groups with test items), with its gaps and equalised odds."""
    entry = _task(document, task)
    block = entry["models"][model]["groupings"].get(grouping)
    if not block:
        return ""
    lines = [f"| {model} on {task} / {grouping} | n | n {entry['labels'].get('1', 'positive')} | "
             + " | ".join(NAMES[m] for m in DETAIL) + " |", "|---|---:|---:|" + "---:|" * len(DETAIL)]
    for group, stats in block["groups"].items():
        if stats["n"]:
            lines.append(f"| {group} | {stats['n']} | {stats['n_positive']} | "
                         + " | ".join(pct(stats[m]["value"]) for m in DETAIL) + " |")
    gaps = block["gaps"]
    lines.append(f"| max-min gap | | | {pct(gaps['gap_bacc']['value'])} | {pct(gaps['gap_f1']['value'])} | | "
                 f"{pct(gaps['gap_tpr']['value'])} | {pct(gaps['gap_fpr']['value'])} | | | |")
    eod = gaps["equalized_odds_difference"]
    left_out = [g for g in block["excluded_from_gaps"] if block["groups"][g]["n"]]
    return "\n".join(lines) + (f"\n\nEqualised-odds difference: {pct(eod['value'])} {ci_text(eod['ci'])} "
                               f"(groups without both classes left out: {', '.join(left_out) or 'none'})")


def group_csv(document: dict, task: str, grouping: str, metric: str, models: Optional[Sequence[str]] = None) -> str:
    names, groups, values = group_matrix(document, task, grouping, metric, models)
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["model", *groups])
    for name, row in zip(names, values):
        writer.writerow([name, *["" if v is None else f"{v:.6f}" for v in row]])
    return buffer.getvalue()


def heatmap(document: dict, task: str, grouping: str, metric: str, out_base: Path,
            models: Optional[Sequence[str]] = None) -> list[Path]:
    """``<out_base>.png`` and ``.svg``: the models x groups heatmap described in the module docstring."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    from matplotlib.patches import Rectangle

    names, groups, values = group_matrix(document, task, grouping, metric, models)
    grid = np.array([[np.nan if v is None else 100 * v for v in row] for row in values], dtype=float)
    with np.errstate(all="ignore"):
        centred = grid - np.nanmean(grid, axis=0, keepdims=True) if len(names) > 1 else np.zeros_like(grid)
    if metric in LOWER_IS_BETTER:
        centred = -centred
    limit = float(np.nanmax(np.abs(centred))) if np.isfinite(centred).any() else 1.0
    limit = limit or 1.0
    best, worst = extremes(values, metric)
    fig, ax = plt.subplots(figsize=(1.0 + 0.9 * len(groups), 0.9 + 0.45 * len(names)), dpi=150)
    image = ax.imshow(np.nan_to_num(centred), cmap="RdYlGn", vmin=-limit, vmax=limit, aspect="auto")
    for r in range(len(names)):
        for c in range(len(groups)):
            ax.text(c, r, "–" if np.isnan(grid[r, c]) else f"{grid[r, c]:.1f}", ha="center", va="center", fontsize=8)
    for c, (rows_best, rows_worst) in enumerate(zip(best, worst)):
        for b in rows_best:
            ax.add_patch(Rectangle((c - 0.5, b - 0.5), 1, 1, fill=False, lw=2, ec="black"))
        for w in rows_worst:
            ax.add_patch(Rectangle((c - 0.5, w - 0.5), 1, 1, fill=False, lw=1.5, ec="black", ls="--"))
    ax.set_xticks(range(len(groups)), groups, rotation=45, ha="right", fontsize=8)
    ax.set_yticks(range(len(names)), names, fontsize=8)
    ax.set_title(f"{task} / {grouping}: {NAMES[metric]} (%)", fontsize=9)
    bar = fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
    bar.set_label("points above the group mean" if metric not in LOWER_IS_BETTER else "points better than mean",
                  fontsize=7)
    fig.tight_layout()
    out_base = Path(out_base)
    out_base.parent.mkdir(parents=True, exist_ok=True)
    paths = [out_base.with_suffix(".png"), out_base.with_suffix(".svg")]
    for path in paths:
        fig.savefig(path)
    plt.close(fig)
    return paths


def summary_markdown(document: dict, metrics: Sequence[str] = ("bacc", "f1"),
                     models: Optional[Sequence[str]] = None) -> str:
    """Overall table, Table 6 and the per-group tables of every task and grouping."""
    parts = []
    for task, entry in document["tasks"].items():
        parts.append(f"### {task}\n\n" + overall_table(document, task, models))
        six = table6_table(document, task)
        if six:
            parts.append(six)
        for grouping in entry["groupings"]:
            for metric in metrics:
                parts.append(group_table(document, task, grouping, metric, models))
            for model in _models(entry, models):
                parts.append(detail_table(document, task, grouping, model))
    reference = document["settings"].get("reference")
    note = (f"Values in %, mean over seeds; CI: {document['settings']['ci_level']:.0%} bootstrap interval "
            f"({document['settings']['bootstrap']} resamples)")
    if reference:
        note += f"; * = p < {document['settings']['alpha']} against {reference} (t-test across seeds)"
    return "\n\n".join(parts) + "\n\n" + note + ".\n"


def write_comparison(document: dict, out_dir: Path, tasks: Optional[Sequence[str]] = None,
                     groupings: Optional[Sequence[str]] = None, metrics: Sequence[str] = ("bacc", "f1"),
                     models: Optional[Sequence[str]] = None) -> list[Path]:
    """``compare.md`` (all tables) plus a CSV and a PNG/SVG heatmap per task, grouping and metric."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written, sections = [], []
    for task in tasks or list(document["tasks"]):
        entry = _task(document, task)
        sections.append(f"## {task}\n\n" + overall_table(document, task, models))
        six = table6_table(document, task)
        if six:
            sections.append(six)
        for grouping in groupings or list(entry["groupings"]):
            if grouping not in entry["groupings"]:
                continue
            for metric in metrics:
                stem = f"{task}_{grouping}_{metric}".replace("/", "-")
                sections.append(group_table(document, task, grouping, metric, models) +
                                f"\n\n![{task} {grouping} {metric}]({stem}.png)")
                (out_dir / f"{stem}.csv").write_text(group_csv(document, task, grouping, metric, models),
                                                     encoding="utf-8")
                written.append(out_dir / f"{stem}.csv")
                written.extend(heatmap(document, task, grouping, metric, out_dir / stem, models))
    path = out_dir / "compare.md"
    path.write_text("# Downstream fairness: per-group comparison\n\n" + "\n\n".join(sections) +
                    "\n\nBest model per group: **bold ▲**; worst: _italic ▼_. Values in %.\n", encoding="utf-8")
    return [path, *written]
