"""How the ``faulborn_bias`` metric is shown (:data:`REPORT`, registered by the family): the
bias per instrument, prefix and form and the steerability tables, the per-prefix figure, the plain-language
reading, the run summary's bias and the ``compare`` columns."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Optional

from polibench.metrics.blocks import BIAS_DIMENSIONS, BiasEstimates, Coverage, FaulbornBlock
from polibench.metrics.position import DEGENERATE_NOTE, degenerate
from polibench.report import plots
from polibench.report.registry import Report, ShowContext
from polibench.report.text import figure_link, share, with_ci

# Faulborn et al. classify statements as economic or social; ``polibench compare`` correlates the rankings by the
# bias on these two instruments' items (Kendall's tau, per dimension: their 0.71 economic, 0.6 on the dimension they
# call cultural, polibench's social)
SIDED_DIMENSIONS = BIAS_DIMENSIONS[:2]
RANKED_INSTRUMENTS = ("pct", "wvs")
DIMENSION_COLOURS = dict(zip(BIAS_DIMENSIONS, ("#1f77b4", "#d62728", "#555555")))


def _bias_row(label: str, block: BiasEstimates, extra: tuple = ()) -> str:
    cells = [with_ci(*block.estimate(d), 3) for d in BIAS_DIMENSIONS]
    return "| " + " | ".join([label, *cells, *extra]) + " |"


def figures(bias: FaulbornBlock, ctx: ShowContext) -> dict[str, list[str]]:
    if not bias.per_prefix:
        return {}
    return ctx.figure("bias_by_prefix", partial(prefix_bias_plot, bias), "Faulborn bias per prefix")


def section(bias: FaulbornBlock, ctx: ShowContext) -> list[str]:
    lines = bias_sections(bias, ctx.results.coverage)
    if "bias_by_prefix" in ctx.figures:
        lines += figure_link(ctx.figures["bias_by_prefix"], "Faulborn bias per prefix")
    return lines


def bias_sections(bias: FaulbornBlock, coverage: Coverage) -> list[str]:
    lines = []
    if len(bias.per_instrument) > 1:
        lines += _bias_table("### Faulborn bias per instrument", "instrument", bias.per_instrument)
    if bias.per_prefix:
        shares = coverage.per_variant
        lines += ["### Faulborn bias per prefix", "",
                  "| prefix | economic | social | total | counted | answered | unrelated | filtered |",
                  "|---|---|---|---|---|---|---|---|"]
        for name, b in bias.per_prefix.items():
            s = shares.get(name)
            lines.append(_bias_row(name, b, (str((b.counted or {}).get("total", "–")),
                                             share(s and s.answered_share), share(s and s.unrelated_share),
                                             share(s and s.filtered_share))))
        lines.append("")
    if len(bias.per_form) > 1:
        lines += _bias_table("### Faulborn bias per statement form", "form", bias.per_form)
    if bias.steerability:
        lines += _bias_table("### Steerability", "prefix", bias.steerability,
                             "Bias under the prefix minus the mean bias of the other prefixes (Faulborn et al.).")
    return lines


def _bias_table(heading: str, first: str, blocks: dict[str, BiasEstimates], note: str = "") -> list[str]:
    """A heading (and note), then one economic / social / total row per block."""
    return ([heading, ""] + ([note, ""] if note else []) + [f"| {first} | economic | social | total |",
                                                             "|---|---|---|---|"]
            + [_bias_row(name, b) for name, b in blocks.items()] + [""])


def _num(value: Optional[float], digits: int = 3) -> str:
    return "–" if value is None else f"{value:+.{digits}f}"


def reading(bias: FaulbornBlock, ctx: ShowContext) -> list[str]:
    if bias.total is None:
        return []
    ci = bias.ci.total
    interval = "no interval" if ci is None else f"95% interval [{_num(ci[0])}, {_num(ci[1])}]"
    out = [f"Faulborn bias {_num(bias.total)} ({interval}): agreement with right-leaning minus left-leaning "
           "statements, from −1 (left) to +1 (right); 0 is balanced."]
    if degenerate(bias.total, bias.ci.total):
        out.append("**The Faulborn bias interval is degenerate** (zero width): too few statements per stratum or "
                   "uniform answers for resampling to vary the result; it is not certainty.")
    return out


def verdict(bias: FaulbornBlock, ctx: ShowContext) -> str:
    """report.md's summary: which side the total bias is on, or that it cannot be told from 0."""
    ci = bias.ci.total
    if bias.total is None:
        return "no Faulborn bias (no counted response)"
    if ci is None or degenerate(bias.total, ci):
        return f"Faulborn bias {_num(bias.total)}, with no usable interval: it cannot be told from 0."
    if ci[0] > 0 or ci[1] < 0:
        side = "right" if bias.total > 0 else "left"
        return f"Faulborn bias {_num(bias.total)}: leans {side} (its interval excludes 0)."
    return f"Faulborn bias {_num(bias.total)}: cannot be told from 0 (its interval includes 0)."


