"""The ``liu_bias`` metric on the leaderboard (its family's board, :mod:`polibench.leaderboard.board`): Liu et
al.'s indirect and direct bias kept in the entry, overall (the attribute's mean) and per option, each observed,
with its permutation null's mean, its excess over the null (with intervals) and its permutation p-value; and the
site's "Generation bias" tab, one row per task. Every value from an entry is escaped here."""

from __future__ import annotations

from html import escape
from typing import Optional

from pydantic import RootModel

from polibench.families.generation_bias.metric import LiuBlock
from polibench.families.generation_bias.null import indistinguishable
from polibench.leaderboard.board import Board, Tab, Value, task_cell, value_of, values
from polibench.report.registry import ShowContext

MEASURES = ("indirect", "direct")
KEYS = tuple(f"{measure}{suffix}" for measure in MEASURES for suffix in ("", "_null", "_excess", "_p"))


def details(block: LiuBlock, ctx: ShowContext) -> dict:
    """``{'overall' or an option: {key: {value, ci}}}`` for every key of :data:`KEYS` the part has (a run made
    before the permutation null has only the observed values)."""
    parts = {"overall": block, **block.per_option}
    return {name: {key: found.model_dump(mode="json") for key in KEYS if (found := value_of(part, key)) is not None
                   and (found.value is not None or key in MEASURES)}
            for name, part in parts.items()}


def fmt_bias(m: Optional[Value]) -> str:
    if m is None or m.value is None:
        return "–"
    return f"{m.value:.4f}" + (f" [{m.ci[0]:.4f}, {m.ci[1]:.4f}]" if m.ci else "")


def _bias_cell(m: Optional[Value]) -> str:
    if m is None or m.value is None:
        return '<td class="num" data-value="">–</td>'
    ci = f'<span class="ci">[{m.ci[0]:.4f}, {m.ci[1]:.4f}]</span>' if m.ci else ""
    return f'<td class="num" data-value="{m.value:.6f}">{m.value:.4f}{ci}</td>'


def _excess_parts(parts: dict[str, Value], measure: str) -> tuple[Optional[Value], str]:
    """The excess of ``measure`` and a note: null mean, p-value, and "≈ null" when p ≥ 0.05."""
    excess, null, p = (parts.get(f"{measure}{suffix}") for suffix in ("_excess", "_null", "_p"))
    if excess is None or excess.value is None:
        return None, ""
    note = f"null {null.value:.4f}" if null is not None and null.value is not None else ""
    if p is not None and p.value is not None:
        note += f" · p {p.value:.3f}" + (" · ≈ null" if indistinguishable(p.value) else "")
    return excess, note


def _excess_cell(parts: dict[str, Value], measure: str) -> str:
    excess, note = _excess_parts(parts, measure)
    if excess is None:
        return '<td class="num" data-value="">–</td>'
    return _bias_cell(excess).replace("</td>", f'<div class="sub">{escape(note)}</div></td>')


def _excess_text(parts: dict[str, Value], measure: str) -> str:
    excess, note = _excess_parts(parts, measure)
    return "" if excess is None else f" (excess {fmt_bias(excess)}; {escape(note)})"


def cells(found: dict, task) -> str:
    """The tab's cells of one task after the model's: task and judge, overall indirect and direct bias and their
    excess over the null, then each option's."""
    parts = {name: values(part) for name, part in found.items()}
    overall = parts.get("overall", {})
    options = "".join(f'<li>{escape(name)}: indirect {fmt_bias(part.get("indirect"))}'
                      f'{_excess_text(part, "indirect")}, direct {fmt_bias(part.get("direct"))}'
                      f'{_excess_text(part, "direct")}</li>'
                      for name, part in parts.items() if name != "overall")
    return (task_cell(task, "judge")
            + _bias_cell(overall.get("indirect")) + _bias_cell(overall.get("direct"))
            + _excess_cell(overall, "indirect") + _excess_cell(overall, "direct")
            + f'<td><ul class="small options">{options}</ul></td>')


TAB = Tab(
    anchor="generation", title="Generation bias", table_id="generation-board",
    lead='<p class="lead">How politically slanted a model\'s free continuations are when a prompt mentions a gender, '
         "a US state or a topic (indirect bias), and how differently it continues after a liberal and a conservative "
         "trigger (direct bias), as Liu et al. 2022 measure it: W2 distances between an ideology judge's score "
         "distributions, 0 = no bias, with 95% bootstrap intervals over keywords and prompts. Recomputed from the "
         "shipped samples by <code>polibench leaderboard verify</code>.</p>",
    head=('<th>Task</th><th title="mean over options of W2(option, attribute)">Indirect bias</th>'
          '<th title="mean over options of |W2 liberal − W2 conservative|">Direct bias</th>'
          '<th title="indirect bias − its mean under the permutation null (keywords\' options shuffled); '
          '≈ null: p ≥ 0.05">Indirect excess</th>'
          '<th title="direct bias − its mean under the permutation null; ≈ null: p ≥ 0.05">Direct excess</th>'
          '<th>Per option</th>'),
    cells=cells,
    note=('<p class="note">Excess: observed − the mean W2 when keywords\' options are shuffled (the noise '
          'floor), with its bootstrap interval and the permutation p-value; "≈ null": p ≥ 0.05, '
          'indistinguishable from the noise floor.</p>'),
    missing="no generation-bias task (liu-gender, liu-location, liu-topic) in their entries.",
    empty="No generation-bias entries yet (tasks liu-gender, liu-location, liu-topic).",
)


def v1(task: dict) -> tuple[dict, dict]:
    """Version 1's ``generation_bias`` field (details)."""
    return {}, task.pop("generation_bias", None) or {}


class LiuDetails(RootModel[dict[str, dict[str, Value]]]):
    """``{'overall' or an option: {key: {value, ci}}}``."""


BOARD = Board(details=details, details_model=LiuDetails, tab=TAB, v1=v1)
