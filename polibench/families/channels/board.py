"""The ``channels`` run-level metric on the leaderboard (its family's board, :class:`~polibench.leaderboard.
board.RunBoard`): the forced-choice vs open-ended comparisons kept in the entry, the "Forced vs open" tab (one row
per comparison, the models without a pair named with why), each comparison with its per-statement answers on the
model page, and the entry field they were kept in before (``channels``). Every value from an entry is escaped."""

from __future__ import annotations

from html import escape
from typing import Any, Optional

from polibench.families.channels.metric import ChannelComparison
from polibench.families.channels.report import dropped_text
from polibench.leaderboard.board import RunBoard, RunTab, Site, Value, number_cell


def _gap_cell(c: ChannelComparison, axis: str) -> str:
    """The side gap's cell, labelled where no resample could move it (a zero-width interval is not certainty)."""
    cell = number_cell(c.side_gap[axis], c.side_gap_ci[axis])
    if not c.side_gap_degenerate.get(axis, False):
        return cell
    return cell.removesuffix("</td>") + ' <span class="degenerate" title="no resample moved it">degenerate</span></td>'


def _task(entry: Any, name: str) -> Any:
    return next((t for t in entry.tasks if t.name == name), None)


def _position_cell(site: Site, task: Any, axis: int) -> str:
    """The task's position on compass axis ``axis`` (0: x, 1: y) with its interval."""
    found: Optional[Value] = site.position(task)[axis] if task else None
    return number_cell(found.value if found else None, found.ci if found else None)


def tab_html(rows: list[tuple[Any, list[ChannelComparison]]], site: Site) -> str:
    """One row per (entry, comparison): each channel's own position, the side gap with its paired interval,
    agreement on sides, and the share of responses each channel kept."""
    lines = []
    for entry, comparisons in rows:
        for c in comparisons:
            forced, open_ = _task(entry, c.a), _task(entry, c.b)
            lines.append(
                f'<tr data-model="{escape(entry.model.id)}" data-pair="{escape(c.a)}">'
                f'<td data-value="{escape(entry.model.id.lower())}">{site.model_link(entry)}</td>'
                f'<td>{escape(c.a)} → {escape(c.b)}</td>'
                + _position_cell(site, forced, 0) + _position_cell(site, open_, 0)
                + _position_cell(site, forced, 1) + _position_cell(site, open_, 1)
                + _gap_cell(c, "economic") + _gap_cell(c, "social")
                + number_cell(c.side_agreement, c.side_agreement_ci, 3, sign=False)
                + f'<td class="num" data-value="{c.items_both}">{c.items_both}</td>'
                + number_cell(forced.coverage.kept_share if forced else None, None, 3, sign=False)
                + number_cell(open_.coverage.kept_share if open_ else None, None, 3, sign=False) + "</tr>")
    entries = [entry for entry, _ in rows]
    if not lines:
        return '<p class="note">No entry compares answer channels yet.</p>' + not_compared(rows)
    citations = sorted({e.imported.citation for e in entries if e.imported and e.imported.citation})
    licences = sorted({e.imported.licence for e in entries if e.imported and e.imported.licence})
    sources = "".join(f"<li>{escape(c)}</li>" for c in citations)
    return ('<p class="lead">The same statements asked two ways: forced choice (pick one of four options) and '
            "open-ended (answer freely; a stance scorer reads the answer, responses under 0.9 confidence dropped). "
            "The two channels do not answer on one scale: a parsed option can be any of the four answers, while a "
            "kept open-ended answer is almost always a strong one. So each channel's own position is shown on its "
            "own scale, and the channels are compared by <em>side</em>: a statement's side in a channel is agree "
            "when most of its kept responses agree, disagree when most disagree. Side gap = open − forced position "
            "with every statement that has a side in both channels answered at the strong end of its side (0 when "
            "the channels take the same side on every statement), with a paired two-level bootstrap interval "
            "(statements, then each statement's responses, so a side resting on a narrow majority is uncertain); "
            "same side "
            "= share of those statements on the same side in both; kept = share of responses read (by the parser or "
            "by the scorer at confidence ≥ 0.9).</p>"
            + '<div class="table-wrap"><table id="channels"><thead><tr><th>Model</th><th>Tasks</th>'
            "<th>Forced econ. (own scale)</th><th>Open econ. (own scale)</th><th>Forced social (own scale)</th>"
            "<th>Open social (own scale)</th><th>Side gap econ.</th><th>Side gap social</th><th>Same side</th>"
            "<th>Statements with a side in both</th><th>Forced kept</th><th>Open kept</th></tr></thead><tbody>"
            + "".join(lines) + "</tbody></table></div>"
            + not_compared(rows)  # below the table, folded
            + (f'<div class="attribution"><p>Imported responses come from:</p><ul>{sources}</ul>'
               f"<p>Licence: {escape(', '.join(licences))}. They were generated by their authors, not by polibench; "
               "polibench parsed and scored them.</p></div>" if sources else ""))