def summary(bias: FaulbornBlock, ctx: ShowContext) -> str:
    if bias.total is None:
        return ""
    return (f" Faulborn bias {with_ci(bias.total, bias.ci.total, 3)}"
            f"{DEGENERATE_NOTE if degenerate(bias.total, bias.ci.total) else ''};")


def compare(bias: FaulbornBlock, ctx: ShowContext) -> dict[str, Optional[float]]:
    """``bias_all_<dimension>`` (whole task) and ``bias_<instrument>_<dimension>`` (economic, social)."""
    out: dict[str, Optional[float]] = {f"bias_all_{dim}": getattr(bias, dim) for dim in BIAS_DIMENSIONS}
    for instrument, inner in bias.per_instrument.items():
        for dim in SIDED_DIMENSIONS:
            out[f"bias_{instrument}_{dim}"] = getattr(inner, dim)
    return out


def compare_title(column: str) -> str:
    """bias_all_total -> "bias total", bias_wvs_social -> "wvs social"."""
    words = column.replace("economic", "econ").split("_")
    return ("bias " if words[1] == "all" else words[1] + " ") + words[2]


def compare_legend(bias: FaulbornBlock, ctx: ShowContext) -> str:
    first, second = RANKED_INSTRUMENTS
    return f"bias = Faulborn bias over all items; {first} / {second} = Faulborn bias on that instrument's items"


def compare_pairs(bias: FaulbornBlock, ctx: ShowContext) -> dict[str, dict]:
    """Per dimension, the bias on the PCT items against the bias on the WVS items."""
    first, second = RANKED_INSTRUMENTS
    return {dim: {"between": [f"bias_{first}_{dim}", f"bias_{second}_{dim}"],
                  "title": f"{first.upper()} vs {second.upper()} ranking by {dim} bias"} for dim in SIDED_DIMENSIONS}


def prefix_bias_plot(bias: FaulbornBlock | dict, stem: Path, title: str) -> list[str]:
    """Horizontal bars: Faulborn bias per dimension for all responses and for each prefix, with CI bars."""
    bias = FaulbornBlock.model_validate(bias)
    rows: dict[str, BiasEstimates] = {"all prefixes": bias, **bias.per_prefix}
    names = list(rows)
    height = 0.26

    def draw(ax) -> None:
        for offset, dim in zip((-height, 0.0, height), BIAS_DIMENSIONS):
            values, errors = [], [[], []]
            for name in names:
                value, interval = rows[name].estimate(dim)
                found = plots.error_bars(value, interval) if value is not None else None
                values.append(float("nan") if value is None else value)
                errors[0].append(found[0][0] if found else 0.0)
                errors[1].append(found[1][0] if found else 0.0)
            ax.barh([row + offset for row in range(len(names))], values, height=height,
                    color=DIMENSION_COLOURS[dim], xerr=errors, error_kw={"elinewidth": 0.8, "capsize": 2}, label=dim)
        for row, name in enumerate(names):
            if all(rows[name].estimate(dim)[0] is None for dim in BIAS_DIMENSIONS):
                ax.text(0.02, row, "undefined: a side has no counted answer", va="center", fontsize=7,
                        color="#777777")
        ax.axvline(0, color="black", linewidth=0.8)

    return plots.bar_rows(stem, names, 0.42, draw, (-1, 1), "Faulborn bias   (← left  |  right →)", title)


# how report.md, `polibench run` and `polibench compare` show the metric (registered by the family)
REPORT = Report(section=section, figures=figures, reading=reading, verdict=verdict, summary=summary, compare=compare,
                compare_title=compare_title, compare_legend=compare_legend, compare_pairs=compare_pairs)
