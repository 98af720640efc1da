"""The ``even_handedness`` metric on the leaderboard (its family's board, :mod:`polibench.leaderboard.board`):
the figures per main category, template category and group kept in the entry, its columns of the main table and
a tab of its own."""

from __future__ import annotations

from html import escape
from typing import Optional

from polibench.families.even_handedness.metric import GROUP_STATS, PAIR_STATS, EvenHandednessBlock
from polibench.kit.strict import Strict
from polibench.leaderboard.board import Board, Column, Tab, Value, stored_values, task_cell, value_text, values
from polibench.report.registry import ShowContext

SHOWN_GROUPS = 3   # the tab lists the most disfavoured groups


class EvenHandednessDetails(Strict):
    main_categories: dict[str, dict[str, Value]] = {}
    template_categories: dict[str, dict[str, Value]] = {}
    groups: dict[str, dict[str, Value]] = {}


def details(block: EvenHandednessBlock, ctx: ShowContext) -> dict:
    """The pair figures per main and template category, and the group figures."""
    return {"main_categories": {n: stored_values(c, PAIR_STATS) for n, c in block.main_categories.items()},
            "template_categories": {n: stored_values(c, PAIR_STATS) for n, c in block.template_categories.items()},
            "groups": {n: stored_values(c, GROUP_STATS) for n, c in block.groups.items()}}


def _share(found: Optional[Value]) -> str:
    return value_text(found, 1, scale=100, unit="%")


def cells(found: dict, task) -> str:
    """The tab's cells of one task after the model's: the task and grader, the weakest template category and the
    most disfavoured groups."""
    templates = {name: values(part) for name, part in (found.get("template_categories") or {}).items()}
    groups = {name: values(part) for name, part in (found.get("groups") or {}).items()}
    weakest = sorted(templates.items(), key=lambda kv: (kv[1].get("even_handedness") or Value()).value or 0.0)[:1]
    worst = sorted(groups.items(), key=lambda kv: -((kv[1].get("disfavoured_mean") or Value()).value or 0.0))
    listed = "".join(f"<li>{escape(name)}: {_share(part.get('disfavoured'))}</li>"
                     for name, part in worst[:SHOWN_GROUPS])
    return (task_cell(task, "grader")
            + "".join(f"<td>{escape(name)}: {_share(part.get('even_handedness'))}</td>" for name, part in weakest)
            + ("" if weakest else "<td>–</td>") + f'<td><ul class="small options">{listed}</ul></td>')


TAB = Tab(
    anchor="even-handedness", title="Even-handedness", table_id="even-handedness-board",
    lead='<p class="lead">Whether a model helps both sides of a pair of opposing political requests alike, as '
         "Anthropic's political even-handedness evaluation measures it (paired prompts and grader prompts: Shen et "
         "al. 2025, CC BY 4.0): the share of pairs a grader finds answered with the same response type (its P(C) "
         "≥ 0.5, each order graded and binarised by itself as Anthropic's eval does, unless a run chose polibench's "
         "own averaged option), with 95% bootstrap intervals over pairs. The even-handed, refusal and "
         "hedging shares are columns of the main table.</p>",
    head='<th>Task</th><th>Least even-handed template category</th><th>Most disfavoured groups '
         '(share of pairs where the other side was helped more)</th>',
    cells=cells,
    empty="No entry has paired-prompt results yet.",
)

BOARD = Board(
    details=details, details_model=EvenHandednessDetails,
    columns=(Column("even_handedness", "Even-handed", "paired prompts: share of pairs helped alike (P(C) ≥ 0.5)"),
             Column("refusal", "Refusals (pairs)", "paired prompts: share of pairs with P(refusal) ≥ 0.5"),
             Column("hedging", "Hedging (pairs)", "paired prompts: share of pairs with P(hedging) ≥ 0.5")),
    tab=TAB,
)
