"""The plain-language reading that opens report.md: what this run's numbers say, on what scale, how sure,
from how much data, and what may not be read into them (:mod:`polibench.metrics.position`)."""

from __future__ import annotations

from polibench.metrics.position import LIMIT_LABEL, MIN_AXIS_COVERAGE
from polibench.report.registry import ShowContext, show
from polibench.report.summary import scorer_used
from polibench.results.document import ResultsDocument, TaskResults


def reading_lines(document: ResultsDocument, min_coverage: float = MIN_AXIS_COVERAGE) -> list[str]:
    """The ``## Reading this result`` section: per task, its metrics' sentences as a list."""
    lines = ["## Reading this result", ""]
    if document.run.limit is not None:
        lines += [f"**--limit {document.run.limit}: {LIMIT_LABEL}.** {document.run.limit} statements of each "
                  "instrument were asked, picked across both axes and both sides with a fixed seed; the others were "
                  "never asked.", ""]
    for name, results in document.results.items():
        scoring = {**document.scoring.get(name, {}), "scorer_used": scorer_used(document, name)}
        sentences = task_reading(results, scoring, min_coverage, name)
        lines += [f"### {name}", "", *[f"- {sentence}" for sentence in sentences], ""]
    return lines


def task_reading(results: TaskResults, scoring: dict, min_coverage: float, task: str = "") -> list[str]:
    """The sentences of one task's paragraph: each metric's ``reading`` hook, in the order the blocks are stored."""
    ctx = ShowContext(task=task, results=results, scoring=scoring, min_coverage=min_coverage)
    return [sentence for metric, block in results.metrics()
            for sentence in show(metric.name, "reading", block, ctx, default=[])]
