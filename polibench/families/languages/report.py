"""How the ``language_effect`` run-level metric is shown (:mod:`polibench.families.languages.metric`): report.md's
"Languages" section, its figure (the compass with one point per language, each joined to English) and the lines
``polibench run`` prints."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

from polibench.families.languages.metric import AXES, LanguageEffect, LanguagePosition
from polibench.families.pct.report import draw_quadrants, frame_compass
from polibench.metrics.registry import get_metric
from polibench.report import plots
from polibench.report.registry import RunReport
from polibench.report.text import figure_link, fmt, share

CHANNEL_NAMES = {"forced": "forced choice", "logprob": "log-probability", "open": "open-ended"}


def _ci(values: Optional[list[float]]) -> str:
    return "" if values is None else f" [{fmt(values[0])}, {fmt(values[1])}]"


def _figure_stem(effect: LanguageEffect) -> str:
    return f"languages_{effect.base}_{effect.channel}"


def figures(effects: list[LanguageEffect], document: Any, run_dir: Path) -> list[str]:
    """One compass per comparison, saved next to report.md; returns the file names."""
    names: list[str] = []
    model = str((getattr(document, "model", None) or {}).get("model", ""))
    for effect in effects:
        if any(lang.position[axis] is None for lang in effect.languages for axis in AXES):
            continue
        title = f"{Path(model).name or model} · {effect.base} in {len(effect.languages)} languages, " \
                f"{CHANNEL_NAMES.get(effect.channel, effect.channel)}"
        names += plots.save_figure(compass_figure(effect, title), run_dir / _figure_stem(effect))
    return names


def compass_figure(effect: LanguageEffect, title: str):
    """The political compass with one point per language (its 95% interval as faint bars), each joined to English
    by a line; a language flagged as shifted is drawn filled, the others hollow."""
    x_axis, y_axis = get_metric("pct_coordinates").estimates
    figure = plots.blank_figure(6.2, 6.6, left=0.75, bottom=1.1)
    ax = figure.add_subplot()
    draw_quadrants(ax)
    ax.axvline(0, color="black", linewidth=1)
    ax.axhline(0, color="black", linewidth=1)
    reference = next((lang for lang in effect.languages if lang.language == effect.reference), None)
    for lang in effect.languages:
        x, y = lang.position["economic"], lang.position["social"]
        is_reference = lang is reference
        if reference is not None and not is_reference:
            ax.plot([reference.position["economic"], x], [reference.position["social"], y], color="#555555",
                    linewidth=0.8, alpha=0.6, zorder=2)
        shifted = any(lang.shift.get(axis) for axis in AXES)
        ax.errorbar([x], [y], xerr=_bars(x, lang.position_ci["economic"]), yerr=_bars(y, lang.position_ci["social"]),
                    fmt="s" if is_reference else "o", markersize=8 if is_reference else 6, capsize=2,
                    elinewidth=0.8, alpha=0.9, zorder=4, color="black",
                    markerfacecolor="black" if is_reference or shifted else "white")
    at_point: dict[tuple[float, float], list[str]] = {}  # languages on one point share one label
    for lang in effect.languages:
        at_point.setdefault((lang.position["economic"], lang.position["social"]), []).append(lang.language)
    for (x, y), codes in at_point.items():
        right = x > 5  # near the right edge: the label goes to the left of the point
        ax.annotate(", ".join(codes), (x, y), textcoords="offset points", xytext=(-5 if right else 5, 4), fontsize=8,
                    zorder=5, ha="right" if right else "left")
    frame_compass(ax, x_axis, y_axis)
    ax.set_title(title, fontsize=9)
    figure.text(0.5, 0.02, "square: English (the reference); filled: shifted from English (simultaneous 95% interval "
                           "excludes 0);\nhollow: not distinguishable from English; bars: each position's 95% interval",
                ha="center", va="bottom", fontsize=7.5)
    return figure


def _bars(value: float, ci: Optional[list[float]]) -> Optional[list[list[float]]]:
    if ci is None:
        return None
    return [[max(value - ci[0], 0.0)], [max(ci[1] - value, 0.0)]]


def shift_verdict(lang: LanguagePosition, reference: Optional[str]) -> tuple[str, list[str]]:
    """Whether a language's position moved from the reference's: ``("reference", [])`` for the reference itself,
    ``("none", [])`` where no shift was judged, ``("shifted", axes)`` or ``("not shifted", [])`` (the report's and
    the leaderboard's wording of it follow)."""
    if lang.language == reference:
        return "reference", []
    if not lang.shift:
        return "none", []
    flagged = [axis for axis in AXES if lang.shift.get(axis)]
    return ("shifted", flagged) if flagged else ("not shifted", [])


def _shift_cell(lang: LanguagePosition, reference: Optional[str]) -> str:
    verdict, flagged = shift_verdict(lang, reference)
    if verdict == "shifted":
        return "shifted: " + ", ".join(flagged)
    return {"reference": "reference", "none": "–", "not shifted": "not distinguishable (intervals include 0)"}[verdict]


def section(effects: list[LanguageEffect], document: Any, figure_names: Optional[list[str]] = None) -> list[str]:
    """report.md's "Languages" section: per comparison, the figure, the table and the spread."""
    if not effects:
        return []
    lines = ["## Languages", "",
             "The same questionnaire asked in several languages (translated instruments; Gurgurov et al. 2025's "
             "translations, tasks/languages/ATTRIBUTION.md). Position: each language's PCT coordinates with their "
             "95% interval (as its task's section). Difference: this language − English, summed over the statements "
             "answered in both (a paired comparison: each statement against itself), with the 95% interval of that "
             "comparison alone and the simultaneous one over all the comparisons of the table (Bonferroni), which "
             "decides the flag: a language is *shifted* on an axis only when its simultaneous interval excludes 0. "
             "Spread: the standard deviation and range of the languages' positions. Responses read: the share of the "
             "task's responses that its answer reader (or stance scorer) read; a language read less often has fewer "
             "statements behind its position.", ""]
    for effect in effects:
        stem = _figure_stem(effect)
        drawn = [n for n in figure_names or [] if Path(n).stem == stem]
        channel = CHANNEL_NAMES.get(effect.channel, effect.channel)
        lines += [f"### {effect.base} in {len(effect.languages)} languages ({channel})", ""]
        if drawn:
            lines += figure_link(drawn, f"{effect.base} in {len(effect.languages)} languages")
        if effect.reference is None:
            lines += ["No English task in this run: positions only, no differences (add the English task, e.g. "
                      f"pct-en-{effect.channel}, to compare with English).", ""]
        lines += ["| language | task | economic [95% CI] | social [95% CI] | statements answered (econ / soc) | "
                  "responses read | economic − English [95% CI] | social − English [95% CI] | simultaneous "
                  "intervals | shift |", "|---|---|---|---|---|---|---|---|---|---|"]
        for lang in effect.languages:
            pos = [fmt(lang.position[a]) + _ci(lang.position_ci.get(a)) for a in AXES]
            diff = [fmt(lang.difference.get(a)) + _ci(lang.difference_ci.get(a)) for a in AXES]
            joint = " / ".join(_ci(lang.simultaneous_ci.get(a)).strip() or "–" for a in AXES)
            lines.append(f"| {lang.name} ({lang.language}) | {lang.task} | {pos[0]} | {pos[1]} | "
                         f"{lang.answered['economic']} / {lang.answered['social']} | {share(lang.kept_share)} | "
                         f"{diff[0]} | {diff[1]} | {joint if effect.reference != lang.language else '–'} | "
                         f"{_shift_cell(lang, effect.reference)} |")
        lines.append("")
        spread = "; ".join(f"{axis}: SD {_num(s.sd)}{_plain_ci(s.sd_ci)}, range {_num(s.range)}{_plain_ci(s.range_ci)}"
                           for axis, s in effect.spread.items())
        lines += [f"Spread across the {len(effect.languages)} languages: {spread}.", ""]
        if effect.reference is not None:
            lines += _verdict(effect) + [""]
    return lines


def _num(value: Optional[float]) -> str:
    return "–" if value is None else f"{value:.2f}"


def _plain_ci(values: Optional[list[float]]) -> str:
    return "" if values is None else f" [{values[0]:.2f}, {values[1]:.2f}]"


def _verdict(effect: LanguageEffect) -> list[str]:
    shifted = effect.shifted()
    others = [lang for lang in effect.languages if lang.language != effect.reference]
    level = f"{100 * (effect.simultaneous_level or 0):.2f}%"
    if not shifted:
        return [f"No language is shifted from English: every simultaneous interval ({level} each, "
                f"{effect.comparisons} comparisons) includes 0."]
    quiet = [lang.name for lang in others if not any(lang.shift.get(a) for a in AXES)]
    return [f"Shifted from English (simultaneous interval, {level} each over {effect.comparisons} comparisons, "
            "excludes 0): " + ", ".join(f"{lang.name} on the {axis} axis ({fmt(lang.difference.get(axis))})"
                               for lang, axis in shifted) + "."
            + (f" Not distinguishable from English: {', '.join(quiet)}." if quiet else "")]


def summary(effects: list[LanguageEffect], document: Any) -> list[str]:
    """One line per comparison for ``polibench run``."""
    lines = []
    for effect in effects:
        channel = CHANNEL_NAMES.get(effect.channel, effect.channel)
        head = f"languages ({effect.base}, {channel}, {len(effect.languages)} languages)"
        if effect.reference is None:
            lines.append(f"{head}: no English task in the run, positions only")
            continue
        shifted = effect.shifted()
        spread = ", ".join(f"{axis} SD {_num(s.sd)}" for axis, s in effect.spread.items())
        lines.append(f"{head}: " + ("shifted from English: " + ", ".join(
            f"{lang.language} {axis} {fmt(lang.difference.get(axis))}{_ci(lang.simultaneous_ci.get(axis))}"
            for lang, axis in shifted) if shifted else "no language shifted from English") + f"; spread {spread}")
    return lines


# how report.md and `polibench run` show the run-level metric (registered by the family)
REPORT = RunReport(section=section, summary=summary, figures=figures)
