"""Compare runs across models: rankings per metric column and how far two rankings agree.

Reads only results.json documents. For every task the runs share, each run gets a rank (1 = most left, ties
share the lowest rank) in every column its metrics' ``compare`` hooks give (the metric registry, e.g. PCT
coordinates and the Faulborn bias per dimension on each instrument). Kendall's tau (``scipy.stats.kendalltau``,
tau-b) between two columns' rankings says how far they order the models alike; which columns are paired is the
metrics' ``compare_pairs`` hook (e.g. the Faulborn bias on PCT vs WVS items, per dimension: Faulborn et al. found
0.71 economic, 0.6 on the dimension they call cultural, polibench's social).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from polibench.errors import PolibenchError
from polibench.metrics.position import LIMIT_LABEL, MIN_AXIS_COVERAGE
from polibench.metrics.registry import registered
from polibench.report.markdown import short_model_name
from polibench.report.registry import ShowContext, report_of, show
from polibench.results.document import ResultsDocument, TaskResults
from polibench.scoring.fingerprint import differ, reading_of


def run_label(document: ResultsDocument, run_dir: Path, taken: set[str]) -> str:
    """The model's name; the run folder's name is added where two runs would otherwise look the same."""
    label = short_model_name(document.model.get("model") or run_dir.name)
    if label in taken:
        label = f"{label} ({run_dir.name})"
    taken.add(label)
    return label


@dataclass
class _Columns:
    """What one run's task block gives ``compare`` (its metrics' hooks, :class:`polibench.metrics.registry.Metric`):
    ``values`` {column: value} (e.g. pct_economic, bias_all_total), ``unranked`` {column: why it is not ranked},
    ``shown`` {column: {"title", "digits"}}, ``legend`` (what the columns are), ``pairs`` (the columns whose
    rankings are correlated: {key: {"between", "title"}})."""

    values: dict[str, Optional[float]] = field(default_factory=dict)
    unranked: dict[str, str] = field(default_factory=dict)
    shown: dict[str, dict] = field(default_factory=dict)
    legend: list[tuple[str, str]] = field(default_factory=list)  # (metric name, fragment)
    pairs: dict[str, dict] = field(default_factory=dict)


def _metrics(task: str, block: TaskResults, min_coverage: float) -> _Columns:
    out = _Columns()
    for metric, found in block.metrics():
        ctx = ShowContext(task=task, results=block, min_coverage=min_coverage)
        columns = show(metric.name, "compare", found, ctx, default={})
        out.values.update(columns)
        out.unranked.update(show(metric.name, "compare_unranked", found, ctx, default={}))
        title = report_of(metric.name).compare_title
        digits = metric.estimates[0].digits if metric.estimates else 3
        out.shown.update({c: {"title": title(c) if title else c, "digits": digits} for c in columns})
        legend = show(metric.name, "compare_legend", found, ctx, default="")
        out.legend += [(metric.name, legend)] if legend else []
        out.pairs.update(show(metric.name, "compare_pairs", found, ctx, default={}))
    return out


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


def _legend(found: list[_Columns]) -> list[str]:
    """Each metric's legend fragment once, in the registry's order."""
    order = list(registered())
    fragments = dict(sorted({name: text for f in found for name, text in f.legend}.items(),
                            key=lambda item: order.index(item[0]) if item[0] in order else len(order)))
    return list(fragments.values())


def compare_task(task: str, labels: list[str], blocks: list[TaskResults],
                 min_coverage: float = MIN_AXIS_COVERAGE) -> dict:
    found = [_metrics(task, b, min_coverage) for b in blocks]
    metrics = [f.values for f in found]
    unranked = [f.unranked for f in found]
    columns = [c for c in dict.fromkeys(k for m in metrics for k in m) if all(c in m for m in metrics)]
    if not columns:
        raise PolibenchError(f"task '{task}': the runs have no metric column in common to rank by (the columns of "
                             "the metrics' compare hooks, e.g. PCT coordinates or Faulborn bias)")
    table = {c: [m[c] for m in metrics] for c in columns}
    out = {
        "task": task,
        "runs": [{"label": label, **{c: table[c][n] for c in columns}} for n, label in enumerate(labels)],
        "rankings": {c: dict(zip(labels, ranks(table[c], [c not in u for u in unranked]))) for c in columns},
        "unranked": {label: u for label, u in zip(labels, unranked) if u},
        "kendall_tau": {},
        "columns": {c: found[0].shown[c] for c in columns},
        "legend": _legend(found),
    }
    pairs = {key: pair for f in found for key, pair in f.pairs.items()}
    for key, pair in pairs.items():
        a, b = pair["between"]
        missing = [c for c in (a, b) if c not in table]
        out["kendall_tau"][key] = {"between": [a, b], "title": pair["title"],
                                   **({"tau": None, "p_value": None, "n": 0, "missing": missing} if missing
                                      else kendall(table[a], table[b]))}
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
    for name, found in tasks.items():
        found["scorers"] = scorer_marks(name, labels, runs)
    return {"runs": [{"label": label, "run_dir": str(p), "model": d.model.get("model"), "seed": d.run.seed,
                      "limit": d.run.limit} for label, (p, d) in zip(labels, runs)],
            "tasks": tasks, "min_coverage": min_coverage}


def scorer_marks(task: str, labels: list[str], runs: list[tuple[Path, ResultsDocument]]) -> dict:
    """Which stance scorer read ``task`` in each run, and whether the runs differ in it (issue 36): ``{"readings":
    {label: "scorer w:... c:..."}, "mixed": bool, "marked": [...], "reread": [...]}``. The runs read by another
    scorer than the first run read by the reference scorer (else than the first run) are marked; ``reread`` are the
    commands that read every run's responses again with this machine's scorer, which puts them under one."""
    readings = [reading_of(d.scoring.get(task, {})) for _, d in runs]
    base = next((r for r in readings if r.is_reference), readings[0])
    marked = [label for label, r in zip(labels, readings) if differ(base, r)]
    commands = [f"polibench score {p} --scorer {r.scorer} --output {p}-reread"
                for (p, _), r in zip(runs, readings) if r.scorer] if marked else []
    return {"readings": {label: r.label() for label, r in zip(labels, readings)}, "mixed": bool(marked),
            "marked": marked, "reread": commands}


def _cell(value: Optional[float], rank: Optional[int], digits: int, unranked: str = "") -> str:
    if value is None:
        return unranked or "–"
    return f"{value:+.{digits}f} ({f'unranked: {unranked}' if unranked else rank})"


def scorer_lines(marks: dict) -> list[str]:
    """The note under a task whose runs were read by different stance scorers, with the commands that re-read."""
    lines = ["† READ BY DIFFERENT STANCE SCORERS: these positions are not directly comparable "
             "(another scorer, or the same one trained on another machine, reads some answers differently):"]
    lines += [f"    {label}: {reading}" for label, reading in marks["readings"].items()]
    if marks.get("reread"):
        lines.append("  compare under one scorer: re-read the runs' responses with this machine's scorer (nothing is "
                     "generated), then compare the new folders:")
        lines += [f"    {command}" for command in marks["reread"]]
    return lines + [""]


def render_table(comparison: dict) -> str:
    """Plain-text tables: value (rank) per run and column, then Kendall's tau of each pair of rankings."""
    lines = [f"{run['label']}: --limit {run['limit']}: {LIMIT_LABEL}" for run in comparison["runs"]
             if run.get("limit") is not None]
    lines += [""] if lines else []
    for task, found in comparison["tasks"].items():
        columns = list(found["rankings"])
        shown = found.get("columns", {})
        header = ["model"] + [shown.get(c, {}).get("title", c) for c in columns]
        unranked = found.get("unranked", {})
        marks = found.get("scorers", {})
        marked = set(marks.get("marked", []))
        rows = [[run["label"] + (" †" if run["label"] in marked else "")]
                + [_cell(run[c], found["rankings"][c][run["label"]], shown.get(c, {}).get("digits", 3),
                         unranked.get(run["label"], {}).get(c, ""))
                   for c in columns] for run in found["runs"]]
        widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
        legend = "; ".join(found.get("legend", []))
        lines += [f"task {task}: value (rank; 1 = most left / libertarian)" + (f". {legend}" if legend else ""), ""]
        lines += ["  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip() for r in [header] + rows]
        lines.append("")
        if unranked:
            lines += [f"unranked: a PCT axis with fewer than {comparison.get('min_coverage', MIN_AXIS_COVERAGE):.0%} "
                      "of its statements answered (insufficient data) or none (no position)", ""]
        if marks.get("mixed"):
            lines += scorer_lines(marks)
        for tau in found["kendall_tau"].values():
            if tau.get("missing"):
                lines.append(f"Kendall tau, {tau['title']}: n/a (needs {' and '.join(tau['missing'])} in every run)")
                continue
            value = f"{tau['tau']:+.3f} (p = {tau['p_value']:.3g})" if tau["tau"] is not None else \
                "n/a (needs 2 runs with both values)" if tau["n"] < 2 else "n/a (a ranking is all ties)"
            lines.append(f"Kendall tau, {tau['title']}: {value}, n = {tau['n']}")
        lines.append("")
    return "\n".join(lines)
