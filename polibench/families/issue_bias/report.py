"""How the ``issue_bias`` metric (IssueBench, Röttger et al. 2025) is shown: its run-summary fragment, its
report.md section (a table per framing, then the issues the model leans on most under the neutral framing) and
its figure, shaped like the paper's: the stance distribution as stacked bars, per framing and per issue under the
neutral framing."""

from __future__ import annotations

from functools import partial

from polibench.families.issue_bias.metric import FRAMINGS, IssueBiasBlock, IssueCell
from polibench.records import ISSUE_LABELS
from polibench.report import plots
from polibench.report.registry import Report
from polibench.report.text import figure_link, share

ATTRIBUTION = ("IssueBench: Röttger et al. 2025, arXiv 2502.08395, CC BY 4.0; grader: their stance template "
               "templ-5")
SHOWN_ISSUES = 10
FIGURE_ISSUES = 30
# 1 (exclusively pro) ... 5 (exclusively con) on a diverging scale, refusal grey
COLOURS = dict(zip(ISSUE_LABELS, ("#1a9641", "#a6d96a", "#ffffbf", "#fdae61", "#d7191c", "#999999")))


# What report.md says when the offline reader graded the responses instead of the paper's LLM grader: its figures
# on real, human-labelled writing-assistance responses (docs/writing-bias.md, "How far to trust each reader").
OFFLINE_READER = "issue"
OFFLINE_NOTE = ("**Graded by the offline fallback reader (`issue`), not by the paper's LLM grader.** It reads "
                "polibench's own held-out responses well, but real writing-assistance responses much less well "
                "(3-way macro-F1 0.471 on 500 human-labelled real responses for the reader of issue 23; see "
                "docs/writing-bias.md for the current figures): read these shares as indicative. The validated "
                "path is `--scorer issue_judge` with a capable LLM (`--judge-model`).")


def offline(ctx) -> bool:
    """Whether the offline reader graded this task (``ctx.scoring``: the run's scorer record for it)."""
    return (getattr(ctx, "scoring", None) or {}).get("scorer") == OFFLINE_READER


def _ci_share(value, ci) -> str:
    return share(value) + (f" [{share(ci.low)}, {share(ci.high)}]" if ci is not None and value is not None else "")


def _ci_stance(value, ci) -> str:
    if value is None:
        return "–"
    return f"{value:.2f}" + (f" [{ci.low:.2f}, {ci.high:.2f}]" if ci is not None else "")


def summary(block: IssueBiasBlock, ctx) -> str:
    """`` IssueBench neutral framing: mean stance 2.40 [..], pro 55.0% [..]; refusals 3.0% [..];``"""
    stance = _ci_stance(block.neutral_mean_stance, block.ci.neutral_mean_stance)
    pro = _ci_share(block.neutral_pro_share, block.ci.neutral_pro_share)
    refusals = _ci_share(block.refusal_share, block.ci.refusal_share)
    reader = " [offline fallback reader]" if offline(ctx) else ""
    return (f" IssueBench neutral framing{reader}: mean stance {stance} (1 pro … 5 con), pro {pro}; refusals "
            f"{refusals};")


def _row(name: str, cell: IssueCell, count: int) -> str:
    dist = " | ".join(share(cell.distribution.get(label)) for label in ISSUE_LABELS)
    stance = _ci_stance(cell.mean_stance, cell.ci.mean_stance)
    pro, refusals = _ci_share(cell.pro_share, cell.ci.pro_share), _ci_share(cell.refusal_share, cell.ci.refusal_share)
    return f"| {name} | {count} | {dist} | {stance} | {pro} | {refusals} |"


def distribution_plot(block: IssueBiasBlock, stem, title: str) -> list[str]:
    """Stacked bars of the six labels' shares: the three framings (mean over issues), then up to
    :data:`FIGURE_ISSUES` issues under the neutral framing, ordered from most pro to most con mean stance."""
    neutral = sorted((c for c in block.issues if c.framing == "neutral" and c.responses),
                     key=lambda c: (c.mean_stance if c.mean_stance is not None else 6.0, c.issue_id or ""))
    rows = [(f"all issues, {f} framing", block.framings[f]) for f in FRAMINGS if f in block.framings]
    rows += [(f"{(c.topic or '')[:48]} ({c.issue_id})", c) for c in neutral[:FIGURE_ISSUES]]
    figure = plots.blank_figure(8.5, 1.6 + 0.26 * len(rows), left=3.4, bottom=0.85)
    ax = figure.add_subplot()
    left = [0.0] * len(rows)
    names = {"1": "1 exclusively pro", "5": "5 exclusively con"}
    for label, colour in COLOURS.items():
        widths = [cell.distribution.get(label) or 0.0 for _, cell in rows]
        ax.barh(range(len(rows)), widths, left=left, color=colour, edgecolor="white", linewidth=0.3,
                label=names.get(label, label))
        left = [a + b for a, b in zip(left, widths)]
    ax.set_yticks(range(len(rows)), [name for name, _ in rows], fontsize=7)
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of graded responses")
    ax.set_title(title, fontsize=10)
    figure.legend(loc="lower center", ncol=6, fontsize=8, frameon=False)
    return plots.save_figure(figure, stem)


def figures(block: IssueBiasBlock, ctx) -> dict[str, list[str]]:
    if not block.graded:
        return {}
    return ctx.figure("issue_bias", partial(distribution_plot, block), "IssueBench stance distribution")


def section(block: IssueBiasBlock, ctx) -> list[str]:
    """The metric's report.md section."""
    head = ("| framing | issues | 1 | 2 | 3 | 4 | 5 | refusal | mean stance (1–5) | pro share (1–2) | refusal share |\n"
            "|---|---|---|---|---|---|---|---|---|---|---|")
    grader = ("Stances read by the offline reader `issue` on the IssueBench grader's scale" if offline(ctx) else
              "Stances graded by the IssueBench grader")
    lines = [OFFLINE_NOTE, ""] if offline(ctx) else []
    lines += [f"{grader} ({ATTRIBUTION}): 1 = exclusively pro, 5 = exclusively con. "
              f"{block.graded} responses graded, {block.ungraded} not; {block.templates} templates; intervals: "
              f"{block.resamples} resamples of the templates. Per framing, the mean over issues:", "", head]
    lines += [_row(f, block.framings[f], block.framings[f].issues or 0) for f in FRAMINGS if f in block.framings]
    neutral = sorted((c for c in block.issues if c.framing == "neutral" and c.mean_stance is not None),
                     key=lambda c: abs(c.mean_stance - 3.0), reverse=True)[:SHOWN_ISSUES]  # type: ignore[operator]
    if neutral:
        lines += ["", f"Neutral framing, the {len(neutral)} issues furthest from a balanced mean stance (3):", "",
                  head.replace("| framing | issues |", "| issue | responses |")]
        lines += [_row(f"{c.topic} ({c.issue_id})", c, c.responses) for c in neutral]
    lines.append("")
    if "issue_bias" in ctx.figures:
        lines += figure_link(ctx.figures["issue_bias"], "IssueBench stance distribution")
    return lines


# how report.md, `polibench run` and `polibench compare` show the metric (registered by the family)
REPORT = Report(section=section, summary=summary, figures=figures)
