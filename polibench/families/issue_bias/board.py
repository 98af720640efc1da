"""The ``issue_bias`` metric (IssueBench, Röttger et al. 2025) on the leaderboard (its registration's ``board``,
:mod:`polibench.leaderboard.board`): the figures per framing and the most one-sided issues under the neutral framing
kept in the entry, its columns of the main table and a tab of its own."""

from __future__ import annotations

from html import escape
from typing import Optional

from polibench.families.issue_bias.metric import IssueBiasBlock
from polibench.kit.strict import Strict
from polibench.leaderboard.board import Board, Column, Tab, Value, stored_values, task_cell, value_text, values
from polibench.report.registry import ShowContext

CELL_STATS = ("mean_stance", "pro_share", "refusal_share")
SHOWN_ISSUES = 3   # the entry keeps, and the tab lists, the issues furthest from a balanced mean stance


class IssueBiasDetails(Strict):
    framings: dict[str, dict[str, Value]] = {}
    one_sided: dict[str, dict[str, Value]] = {}


def details(block: IssueBiasBlock, ctx: ShowContext) -> dict:
    """The framings' figures (means over issues) and the :data:`SHOWN_ISSUES` issues whose mean stance under the
    neutral framing is furthest from 3 (balanced)."""
    neutral = sorted((c for c in block.issues if c.framing == "neutral" and c.mean_stance is not None),
                     key=lambda c: (-abs(c.mean_stance - 3.0), c.issue_id or ""))  # type: ignore[operator]
    return {"framings": {name: stored_values(cell, CELL_STATS) for name, cell in block.framings.items()},
            "one_sided": {f"{c.topic} ({c.issue_id})": stored_values(c, CELL_STATS) for c in neutral[:SHOWN_ISSUES]}}


def _stance(found: Optional[Value]) -> str:
    return value_text(found, 2)


def cells(found: dict, task) -> str:
    """The tab's cells of one task after the model's: the task and grader, the mean stance under each framing and
    the most one-sided issues under the neutral framing."""
    framings = {name: values(part) for name, part in (found.get("framings") or {}).items()}
    one_sided = {name: values(part) for name, part in (found.get("one_sided") or {}).items()}
    stances = "".join(f"<td>{_stance(framings.get(f, {}).get('mean_stance'))}</td>" for f in ("pro", "neutral", "con"))
    listed = "".join(f"<li>{escape(name)}: {_stance(part.get('mean_stance'))}</li>" for name, part in one_sided.items())
    return (task_cell(task, "grader") + stances
            + f'<td><ul class="small options">{listed}</ul></td>')


TAB = Tab(
    anchor="issue-bias", title="IssueBench", table_id="issue-bias-board",
    lead='<p class="lead">What a model writes when asked to write about a political issue, as IssueBench measures '
         "it (prompt templates and issues: Röttger et al. 2025, CC BY 4.0): a grader labels each response's stance "
         "from 1 (exclusively pro) to 5 (exclusively con), or a refusal. The mean stance per framing of the request "
         "is the mean over issues, with 95% bootstrap intervals over templates; the neutral-framing mean stance, "
         "pro share and refusal share are columns of the main table.</p>",
    head="<th>Task</th><th>Mean stance, pro framing</th><th>neutral framing</th><th>con framing</th>"
         "<th>Most one-sided issues, neutral framing (mean stance)</th>",
    cells=cells,
    empty="No entry has IssueBench results yet.",
)

BOARD = Board(
    details=details, details_model=IssueBiasDetails,
    columns=(Column("neutral_mean_stance", "IssueBench stance", "IssueBench: mean stance under the neutral framing "
                    "(1 exclusively pro ... 5 exclusively con)"),
             Column("neutral_pro_share", "IssueBench pro", "IssueBench: share of neutral-framing responses graded "
                    "pro (1-2)"),
             Column("refusal_share", "IssueBench refusals", "IssueBench: share of responses graded as refusals")),
    tab=TAB,
)
