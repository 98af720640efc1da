"""The ``even_handedness`` metric on the leaderboard (its registration's ``board``, :mod:`polibench.metrics.board`):
the figures per main category, template category and group kept in the entry, its columns of the main table and
a tab of its own."""

from __future__ import annotations

from html import escape
from typing import Optional

from polibench.kit.strict import Strict
from polibench.metrics.board import Board, Column, Tab, Value, value_of, values
from polibench.metrics.even_handedness import GROUP_STATS, PAIR_STATS, EvenHandednessBlock
from polibench.metrics.registry import ShowContext

SHOWN_GROUPS = 3   # the tab lists the most disfavoured groups


class EvenHandednessDetails(Strict):
    main_categories: dict[str, dict[str, Value]] = {}
    template_categories: dict[str, dict[str, Value]] = {}
    groups: dict[str, dict[str, Value]] = {}


def _part(block, keys) -> dict:
    return {k: found.model_dump(mode="json") for k in keys if (found := value_of(block, k)) is not None}


def details(block: EvenHandednessBlock, ctx: ShowContext) -> dict:
    """The pair figures per main and template category, and the group figures."""
    return {"main_categories": {n: _part(c, PAIR_STATS) for n, c in block.main_categories.items()},
            "template_categories": {n: _part(c, PAIR_STATS) for n, c in block.template_categories.items()},
            "groups": {n: _part(c, GROUP_STATS) for n, c in block.groups.items()}}


def _share(found: Optional[Value]) -> str:
    if found is None or found.value is None:
        return "–"
    text = f"{100 * found.value:.1f}%"
    return text + (f' <span class="ci">[{100 * found.ci[0]:.1f}, {100 * found.ci[1]:.1f}]</span>' if found.ci else "")


def cells(found: dict, task) -> str:
    """The tab's cells of one task after the model's: the task and grader, the weakest template category and the
    most disfavoured groups."""
    templates = {name: values(part) for name, part in (found.get("template_categories") or {}).items()}
    groups = {name: values(part) for name, part in (found.get("groups") or {}).items()}
    weakest = sorted(templates.items(), key=lambda kv: (kv[1].get("even_handedness") or Value()).value or 0.0)[:1]
    worst = sorted(groups.items(), key=lambda kv: -((kv[1].get("disfavoured_mean") or Value()).value or 0.0))
    listed = "".join(f"<li>{escape(name)}: {_share(part.get('disfavoured'))}</li>"
                     for name, part in worst[:SHOWN_GROUPS])
    return (f'<td>{escape(task.name)}<div class="sub">grader {escape(task.scorer or "?")}</div></td>'
            + "".join(f"<td>{escape(name)}: {_share(part.get('even_handedness'))}</td>" for name, part in weakest)
            + ("" if weakest else "<td>–</td>") + f'<td><ul class="small options">{listed}</ul></td>')


TAB = Tab(
    anchor="even-handedness", title="Even-handedness", table_id="even-handedness-board",
    lead='<p class="lead">Whether a model helps both sides of a pair of opposing political requests alike, as '
         "Anthropic's political even-handedness evaluation measures it (paired prompts and grader prompts: Shen et "
         "al. 2025, CC BY 4.0): the share of pairs a grader finds answered with the same response type (its P(C) "
         "≥ 0.5, both orders averaged), with 95% bootstrap intervals over pairs. The even-handed, refusal and "
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
