"""Compare runs across models: rankings per instrument and how well the PCT and WVS rankings agree.

Reads only results.json documents. For every task the runs share, each run gets a rank (1 = most left, ties
share the lowest rank) in every column its metrics' ``compare`` hooks give (the metric registry): its PCT
coordinates and its Faulborn bias per dimension on each instrument, for the built-in metrics;
Kendall's tau (``scipy.stats.kendalltau``, tau-b) between the PCT and the WVS bias rankings, per dimension,
says how far the two instruments order the models alike (Faulborn et al.: 0.71 economic, 0.6 on the dimension
they call cultural, polibench's social).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Optional

from polibench.errors import PolibenchError
from polibench.metrics.blocks import BIAS_DIMENSIONS
from polibench.metrics.position import LIMIT_LABEL, MIN_AXIS_COVERAGE
from polibench.metrics.registry import ShowContext
from polibench.report.markdown import short_model_name
from polibench.results.document import ResultsDocument, TaskResults

TAU_PAIR = ("pct", "wvs")
SIDED_DIMENSIONS = BIAS_DIMENSIONS[:2]  # economic, social: the dimensions statements are classified into


def run_label(document: ResultsDocument, run_dir: Path, taken: set[str]) -> str:
    """The model's name; the run folder's name is added where two runs would otherwise look the same."""
    label = short_model_name(document.model.get("model") or run_dir.name)
    if label in taken:
        label = f"{label} ({run_dir.name})"
    taken.add(label)
    return label


def _metrics(task: str, block: TaskResults, min_coverage: float) -> tuple[dict[str, Optional[float]], dict[str, str],
                                                                         dict[str, dict]]:
    """``({column: value}, {column: why it is not ranked}, {column: {"title", "digits"}})`` for one run's task
    block: each metric's ``compare``, ``compare_unranked`` and ``compare_title`` hooks
    (:class:`polibench.metrics.registry.Metric`; e.g. pct_economic, bias_all_total) and its estimates' digits."""
    values: dict[str, Optional[float]] = {}
    unranked: dict[str, str] = {}
    shown: dict[str, dict] = {}
    for metric, found in block.metrics():
        ctx = ShowContext(task=task, results=block, min_coverage=min_coverage)
        columns = metric.show("compare", found, ctx, default={})
        values.update(columns)
        unranked.update(metric.show("compare_unranked", found, ctx, default={}))
        title = metric.hook("compare_title")
        digits = metric.estimates[0].digits if metric.estimates else 3
        shown.update({c: {"title": title(c) if title else c, "digits": digits} for c in columns})
    return values, unranked, shown


def ranks(values: list[Optional[float]], eligible: Optional[list[bool]] = None) -> list[Optional[int]]:
    """1 = smallest (most left); ties share the lowest rank; None (and a value not ``eligible``) stays unranked."""
    eligible = eligible or [True] * len(values)
    defined = sorted(v for v, ok in zip(values, eligible) if v is not None and ok)
    return [None if v is None or not ok else defined.index(v) + 1 for v, ok in zip(values, eligible)]


def kendall(x: list[Optional[float]], y: list[Optional[float]]) -> dict:
    from scipy.stats import kendalltau

    pairs = [(a, b) for a, b in zip(x, y) if a is not None and b is not None]
    result = {"tau": None, "p_value": None, "n": len(pairs)}
    if len(pairs) >= 2:
        found = kendalltau([a for a, _ in pairs], [b for _, b in pairs])
        if not math.isnan(found.statistic):
            result["tau"], result["p_value"] = round(float(found.statistic), 4), round(float(found.pvalue), 4)
    return result


def compare_task(task: str, labels: list[str], blocks: list[TaskResults],
                 min_coverage: float = MIN_AXIS_COVERAGE) -> dict:
    found = [_metrics(task, b, min_coverage) for b in blocks]
    metrics = [m for m, _, _ in found]
    unranked = [u for _, u, _ in found]
    columns = [c for c in dict.fromkeys(k for m in metrics for k in m) if all(c in m for m in metrics)]
    if not columns:
        raise PolibenchError(f"task '{task}': the runs have no PCT coordinates or Faulborn bias in common to rank by")
    table = {c: [m[c] for m in metrics] for c in columns}
    out = {
        "task": task,
        "runs": [{"label": label, **{c: table[c][n] for c in columns}} for n, label in enumerate(labels)],
        "rankings": {c: dict(zip(labels, ranks(table[c], [c not in u for u in unranked]))) for c in columns},
        "unranked": {label: u for label, u in zip(labels, unranked) if u},
        "kendall_tau": {},
        "columns": {c: found[0][2][c] for c in columns},
    }
    first, second = TAU_PAIR
    for dim in SIDED_DIMENSIONS:
        a, b = f"bias_{first}_{dim}", f"bias_{second}_{dim}"
        if a in table and b in table:
            out["kendall_tau"][dim] = {"between": [a, b], **kendall(table[a], table[b])}
    return out


