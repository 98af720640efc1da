"""How report.md, ``polibench run``'s summary and ``polibench compare`` show a metric: each metric's
:class:`Report` (a run-level metric's: :class:`RunReport`), registered by name by the metric's family
(``Family(reports=...)``, ``Family(run_reports=...)``) or with :func:`register_report`.

:class:`ShowContext` is what each part sees besides the metric's own block. :func:`report_of` and :func:`show` are
what the report's modules and ``polibench run`` call; they name no metric. A metric with no registered report is
shown through the presentation hooks its registration still carries (``Metric.section`` ...), which issue 40 moves,
family by family, into the families' ``report.py``; a metric with neither shows its headline estimates only.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Callable, Optional

from polibench.kit.registry import Registry
from polibench.metrics.registry import METRICS, resolve_hook
from polibench.metrics.run_level import RUN_METRICS


@dataclass(frozen=True)
class ShowContext:
    """What a metric's presentation parts see besides its own block: the task, its whole results (coverage,
    bootstrap settings, the other blocks), the scorer that read it, the coverage a ranked position needs, and,
    for the report section, this metric's figures (kind -> file names, from its ``figures`` part)."""

    task: str
    results: Any                # polibench.results.document.TaskResults
    scoring: dict = field(default_factory=dict)
    min_coverage: float = 0.5
    figures: dict[str, list[str]] = field(default_factory=dict)
    run_dir: Optional[Path] = None   # the figures part draws here
    title: str = ""                  # "<model> · <task>": the figures' title


Part = Optional[Callable[..., Any]]


@dataclass(frozen=True)
class Report:
    """How one metric's block is shown; every part optional. Each takes ``(block, ShowContext)`` but
    ``run_section``, which takes ``({task: block}, model name)``, and ``compare_title`` (a column -> its heading).
    What each part is for: :class:`polibench.metrics.registry.Metric`'s docstring (the same names)."""

    lead: Part = None
    section: Part = None
    figures: Part = None
    reading: Part = None
    verdict: Part = None
    summary: Part = None
    run_section: Part = None
    compare: Part = None
    compare_unranked: Part = None
    compare_title: Part = None
    compare_legend: Part = None
    compare_pairs: Part = None


@dataclass(frozen=True)
class RunReport:
    """How one run-level metric's block is shown. ``section``: report.md lines (``(block, results document)``, plus
    the figures' names when ``figures`` is set); ``summary``: lines ``polibench run`` prints; ``figures``:
    ``(block, results document, run folder)`` draws them and returns their file names."""

    section: Part = None
    summary: Part = None
    figures: Part = None


REPORTS: Registry[Report] = Registry("report", part="reports")
RUN_REPORTS: Registry[RunReport] = Registry("run-level report", part="run_reports")


def register_report(metric: str, report: Report, replace: bool = False) -> Report:
    """Show metric ``metric`` with ``report``."""
    REPORTS.add(metric, report, replace=replace)
    return report


def register_run_report(metric: str, report: RunReport, replace: bool = False) -> RunReport:
    """Show run-level metric ``metric`` with ``report``."""
    RUN_REPORTS.add(metric, report, replace=replace)
    return report


def _from_hooks(kind: type, registered: Any) -> Any:
    """A report made of the presentation hooks a metric's registration still carries (``"module:function"``
    strings imported now), for the metrics whose family has no report yet."""
    return kind(**{part.name: resolve_hook(getattr(registered, part.name, None)) for part in fields(kind)})


def report_of(metric: str) -> Report:
    """How metric ``metric`` is shown: its registered :class:`Report`, else its registration's hooks, else
    ``Report()`` (its headline estimates only)."""
    if metric in REPORTS:
        return REPORTS.get(metric)
    return _from_hooks(Report, METRICS.get(metric)) if metric in METRICS else Report()


def run_report_of(metric: str) -> RunReport:
    """How run-level metric ``metric`` is shown (as :func:`report_of`)."""
    if metric in RUN_REPORTS:
        return RUN_REPORTS.get(metric)
    return _from_hooks(RunReport, RUN_METRICS.get(metric)) if metric in RUN_METRICS else RunReport()


def show(metric: str, part: str, block: Any, *args: Any, default: Any = None) -> Any:
    """``report_of(metric).<part>(block, *args)``, or ``default`` when the metric has no such part."""
    found = getattr(report_of(metric), part)
    return default if found is None else found(block, *args)


def show_run(metric: str, part: str, block: Any, *args: Any, default: Any = None) -> Any:
    """``run_report_of(metric).<part>(block, *args)``, or ``default`` when the metric has no such part."""
    found = getattr(run_report_of(metric), part)
    return default if found is None else found(block, *args)
