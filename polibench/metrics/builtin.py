"""The PCT coordinates metric (Feng et al. 2023), registered by its family (polibench/families/pct): it wraps the
computation (:mod:`polibench.metrics.pct`), declares its headline estimates and names the functions that show it in
the report (in polibench.report, by string, until issue 40 moves the PCT into its family)."""

from __future__ import annotations

from typing import Optional

from polibench.metrics.blocks import PctBlock
from polibench.metrics.pct import pct_block
from polibench.metrics.registry import Estimate, Metric, MetricInput, hooks


def _pct(data: MetricInput) -> Optional[PctBlock]:
    block = None
    for name in data.task.instruments:
        if data.instruments[name].scoring == "pct":
            block = PctBlock.model_validate(pct_block(data.table, data.instruments[name], data.weights))
    return block


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
