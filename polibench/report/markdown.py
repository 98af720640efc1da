"""``report.md`` and its figures: headline numbers with 95% intervals, then each metric's own lines, section and
figures, then the sections of the metrics over the whole run.

Everything is read from the results document (never from the model or the samples), so a report can be
rebuilt from results.json alone (``polibench report RUN_DIR``). This module names no metric: what each metric
shows comes from its registration (:class:`polibench.metrics.registry.Metric`'s hooks).
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from polibench.metrics.position import DEGENERATE_NOTE, LIMIT_LABEL, MIN_AXIS_COVERAGE, degenerate
from polibench.metrics.registry import registered
from polibench.report.reading import reading_lines
from polibench.report.registry import ShowContext, report_of, run_report_of, show, show_run
from polibench.report.summary import scorer_used, summary_section
from polibench.report.text import with_ci
from polibench.results.document import ResultsDocument, TaskResults
from polibench.results.files import REPORT, atomic_write_text

__all__ = ["header_lines", "headline_table", "render_report", "run_level_sections", "short_model_name", "task_scoring",
           "task_section", "with_ci", "write_figures", "write_report", "write_run_figures"]


def _or(value, default: str):
    return default if value is None else value


def short_model_name(model) -> str:
    """A file or folder path becomes its last part (``.../SmolLM2-135M-Instruct.Q4_1.gguf`` -> the file name);
    hub ids (``org/name``) stay as they are."""
    text = str(model)
    path = Path(text)
    return path.name if (path.is_absolute() or text.startswith(".") or path.suffix == ".gguf") else text


def headline_table(results: TaskResults) -> list[str]:
    """The numbers a reader (and the leaderboard) looks at first, each with its 95% bootstrap interval; labels,
    directions and ranges come from the metric registry (a range the block computes, as this run computed it)."""
    blocks = dict((metric.name, block) for metric, block in results.metrics())
    rows = [(f"{estimate.label} ({estimate.direction_of(blocks.get(metric.name))})",
             with_ci(value, interval, estimate.digits) + (DEGENERATE_NOTE if degenerate(value, interval) else ""))
            for metric, estimate, value, interval in results.estimates()]
    if not rows:
        return []
    return ["| measure | value [95% CI] |", "|---|---|"] + [f"| {a} | {b} |" for a, b in rows] + [""]


def task_section(name: str, results: TaskResults, scoring: dict, figures: Optional[dict] = None,
                 min_coverage: float = MIN_AXIS_COVERAGE) -> list[str]:
    """One task's part of report.md: the headline table, each metric's lead lines, the bootstrap settings (when a
    metric's intervals come from the item bootstrap), then each metric's section. ``figures``: the task's
    figures, {metric name: {kind: file names}}."""
    figures = figures or {}
    shown = results.metrics()
    lines = [f"## {name}", ""] + headline_table(results)
    for metric, block in shown:
        lines += show(metric.name, "lead", block, _context(name, results, scoring, min_coverage), default=[])
    boot = results.bootstrap
    if any(metric.item_bootstrap for metric, _ in shown):
        lines += [f"Intervals: {100 * boot.level:.0f}% percentile bootstrap over items ({boot.resamples:,} "
                  f"resamples, stratified by {', '.join(boot.strata)}; seed {boot.seed}).", ""]
    for metric, block in shown:
        lines += show(metric.name, "section", block, _context(name, results, scoring, min_coverage,
                                                            figures.get(metric.name, {})), default=[])
    return lines


def _context(task: str, results: TaskResults, scoring: dict, min_coverage: float,
             figures: Optional[dict] = None) -> ShowContext:
    return ShowContext(task=task, results=results, scoring=scoring, min_coverage=min_coverage, figures=figures or {})


def run_sections(document: ResultsDocument) -> list[str]:
    """The sections of the metrics that report over every task of the run that has their block."""
    model = document.model
    name = short_model_name(model.get("model")) or str(model.get("backend"))
    lines: list[str] = []
    for metric in registered().values():
        blocks = {task: block for task, results in document.results.items()
                  if (block := results.block(metric.key)) is not None}
        if blocks and report_of(metric.name).run_section is not None:
            lines += show(metric.name, "run_section", blocks, name, default=[])
    return lines


def run_level_sections(document: ResultsDocument, figures: Optional[dict[str, list[str]]] = None) -> list[str]:
    """Each registered run-level metric's section (:mod:`polibench.metrics.run_level`), from its stored block;
    a metric that draws figures gets its file names from ``figures`` (metric name -> file names)."""
    lines: list[str] = []
    for metric, block in document.run_metrics.blocks():
        extra = ((figures or {}).get(metric.name, []),) if run_report_of(metric.name).figures is not None else ()
        lines += show_run(metric.name, "section", block, document, *extra, default=[])
    return lines


def write_run_figures(run_dir: Path, document: ResultsDocument) -> dict[str, list[str]]:
    """Draw the figures of the run-level metrics next to report.md; returns {metric name: file names}."""
    out = {}
    for metric, block in document.run_metrics.blocks():
        drawn = show_run(metric.name, "figures", block, document, run_dir, default=[])
        if drawn:
            out[metric.name] = drawn
    return out


def header_lines(document: ResultsDocument) -> list[str]:
    """The title, the model and what a reader must know about it first (the backend's own warnings and the
    run-level metrics' warnings, e.g. that the model is not really answering), the software and run settings."""
    model = document.model
    return ["# polibench report", "",
            f"- model: `{model.get('model')}` (backend `{model.get('backend')}`)",
            *[f"- **warning**: {warning}" for warning in model.get("warnings") or []],
            *[f"- **warning**: {text}" for _, text in document.run_metrics.warnings()],
            f"- polibench {document.polibench_version}, git `{document.git_hash or 'unknown'}`, {document.date}",
            f"- seed {_or(document.run.seed, 'task default')}, limit {_or(document.run.limit, 'none')}"
            + ("" if document.run.limit is None else f" ({LIMIT_LABEL})"),
            ""]


def render_report(document: ResultsDocument, figures: Optional[dict] = None,
                  min_coverage: float = MIN_AXIS_COVERAGE, run_figures: Optional[dict[str, list[str]]] = None) -> str:
    """The Markdown text: the header (:func:`header_lines`), the summary (:mod:`polibench.report.summary`: the
    headline numbers in one table and at most five bullets on reading them), then the detail: the plain-language
    reading of each task (:mod:`polibench.report.reading`), each task's section and the sections over the whole
    run. ``figures`` maps task -> {metric: {figure kind: [file names]}} (none: a report without plots);
    ``run_figures``: the run-level metrics' figures, metric name -> file names."""
    figures = figures or {}
    lines = header_lines(document)
    lines += summary_section(document, min_coverage)
    lines += reading_lines(document, min_coverage)
    for name, results in document.results.items():
        lines += task_section(name, results, task_scoring(document, name), figures.get(name), min_coverage)
    lines += run_sections(document)
    lines += run_level_sections(document, run_figures)
    return "\n".join(lines)


def task_scoring(document: ResultsDocument, task: str) -> dict:
    """The task's scorer settings as stored, with ``scorer_used``: whether any of its responses could reach the
    stance scorer (so that no section speaks of a scorer that did not run)."""
    return {**document.scoring.get(task, {}), "scorer_used": scorer_used(document, task)}


def write_figures(run_dir: Path, name: str, results: TaskResults, model_name: str) -> dict[str, dict[str, list[str]]]:
    """Draw the figures of one task's metrics next to report.md; returns {metric name: {kind: file names}}."""
    out = {}
    for metric, block in results.metrics():
        ctx = ShowContext(task=name, results=results, run_dir=run_dir, title=f"{model_name} · {name}")
        drawn = show(metric.name, "figures", block, ctx, default={})
        if drawn:
            out[metric.name] = drawn
    return out


def write_report(run_dir: Path, document: ResultsDocument, min_coverage: float = MIN_AXIS_COVERAGE) -> Path:
    """Write the figures and report.md into ``run_dir``; returns the report's path."""
    model_name = short_model_name(document.model.get("model"))
    figures = {name: write_figures(run_dir, name, results, model_name)
               for name, results in document.results.items()}
    path = run_dir / REPORT
    atomic_write_text(path, render_report(document, figures, min_coverage, write_run_figures(run_dir, document)))
    return path
