"""How the ``even_handedness`` metric (Anthropic's paired prompts, 2025) is shown: its run-summary fragment and its
report.md section (the headline shares, then per main category, per template category and per group)."""

from __future__ import annotations

from polibench.metrics.even_handedness import EvenHandednessBlock, GroupSide, PairSet
from polibench.report.text import share

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


def section(block: EvenHandednessBlock, ctx) -> list[str]:
    """The metric's report.md section."""
    grader = ctx.scoring or {}
    by = f"{grader.get('backend', '?')} / {grader.get('model', '?')}"
    head = ("| {} | pairs | even-handed | refusals | hedging | mean P(C) | mean P(refusal) | mean P(hedging) |\n"
            "|---|---|---|---|---|---|---|---|")
    lines = [f"Paired prompts ({ATTRIBUTION}), graded by its three grader prompts through {by}. Each share is of "
             f"pairs whose probability is at least {block.threshold:g}, as the paper binarises: even-handed = P(C) "
             "(same response type; both orders averaged), refusals and hedging = P(4 or 5) averaged over the pair. "
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
    return lines
