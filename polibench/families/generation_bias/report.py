"""A table shaped like Liu et al. 2022's Table 5 (indirect and direct bias per option and attribute), with the
published GPT-2 medium row quoted beside the run's.

Beside each observed value: its permutation null (the mean W2 when keywords' options are shuffled, see
:mod:`polibench.families.generation_bias.null`), the excess over it with its interval, and the permutation p-value;
values that cannot be told from the null (p ≥ 0.05) are marked "≈ null".

Liu et al. do not state the unit of their Table 5. Their values go up to 4.27, above 1, the largest possible
W2 between score distributions on [0, 1], so they are scaled; this table prints polibench's W2 × 100 (the
scale at which the published row's magnitudes are plausible) and marks the published row as quoted. Only
the order of options, not the exact values, can be compared: the judge and the sampled texts differ.
"""

from __future__ import annotations

from typing import Optional

from polibench.families.generation_bias.metric import LiuBlock, LiuOption
from polibench.families.generation_bias.null import ALPHA, indistinguishable
from polibench.report.registry import Report

SCALE = 100
# Liu et al. 2022, Table 5, GPT-2 medium baseline (shared/reference/liu2022.json, "table5_baseline").
PUBLISHED_GPT2 = {
    "indirect": {"male": 1.011, "female": 1.034, "gender": 1.02, "blue": 1.048, "red": 1.55, "lean_blue": 0.628,
                 "lean_red": 0.688, "location": 0.98, "domestic": 2.268, "foreign": 2.678, "economics": 2.208,
                 "electoral": 0.697, "healthcare": 0.657, "immigration": 4.272, "social": 0.837, "topic": 1.94},
    "direct": {"male": 0.587, "female": 0.693, "gender": 0.64, "blue": 0.517, "red": 0.841, "lean_blue": 0.491,
               "lean_red": 0.688, "location": 0.63, "domestic": 0.433, "foreign": 2.497, "economics": 2.005,
               "electoral": 0.455, "healthcare": 0.411, "immigration": 3.584, "social": 0.377, "topic": 1.95},
}
# polibench's option (and attribute) names -> the column names of Liu's Table 5
TABLE5_NAMES = {"leaning-blue": "lean_blue", "leaning-red": "lean_red", "domestic-policy": "domestic",
                "foreign-policy": "foreign", "liu-gender": "gender", "liu-location": "location", "liu-topic": "topic"}


NULL_MARK = "≈ null"


def _cell(value: Optional[float], ci=None, scale: float = SCALE) -> str:
    if value is None:
        return "–"
    text = f"{value * scale:.3f}"
    return text + (f" [{ci[0] * scale:.3f}, {ci[1] * scale:.3f}]" if ci is not None else "")


def _marked(text: str, p: Optional[float]) -> str:
    """``text``, marked when its value is indistinguishable from the permutation null."""
    return f"{text} {NULL_MARK}" if indistinguishable(p) and text != "–" else text


def _p(p: Optional[float]) -> str:
    return "–" if p is None else f"{p:.3f}"


def null_cells(part: Optional[LiuOption], measure: str, scale: float = SCALE,
               intervals: bool = True) -> tuple[str, str, str, str]:
    """(observed, null mean, excess, p-value) cells of ``measure``, observed and excess marked "≈ null"."""
    if part is None:
        return "–", "–", "–", "–"
    value, ci = part.estimate(measure)
    excess, excess_ci = part.estimate(f"{measure}_excess")
    p = getattr(part, f"{measure}_p")
    return (_marked(_cell(value, ci if intervals else None, scale), p), _cell(getattr(part, f"{measure}_null"),
            scale=scale), _marked(_cell(excess, excess_ci if intervals else None, scale), p), _p(p))


def table5_columns(blocks: dict[str, LiuBlock]) -> list[tuple[str, Optional[LiuBlock], str]]:
    """(column name, the block holding it, the key inside: an option, or "" for the attribute's mean)."""
    columns: list[tuple[str, Optional[LiuBlock], str]] = []
    for block in blocks.values():
        columns += [(TABLE5_NAMES.get(o, o), block, o) for o in block.per_option]
        columns.append((TABLE5_NAMES.get(block.attribute, block.attribute), block, ""))
    return columns


def table5(blocks: dict[str, LiuBlock], model: str, intervals: bool = True) -> list[str]:
    """Markdown lines: one table per measure (indirect, direct), a row for this run and the published row."""
    if not blocks:
        return []
    columns = table5_columns(blocks)
    lines = ["### Table 5 shape: political bias of free generation (Liu et al. 2022)", "",
             f"Values are W2 × {SCALE} (lower is less biased); brackets: 95% bootstrap interval over keywords and "
             "prompts. Null: the mean W2 when the keywords' options are shuffled within the attribute (what "
             "sampling noise alone gives); excess: observed − null; p: permutation p-value (one-sided, +1 "
             f"corrected). {NULL_MARK}: indistinguishable from the null (p ≥ {ALPHA:g}). The GPT-2 medium row is "
             "quoted from Liu et al.'s Table 5 (their scale, no null; judge and texts differ, so compare the "
             "pattern, not the digits).", ""]
    for measure in ("indirect", "direct"):
        head = [name if key else f"**{name}**" for name, _, key in columns]
        lines += [f"**{measure} bias**", "", "| model | " + " | ".join(head) + " |",
                  "|---|" + "---|" * len(columns)]
        cells = [null_cells((block.per_option[key] if key else block) if block is not None else None, measure,
                            intervals=intervals) for _, block, key in columns]
        for row, label in enumerate(("", ", permutation null", ", excess over the null", ", p (permutation)")):
            lines.append(f"| {model}{label} | " + " | ".join(c[row] for c in cells) + " |")
        published = [_cell(PUBLISHED_GPT2[measure].get(name), scale=1) if name in PUBLISHED_GPT2[measure] else "–"
                     for name, _, _ in columns]
        lines += ["| GPT-2 medium (Liu et al. 2022, quoted) | " + " | ".join(published) + " |", ""]
    return lines


def option_lines(block: LiuBlock) -> list[str]:
    """Per option: keywords, responses, mean judge score, then indirect and direct bias each with its
    permutation null, excess and p-value (raw W2, intervals in brackets)."""
    lines = ["### Generation bias per option (raw W2)", "",
             f"Null: mean W2 over {block.permutations:,} permutations of the keywords' options; excess: observed − "
             f"null; p: permutation p-value; {NULL_MARK}: p ≥ {ALPHA:g}.", "",
             "| option | keywords | responses | mean judge score (indirect) | indirect bias | null | excess | p "
             "| direct bias | null | excess | p |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for name, part in [*block.per_option.items(), (f"**{block.attribute}** (mean)", block)]:
        score = "–" if part.mean_score is None else f"{part.mean_score:.3f}"
        lines.append(f"| {name} | {part.keywords} | {part.responses} | {score} | "
                     + " | ".join(null_cells(part, "indirect", 1) + null_cells(part, "direct", 1)) + " |")
    return lines + [""]


def section(block: LiuBlock, ctx) -> list[str]:
    """The ``liu_bias`` metric's report section."""
    return option_lines(block)


# how report.md shows the metric: its section per task and Table 5 over the run (registered by the family)
REPORT = Report(section=section, run_section=table5)
