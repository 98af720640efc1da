"""How the ``coverage`` metric is shown (:data:`REPORT`): the coverage section and figure of report.md, the kept-share
sentence of the reading and the run summary's counts."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from polibench.metrics.blocks import Coverage, Shares
from polibench.report import plots
from polibench.report.registry import Report, ShowContext
from polibench.report.text import figure_link, share

COVERAGE_COLOURS = {"answered_share": "#2ca02c", "unrelated_share": "#ff7f0e", "filtered_share": "#bbbbbb"}


def figures(cov: Coverage, ctx: ShowContext) -> dict[str, list[str]]:
    if len(cov.per_variant) <= 1:
        return {}
    return ctx.figure("coverage", partial(coverage_plot, cov), "coverage")


def section(cov: Coverage, ctx: ShowContext) -> list[str]:
    lines = coverage_lines(cov, ctx.scoring)
    if "coverage" in ctx.figures:
        lines += figure_link(ctx.figures["coverage"], "Coverage per prompt variant")
    return lines


def coverage_lines(cov: Coverage, scoring: dict) -> list[str]:
    if scoring.get("scorer_used", True):
        filtered = (f"{share(cov.filtered_share)} filtered ({cov.filtered_low_confidence} under the confidence "
                    f"threshold, {cov.filtered_abstained} where the scorer abstained, {cov.filtered_empty} empty)")
        scorer = f"Scorer: `{scoring.get('scorer')}` (threshold {scoring.get('threshold')})."
    else:
        filtered = f"{share(cov.filtered_share)} without an answer ({cov.filtered_empty} empty)"
        scorer = "No stance scorer was used: every answer was read from the answer options' log-probabilities."
    lines = ["### Coverage", "",
             f"{cov.items_answered}/{cov.items} items answered; {cov.responses} responses: "
             f"{share(cov.answered_share)} answered, {share(cov.unrelated_share)} unrelated, {filtered}.",
             f"Kept labels: {cov.kept_labels or 'none'}.",
             *([] if cov.conflicting is None else [
                 f"Forced-choice answers that named one option and then took it back or stated the other side: "
                 f"{cov.conflicting} (not read as that option; the stance scorer read them)."]),
             scorer, ""]
    if len(cov.per_form) > 1:
        lines += ["| form | responses | answered | unrelated | filtered |", "|---|---|---|---|---|"]
        lines += [f"| {f} | {s.responses} | {share(s.answered_share)} | {share(s.unrelated_share)} "
                  f"| {share(s.filtered_share)} |" for f, s in cov.per_form.items()] + [""]
    return lines


def reading(cov: Coverage, ctx: ShowContext) -> list[str]:
    threshold = ctx.scoring.get("threshold")
    kept = (f"Kept share: {cov.responses_kept} of {cov.responses} responses ({100 * (cov.kept_share or 0.0):.1f}%) "
            "were kept.")
    if not ctx.scoring.get("scorer_used", True):
        return [kept + " No stance scorer was used: each answer is the most probable answer option, read from the "
                "options' log-probabilities, and is always kept."]
    if threshold is not None:
        kept += (f" A response is kept only when the stance scorer (`{ctx.scoring.get('scorer')}`) reads its stance "
                 f"with at least {threshold} confidence (the {threshold} filter, as Feng et al.); the others are "
                 "dropped, not counted as neutral, so a statement whose responses were all dropped is unanswered.")
    return [kept]


def summary(cov: Coverage, ctx: ShowContext) -> str:
    return (f" coverage {cov.items_answered}/{cov.items} items, {cov.responses_kept}/"
            f"{cov.responses} responses kept ({100 * (cov.kept_share or 0.0):.1f}%)")


def coverage_plot(coverage: Coverage | dict, stem: Path, title: str) -> list[str]:
    """Stacked bars: answered / unrelated / filtered share of the responses, overall and per prompt variant."""
    coverage = Coverage.model_validate(coverage)
    rows: dict[str, Shares] = {"all": coverage, **coverage.per_variant}
    names = list(rows)

    def draw(ax) -> None:
        left = [0.0] * len(names)
        for key, colour in COVERAGE_COLOURS.items():
            widths = [getattr(rows[n], key) or 0.0 for n in names]
            ax.barh(range(len(names)), widths, left=left, color=colour, label=key.removesuffix("_share"))
            left = [a + b for a, b in zip(left, widths)]

    return plots.bar_rows(stem, names, 0.32, draw, (0, 1), "share of responses", title)


REPORT = Report(section=section, figures=figures, reading=reading, summary=summary)
