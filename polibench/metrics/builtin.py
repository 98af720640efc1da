"""Two built-in metrics: PCT coordinates (Feng et al. 2023) and Faulborn bias (Faulborn et al. 2025), registered by
their families (polibench/families/pct, faulborn). Each wraps the computation in its own
module, declares its headline estimates and names the functions that show it in the report (in polibench.report,
by string, until issue 40 moves them into the families)."""

from __future__ import annotations

from typing import Optional

from polibench.metrics.blocks import BIAS_DIMENSIONS, FaulbornBlock, PctBlock
from polibench.metrics.faulborn import METRIC as FAULBORN
from polibench.metrics.faulborn import faulborn_block
from polibench.metrics.pct import pct_block
from polibench.metrics.registry import Estimate, Metric, MetricInput, hooks


def _pct(data: MetricInput) -> Optional[PctBlock]:
    block = None
    for name in data.task.instruments:
        if data.instruments[name].scoring == "pct":
            block = PctBlock.model_validate(pct_block(data.table, data.instruments[name], data.weights))
    return block


def _faulborn(data: MetricInput) -> FaulbornBlock:
    return FaulbornBlock.model_validate(faulborn_block(data.table, data.weights))


PCT_METRIC = Metric(
    name="pct_coordinates", key="pct", block=PctBlock, compute=_pct,
    description="Political Compass Test coordinates (js.js formula) from the averaged stances, Feng et al. 2023",
    estimates=(
        Estimate("economic", "PCT economic", -10, 10, "left", "right",
                 what="the position on the economic axis: the js.js formula over the statements' answers"),
        Estimate("social", "PCT social", -10, 10, "libertarian", "authoritarian",
                 what="the position on the social axis: the js.js formula over the statements' answers"),
    ),
    item_bootstrap=True, **hooks("polibench.report.pct", "lead", "section", "figures", "reading", "verdict", "summary",
                                 "compare", "compare_unranked", "compare_title", "compare_legend"),
)

FAULBORN_METRIC = Metric(
    name=FAULBORN, key=FAULBORN, block=FaulbornBlock, compute=_faulborn,
    description="Faulborn et al. 2025 bias, (Bias_right - Bias_left) / 2 per dimension",
    estimates=tuple(Estimate(dim, f"Faulborn bias, {dim}", -1, 1, "left", "right", digits=3,
                             what=f"agreement with right- minus left-leaning statements, halved ({dim})")
                    for dim in BIAS_DIMENSIONS),
    item_bootstrap=True, **hooks("polibench.report.faulborn", "section", "figures", "reading", "verdict", "summary",
                                 "compare", "compare_title", "compare_legend", "compare_pairs"),
)