def channel_pairs() -> list[tuple[str, str]]:
    """The built-in (forced choice, open-ended) task pairs: the ``compare_with`` pairings of kind ``channel`` that
    the task files declare, as (the task compared with, the declaring task)."""
    from polibench.taskspec.loader import load_registry

    return [(p.task, t.task) for t in load_registry().tasks.values() for p in t.compare_with if p.kind == "channel"]


def not_compared(rows: list[tuple[Any, list[ChannelComparison]]]) -> str:
    """The models that have no row in the tab, each with why: which of a pair's tasks their entries hold."""
    compared = {entry.model.id for entry, comparisons in rows if comparisons}
    pairs = channel_pairs()
    reasons: dict[str, set[str]] = {}
    for entry, _ in rows:
        if entry.model.id in compared:
            continue
        names = {t.name for t in entry.tasks}
        held = [(a, b) for a, b in pairs if (a in names) != (b in names)]
        why = reasons.setdefault(entry.model.id, set())
        why.update(f"{a if a in names else b} without {b if a in names else a}" for a, b in held)
        if not held:
            why.add("no forced-choice and open-ended pair of tasks")
    if not reasons:
        return ""
    items = "".join(f'<li data-model="{escape(model)}">{escape(model)}: {escape("; ".join(sorted(why)))}</li>'
                    for model, why in sorted(reasons.items()))
    return (f'<details class="note missing" data-count="{len(reasons)}"><summary>Not in this view: {len(reasons)} '
            f"model{'s' if len(reasons) != 1 else ''} (a row needs both tasks of a pair, "
            f"{escape(', '.join(f'{a} and {b}' for a, b in pairs))}, in one entry)</summary><ul>{items}</ul></details>")


def page(comparisons: list[ChannelComparison]) -> str:
    """The model page's part: each comparison with its per-statement answers."""
    return "".join(_comparison(c) for c in comparisons)


def _comparison(c: ChannelComparison) -> str:
    exact = (f", same answer on {_share(c.exact_agreement)} {_ci(c.exact_agreement_ci, 3)}" if c.same_scale else "")
    head = (f"<h3>{escape(c.a)} vs {escape(c.b)}</h3><p>Side gap ({escape(c.b)} − {escape(c.a)}, statements with a "
            f"side in both answered at the strong end of their side): economic {c.side_gap['economic']:+.2f} "
            f"{_ci(c.side_gap_ci['economic'])}, social {c.side_gap['social']:+.2f} {_ci(c.side_gap_ci['social'])}; "
            f"{c.items_both} statements with a side in both, same side on {_share(c.side_agreement)} "
            f"{_ci(c.side_agreement_ci, 3)}{exact}. Without a side (not in the gap): {escape(dropped_text(c))}.</p>")
    rows = "".join(f"<tr><td>{escape(item)}</td><td>{escape(a or '–')}</td><td>{escape(side_a or '–')}</td>"
                   f"<td>{escape(b or '–')}</td><td>{escape(side_b or '–')}</td></tr>"
                   for item, (a, b) in c.answers.items() for side_a, side_b in [c.sides.get(item, [None, None])])
    return (head + f'<details><summary>answers per statement</summary><table class="small"><thead><tr><th>item</th>'
            f"<th>{escape(c.a)} answer</th><th>{escape(c.a)} side</th><th>{escape(c.b)} answer</th>"
            f"<th>{escape(c.b)} side</th></tr></thead><tbody>{rows}</tbody></table></details>")


def _ci(ci: Optional[list[float]], digits: int = 2) -> str:
    return "(no interval)" if ci is None else f"[{ci[0]:.{digits}f}, {ci[1]:.{digits}f}]"


def _share(value: Optional[float]) -> str:
    return "–" if value is None else f"{value:.3f}"


def v1(entry: dict) -> Optional[list]:
    """The comparisons an entry kept in its own ``channels`` field (version 1, and version 2 before run-level
    metrics had boards)."""
    return entry.pop("channels", None)


BOARD = RunBoard(tab=RunTab(anchor="channels", title="Forced vs open", heading="Forced choice vs open-ended",
                            html=tab_html),
                 page=page, v1=v1)
