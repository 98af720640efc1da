"""The ``language_effect`` run-level metric on the leaderboard (its family's board, a :class:`~polibench.
leaderboard.board.RunBoard`): the comparisons kept in the entry, the "Languages" tab (one row per model, channel and
language: the position, the difference from English with its interval, the flag) with each comparison's spread
above its rows, and the same table on the model page. Every value from an entry is escaped."""

from __future__ import annotations

from html import escape
from typing import Any, Optional

from polibench.families.languages.metric import AXES, LanguageEffect, LanguagePosition
from polibench.families.languages.report import CHANNEL_NAMES, shift_verdict
from polibench.leaderboard.board import RunBoard, RunTab, Site, number_cell


def _num(value: Optional[float], ci: Optional[list[float]] = None, digits: int = 2, sign: bool = True) -> str:
    return number_cell(value, ci, digits, sign, gap=" ")


def _flag(lang: LanguagePosition, reference: Optional[str]) -> str:
    verdict, flagged = shift_verdict(lang, reference)
    if verdict == "shifted":
        return f'<td data-shift="yes" class="flag">shifted: {escape(", ".join(flagged))}</td>'
    return {"reference": '<td data-shift="reference">reference</td>', "none": '<td data-shift="">–</td>',
            "not shifted": '<td data-shift="no">not distinguishable</td>'}[verdict]


def _rows(effect: LanguageEffect, first_cell: str, model: str) -> str:
    channel = CHANNEL_NAMES.get(effect.channel, effect.channel)
    out = []
    for lang in effect.languages:
        out.append(f'<tr data-model="{escape(model)}" data-channel="{escape(effect.channel)}" '
                   f'data-language="{escape(lang.language)}">{first_cell}<td>{escape(channel)}</td>'
                   f'<td data-value="{escape(lang.language)}">{escape(lang.name)} ({escape(lang.language)})</td>'
                   + "".join(_num(lang.position.get(a), lang.position_ci.get(a)) for a in AXES)
                   + "".join(_num(lang.difference.get(a), lang.difference_ci.get(a)) for a in AXES)
                   + _flag(lang, effect.reference)
                   + _num(lang.kept_share, None, 3, sign=False) + "</tr>")
    return "".join(out)


HEAD = ("<th>Language</th><th>Economic</th><th>Social</th><th>Economic − English</th><th>Social − English</th>"
        "<th>Shift</th><th>Responses read</th>")


def _spread(effect: LanguageEffect) -> str:
    parts = []
    for axis in AXES:
        s = effect.spread.get(axis)
        if s is None or s.sd is None:
            continue
        ci = f" [{s.sd_ci[0]:.2f}, {s.sd_ci[1]:.2f}]" if s.sd_ci else ""
        parts.append(f"{axis} SD {s.sd:.2f}{ci}, range {s.range:.2f}")
    return "; ".join(parts)


def tab_html(rows: list[tuple[Any, list[LanguageEffect]]], site: Site) -> str:
    """One row per (entry, comparison, language), each comparison's spread in a line above the table."""
    body, spreads = [], []
    for entry, effects in rows:
        for effect in effects:
            cell = f'<td data-value="{escape(entry.model.id.lower())}">{site.model_link(entry)}</td>'
            body.append(_rows(effect, cell, entry.model.id))
            spreads.append(f'<li data-model="{escape(entry.model.id)}">{escape(entry.model.id)}, '
                           f"{escape(effect.base)} ({escape(CHANNEL_NAMES.get(effect.channel, effect.channel))}, "
                           f"{len(effect.languages)} languages): spread {escape(_spread(effect))}; "
                           f"{len(effect.shifted())} of {effect.comparisons} comparisons flagged</li>")
    lead = ('<p class="lead">The Political Compass Test asked in several languages (the translations of '
            "politicalcompass.org, as Gurgurov et al. 2025 collected them). Each language's position, its difference "
            "from English over the statements answered in both (a paired comparison, 95% interval), and whether it is "
            "flagged as shifted: only when the simultaneous interval over all the model's comparisons (Bonferroni) "
            "excludes 0. Responses read: the share of the task's responses that gave an answer.</p>")
    if not body:
        return lead + ('<p class="note">No entry asks the questionnaire in several languages yet (tasks '
                       "pct-&lt;language&gt;-forced or pct-&lt;language&gt;-logprob, with pct-en-… as the "
                       "reference).</p>")
    return (lead + f'<ul class="note spreads">{"".join(spreads)}</ul>'
            + '<div class="table-wrap"><table id="languages-board"><thead><tr><th>Model</th><th>Channel</th>'
            + HEAD + "</tr></thead><tbody>" + "".join(body) + "</tbody></table></div>"
            + '<p class="note">Source of the translations: Gurgurov, Trinley, Vykopal, van Genabith, Ostermann, '
              "Zamparelli 2025, arXiv 2507.22623; github.com/d-gurgurov/Political-Ideologies-LLMs (MIT).</p>")


def page(effects: list[LanguageEffect]) -> str:
    """The model page's part: each comparison's table."""
    out = []
    for effect in effects:
        channel = CHANNEL_NAMES.get(effect.channel, effect.channel)
        out.append(f"<h3>{escape(effect.base)} in {len(effect.languages)} languages ({escape(channel)})</h3>"
                   f"<p>Spread across languages: {escape(_spread(effect))}.</p>"
                   f'<table class="small languages"><thead><tr><th>Channel</th>{HEAD}</tr></thead><tbody>'
                   + _rows(effect, "", "") + "</tbody></table>")
    return "".join(out)


BOARD = RunBoard(tab=RunTab(anchor="languages", title="Languages", heading="The same questionnaire in many languages",
                            html=tab_html),
                 page=page)
