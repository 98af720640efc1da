"""How report.md, ``polibench run``'s summary and ``polibench compare`` show a metric: each metric's
:class:`Report` (a run-level metric's: :class:`RunReport`), registered by name by the metric's family
(``Family(reports=...)``, ``Family(run_reports=...)``) or with :func:`register_report`.

:class:`ShowContext` is what each part sees besides the metric's own block. :func:`report_of` and :func:`show` are
what the report's modules and ``polibench run`` call; they name no metric. A metric with no registered report
shows its headline estimates only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional

from polibench.kit.registry import Registry


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

    def figure(self, kind: str, draw: Callable[[Path, str], list[str]], subtitle: str = "") -> dict[str, list[str]]:
        """``{kind: file names}`` of one figure, drawn by ``draw(stem, title)`` into the run folder (stem
        ``<run_dir>/<task>_<kind>``; title ``title``, plus a second line ``subtitle``); ``{}`` where no figure is
        drawn (no run folder). What a metric's ``figures`` part returns."""
        if self.run_dir is None:
            return {}
        title = f"{self.title}\n{subtitle}" if subtitle else self.title
        return {kind: draw(self.run_dir / f"{self.task}_{kind}", title)}


Part = Optional[Callable[..., Any]]


@dataclass(frozen=True)
class Report:
    """How one metric's block is shown; every part optional. Each takes ``(block, ShowContext)`` but
    ``run_section``, which takes ``({task: block}, model name)``, and ``compare_title`` (a column -> its heading).
    What each part is for:

    - ``lead``: report.md lines right under the task's headline table (e.g. the quadrant sentence);
    - ``section``: the metric's own report.md section (tables, links to its figures);
    - ``figures``: draws the metric's figures into ``context.run_dir``; returns {kind: file names};
    - ``reading``: sentences of the plain-language "Reading this result" part of the task;
    - ``verdict``: one short sentence on what the task's result says, for report.md's summary (called for the
      task's first-listed metric only);
    - ``summary``: the fragment of the one line ``polibench run`` prints per task;
    - ``run_section``: report.md lines over every task of the run that has this metric's block;
    - ``compare``: ``{column: value}`` for ``polibench compare``; ``compare_unranked``: ``{column: why}`` for
      the columns whose value must not be ranked; ``compare_title``: ``column -> heading``;
      ``compare_legend``: a fragment of the line over ``compare``'s table saying what the columns are;
      ``compare_pairs``: ``{key: {"between": [column, column], "title": ...}}``, two columns whose rankings
      ``compare`` correlates (Kendall's tau), e.g. the Faulborn bias on PCT vs WVS items."""

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


# register_report(metric, report, replace=False) -> report: show metric ``metric`` with ``report`` (a family's
# ``reports`` do the same); register_run_report: a run-level metric's.
register_report = REPORTS.register
register_run_report = RUN_REPORTS.register


def report_of(metric: str) -> Report:
    """How metric ``metric`` is shown: its registered :class:`Report`, else ``Report()`` (its headline estimates
    only)."""
    return REPORTS.get(metric) if metric in REPORTS else Report()


def run_report_of(metric: str) -> RunReport:
    """How run-level metric ``metric`` is shown: its registered :class:`RunReport`, else ``RunReport()``."""
    return RUN_REPORTS.get(metric) if metric in RUN_REPORTS else RunReport()


def show(metric: str, part: str, block: Any, *args: Any, default: Any = None) -> Any:
    """``report_of(metric).<part>(block, *args)``, or ``default`` when the metric has no such part."""
    found = getattr(report_of(metric), part)
    return default if found is None else found(block, *args)


def show_run(metric: str, part: str, block: Any, *args: Any, default: Any = None) -> Any:
    """``run_report_of(metric).<part>(block, *args)``, or ``default`` when the metric has no such part."""
    found = getattr(run_report_of(metric), part)
    return default if found is None else found(block, *args)