def compare_documents(runs: list[tuple[Path, ResultsDocument]], task: Optional[str] = None,
                      min_coverage: float = MIN_AXIS_COVERAGE) -> dict:
    """The comparison of ``(run_dir, results document)`` pairs: one entry per shared task (or ``task``). A PCT
    axis with insufficient data is shown but not ranked; a --limit run is marked as for testing."""
    if len(runs) < 2:
        raise PolibenchError(f"compare needs at least 2 run folders (got {len(runs)})")
    shared = [t for t in runs[0][1].results if all(t in d.results for _, d in runs[1:])]
    if task is not None:
        missing = [str(p) for p, d in runs if task not in d.results]
        if missing:
            raise PolibenchError(f"task '{task}' is not in the results of {', '.join(missing)}")
        shared = [task]
    if not shared:
        raise PolibenchError("the runs have no task in common")
    taken: set[str] = set()
    labels = [run_label(d, p, taken) for p, d in runs]
    tasks, problems = {}, []
    for name in shared:
        try:
            tasks[name] = compare_task(name, labels, [d.results[name] for _, d in runs], min_coverage)
        except PolibenchError as exc:
            problems.append(str(exc))
    if not tasks:
        raise PolibenchError("; ".join(problems))
    return {"runs": [{"label": label, "run_dir": str(p), "model": d.model.get("model"), "seed": d.run.seed,
                      "limit": d.run.limit} for label, (p, d) in zip(labels, runs)],
            "tasks": tasks, "min_coverage": min_coverage}


def _cell(value: Optional[float], rank: Optional[int], digits: int, unranked: str = "") -> str:
    if value is None:
        return unranked or "–"
    return f"{value:+.{digits}f} ({f'unranked: {unranked}' if unranked else rank})"


def render_table(comparison: dict) -> str:
    """Plain-text tables: value (rank) per run and column, then Kendall's tau per dimension."""
    lines = [f"{run['label']}: --limit {run['limit']}: {LIMIT_LABEL}" for run in comparison["runs"]
             if run.get("limit") is not None]
    lines += [""] if lines else []
    for task, found in comparison["tasks"].items():
        columns = list(found["rankings"])
        shown = found.get("columns", {})
        header = ["model"] + [shown.get(c, {}).get("title", c) for c in columns]
        unranked = found.get("unranked", {})
        rows = [[run["label"]] + [_cell(run[c], found["rankings"][c][run["label"]], shown.get(c, {}).get("digits", 3),
                                        unranked.get(run["label"], {}).get(c, ""))
                                  for c in columns] for run in found["runs"]]
        widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
        lines += [f"task {task}: value (rank; 1 = most left / libertarian). PCT = coordinates; bias = Faulborn bias "
                  f"over all items; pct / wvs = Faulborn bias on that instrument's items", ""]
        lines += ["  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip() for r in [header] + rows]
        lines.append("")
        if unranked:
            lines += [f"unranked: a PCT axis with fewer than {comparison.get('min_coverage', MIN_AXIS_COVERAGE):.0%} "
                      "of its statements answered (insufficient data) or none (no position)", ""]
        if found["kendall_tau"]:
            for dim, tau in found["kendall_tau"].items():
                value = f"{tau['tau']:+.3f} (p = {tau['p_value']:.3g})" if tau["tau"] is not None else \
                    "n/a (needs 2 runs with both values)" if tau["n"] < 2 else "n/a (a ranking is all ties)"
                lines.append(f"Kendall tau, PCT vs WVS ranking by {dim} bias: {value}, n = {tau['n']}")
        else:
            lines.append("Kendall tau: n/a (needs the Faulborn bias on both the pct and wvs instruments)")
        lines.append("")
    return "\n".join(lines)
