"""How the ``even_handedness`` metric (Anthropic's paired prompts, 2025) is shown: its run-summary fragment, its
report.md section (the headline shares, then per main category, per template category and per group) and its
figure, shaped like the paper's (the three measures with their intervals, for all pairs and per main category)."""

from __future__ import annotations

import textwrap
from functools import partial

from polibench.families.even_handedness.metric import EvenHandednessBlock, GroupSide, PairSet
from polibench.report import plots
from polibench.report.registry import Report
from polibench.report.text import figure_link, share

# the paper's three measures, in its figure's order, with their colours
MEASURES = (("even_handedness", "even-handed", "#4c72b0"), ("hedging", "opposing perspectives", "#dd8452"),
            ("refusal", "refusals", "#c44e52"))

ATTRIBUTION = ("paired prompts and grader prompts: Anthropic's political even-handedness evaluation (Shen et al. "
               "2025, github.com/anthropics/political-neutrality-eval), CC BY 4.0")


def _ci_share(value, ci) -> str:
    return share(value) + (f" [{share(ci.low)}, {share(ci.high)}]" if ci is not None and value is not None else "")


def _mean(value) -> str:
    return "–" if value is None else f"{value:.3f}"


def summary(block: EvenHandednessBlock, ctx) -> str:
    """`` even-handed 95.0% [..] of 297 pairs, refusals 2.0% [..], hedging 10.0% [..];``"""
    return (f" even-handed {_ci_share(block.even_handedness, block.ci.even_handedness)} of {block.pairs} pairs, "
            f"refusals {_ci_share(block.refusal, block.ci.refusal)}, hedging "
            f"{_ci_share(block.hedging, block.ci.hedging)};")


def _pair_row(name: str, cell: PairSet) -> str:
    return (f"| {name} | {cell.pairs} | {_ci_share(cell.even_handedness, cell.ci.even_handedness)} | "
            f"{_ci_share(cell.refusal, cell.ci.refusal)} | {_ci_share(cell.hedging, cell.ci.hedging)} | "
            f"{_mean(cell.even_mean)} | {_mean(cell.refusal_mean)} | {_mean(cell.hedging_mean)} |")


def _group_row(name: str, cell: GroupSide) -> str:
    return (f"| {name} | {', '.join(cell.against)} | {cell.pairs} | "
            f"{_ci_share(cell.disfavoured, cell.ci.disfavoured)} | {_ci_share(cell.refusal, cell.ci.refusal)} | "
            f"{_ci_share(cell.hedging, cell.ci.hedging)} | {_mean(cell.disfavoured_mean)} |")


def measures_plot(block: EvenHandednessBlock, stem, title: str) -> list[str]:
    """The paper's figure for one model: the three binarised shares with their intervals, for all pairs and per
    main category, as grouped horizontal bars."""
    rows: list[tuple[str, PairSet]] = [("all pairs", block)]
    rows += sorted(block.main_categories.items())
    height = 0.8 / len(MEASURES)

    def draw(ax) -> None:
        for k, (field, label, colour) in enumerate(MEASURES):
            ys = [i - 0.4 + height * (k + 0.5) for i in range(len(rows))]
            values = [getattr(cell, field) or 0.0 for _, cell in rows]
            cis = [getattr(cell.ci, field) for _, cell in rows]
            low = [v - ci.low if ci is not None else 0.0 for v, ci in zip(values, cis)]
            high = [ci.high - v if ci is not None else 0.0 for v, ci in zip(values, cis)]
            ax.barh(ys, values, height=height, color=colour, label=label, xerr=[low, high],
                    error_kw={"elinewidth": 0.8, "capsize": 2})

    names = [textwrap.fill(f"{name.replace('_', ' ').lower()} ({cell.pairs})", 18) for name, cell in rows]
    return plots.bar_rows(stem, names, 0.5, draw, (0, 1),
                          f"share of pairs (P ≥ {block.threshold:g}); whiskers: bootstrap interval", title)


def figures(block: EvenHandednessBlock, ctx) -> dict[str, list[str]]:
    if not block.pairs:
        return {}
    return ctx.figure("even_handedness", partial(measures_plot, block),
                      "even-handedness, opposing perspectives, refusals")


def section(block: EvenHandednessBlock, ctx) -> list[str]:
    """The metric's report.md section."""
    grader = ctx.scoring or {}
    by = f"{grader.get('backend', '?')} / {grader.get('model', '?')}"
    orders = ("both orders averaged before the threshold (polibench's own option)"
              if "averaged" in str(grader.get("orders", "averaged")) else
              "each of the two orders graded and binarised by itself, as Anthropic's eval does")
    head = ("| {} | pairs | even-handed | refusals | hedging | mean P(C) | mean P(refusal) | mean P(hedging) |\n"
            "|---|---|---|---|---|---|---|---|")
    lines = [f"Paired prompts ({ATTRIBUTION}), graded by its three grader prompts through {by}. Each share is of "
             f"pairs whose probability is at least {block.threshold:g}, as the paper binarises: even-handed = P(C) "
             f"(same response type; {orders}), refusals and hedging = P(4 or 5) averaged over the pair. "
             f"{block.pairs} pairs graded, {block.ungraded_pairs} not; intervals: {block.resamples} resamples of "
             "the pairs.", "", head.format("set"), _pair_row("all pairs", block)]
    lines += ["", "Per main category:", "", head.format("main category")]
    lines += [_pair_row(name, cell) for name, cell in sorted(block.main_categories.items())]
    lines += ["", "Per template category:", "", head.format("template category")]
    lines += [_pair_row(name, cell) for name, cell in sorted(block.template_categories.items())]
    if block.groups:
        ranked = sorted(block.groups.items(), key=lambda kv: (-(kv[1].disfavoured_mean or 0.0), kv[0]))
        lines += ["", "Per group (the side a request speaks for), most disfavoured first: disfavoured = share of the "
                      "group's pairs where the assistant was more willing to help the other side (P ≥ 0.5); "
                      "refusals and hedging of the group's own requests:", "",
                  "| group | against | pairs | disfavoured | refusals | hedging | mean P(other helped more) |",
                  "|---|---|---|---|---|---|---|"]
        lines += [_group_row(name, cell) for name, cell in ranked]
    lines.append("")
    if "even_handedness" in ctx.figures:
        lines += figure_link(ctx.figures["even_handedness"], "Even-handedness, opposing perspectives and refusals")
    return lines


# how report.md, `polibench run` and `polibench compare` show the metric (registered by the family)
REPORT = Report(section=section, summary=summary, figures=figures)
