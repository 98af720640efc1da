"""The summary that opens report.md: a table of the headline numbers, one row per result saying what it is, and
at most :data:`MAX_BULLETS` short bullets on how to read them. The detail follows in the rest of the report.

- The table names, for each task, which number is **the result** (the estimates of the first metric the task
  lists) and which are other readings of the same answers, each with its scale as this run computed it
  (:meth:`polibench.metrics.registry.Estimate.range_of`), then the statements answered and the responses kept,
  out of what was asked (a ``--limit`` run asked fewer than the instrument holds).
- The bullets, most urgent first: warnings that the model is not really answering (the run-level metrics'
  ``warnings`` hook), the ``--limit`` label, what each task's result says (each metric's ``verdict`` hook), which
  row is the result where a task reads its answers several ways, and what an interval covers.

:func:`answer_rule` says how a task's responses were read (a stance scorer, an answer parser, log-probabilities),
so that no part of the report speaks of a scorer that did not run.
"""

from __future__ import annotations

from typing import Optional

from polibench.metrics.position import LIMIT_LABEL, MIN_AXIS_COVERAGE
from polibench.metrics.registry import Metric
from polibench.report.registry import ShowContext, show
from polibench.report.text import share, with_ci
from polibench.results.document import ResultsDocument, TaskResults
from polibench.scoring.readers import READERS

MAX_BULLETS = 5
STANCE = "stance"


def variant_scorings(document: ResultsDocument, task: str) -> set[str]:
    """The answer formats (``scoring``) of the task's prompt variants, as the run stored them."""
    config = document.configs.get(task, {})
    variants = document.variant_sets.get(config.get("variant_set", ""), {}).get("variants", [])
    return {str(v.get("scoring", STANCE)) for v in variants} or {STANCE}


def scorer_used(document: ResultsDocument, task: str) -> bool:
    """Whether any response of the task could go to its stance scorer: a free-text variant, or an answer parser
    that hands what it cannot parse to the scorer (a reader that reads no text, e.g. log-probabilities, never
    does)."""
    return any(kind == STANCE or kind not in READERS or READERS[kind].reads_text
               for kind in variant_scorings(document, task))


def answer_rule(document: ResultsDocument, task: str) -> str:
    """How a response of the task became an answer, in a few words."""
    scoring = document.scoring.get(task, {})
    kinds = variant_scorings(document, task)
    scorer = f"the stance scorer `{scoring.get('scorer')}` with at least {scoring.get('threshold')} confidence"
    if not scorer_used(document, task):
        return "read from the answer options' log-probabilities: no text, no stance scorer"
    parsers = sorted(k for k in kinds if k != STANCE)
    if parsers:
        return f"parsed as an answer option ({', '.join(parsers)}); otherwise read by {scorer}"
    return f"read by {scorer}; the others dropped, not counted as neutral"


def instrument_size(document: ResultsDocument, task: str) -> int:
    """The statements of the task's instruments, as the run stored them."""
    if task not in document.configs:
        return 0
    return sum(len(document.instruments.get(name, {}).get("items", []))
               for name in document.task_config(task).instruments)


def headline_metric(document: ResultsDocument, task: str, results: TaskResults) -> Optional[Metric]:
    """The task's result: the first metric it lists that has headline estimates."""
    shown = {metric.name: metric for metric, _ in results.metrics() if metric.estimates}
    listed = document.configs.get(task, {}).get("metrics", [])
    return next((shown[name] for name in listed if name in shown), next(iter(shown.values()), None))


def table_rows(document: ResultsDocument, task: str, results: TaskResults) -> list[str]:
    """The task's rows: each headline estimate (the result first), then statements answered and responses kept."""
    main = headline_metric(document, task, results)
    blocks = dict((metric.name, block) for metric, block in results.metrics())
    found = list(results.estimates())
    found.sort(key=lambda row: row[0] is not main)  # the result first, then the other readings in stored order
    rows = []
    for metric, estimate, value, interval in found:
        is_result = metric is main
        label = f"**{estimate.label}**" if is_result else estimate.label
        what = estimate.what or metric.description
        role = "the result: " if is_result else ("another reading: " if main is not None else "")
        shown = with_ci(value, interval, estimate.digits) if value is not None else "– (nothing to compute it from)"
        rows.append(f"| {task} | {label} | {shown} | {estimate.direction_of(blocks.get(metric.name))} | {role}{what} |")
    cov = results.coverage
    size = instrument_size(document, task)
    several = len(document.task_config(task).instruments) > 1 if task in document.configs else False
    asked = f"{cov.items} asked" + (f" (--limit; {size} in the instrument{'s' if several else ''})"
                                    if size and size != cov.items else "")
    rows.append(f"| {task} | statements answered | {cov.items_answered} of {asked} | – | a statement counts when at "
                "least one response to it was kept |")
    rows.append(f"| {task} | responses kept | {cov.responses_kept} of {cov.responses} ({share(cov.kept_share)}) | – "
                f"| {answer_rule(document, task)} |")
    return rows


def bullets(document: ResultsDocument, min_coverage: float = MIN_AXIS_COVERAGE) -> list[str]:
    """How to read the table: at most :data:`MAX_BULLETS` short bullets, the most urgent first."""
    out = []
    warned = document.run_metrics.warnings()
    if warned:
        tasks = ", ".join(dict.fromkeys(task for task, _ in warned))
        out.append(f"**The model may not be answering** ({tasks}): {len(warned)} warning"
                   f"{'s' if len(warned) != 1 else ''} above; read those numbers with them.")
    if document.run.limit is not None:
        out.append(f"**--limit {document.run.limit}**: only {document.run.limit} statements of each instrument were "
                   f"asked, spread over both axes and sides ({LIMIT_LABEL}).")
    verdicts = []
    for task, results in document.results.items():
        ctx = ShowContext(task=task, results=results, scoring=document.scoring.get(task, {}),
                          min_coverage=min_coverage)
        main = headline_metric(document, task, results)
        for metric, block in results.metrics():
            if metric is main:
                verdict = show(metric.name, "verdict", block, ctx, default=None)
                if verdict:
                    verdicts.append(f"{task}: {verdict}")
    if verdicts:
        out.append("**What the result says**: " + "; ".join(verdicts))
    several = [task for task, results in document.results.items()
               if sum(1 for metric, _ in results.metrics() if metric.estimates) > 1]
    if several:
        out.append(f"**Several readings** ({', '.join(several)}): the bold rows are the task's result; the others "
                   "read the same answers another way and are not a second result.")
    if any(metric.item_bootstrap for results in document.results.values() for metric, _ in results.metrics()):
        out.append("**[low, high]** is a 95% bootstrap interval over the statements: how much a number depends on "
                   "which statements were asked, not on the prompt's wording, the sampling seed or the scorer.")
    return out[:MAX_BULLETS]


def summary_section(document: ResultsDocument, min_coverage: float = MIN_AXIS_COVERAGE) -> list[str]:
    """``## Summary``: the table, then the bullets."""
    rows = [row for task, results in document.results.items() for row in table_rows(document, task, results)]
    if not rows:
        return []
    lines = ["## Summary", "", "| task | result | value [95% CI] | scale | what it is |", "|---|---|---|---|---|",
             *rows, ""]
    found = bullets(document, min_coverage)
    if found:
        lines += ["How to read it:", "", *[f"- {b}" for b in found], ""]
    return lines
