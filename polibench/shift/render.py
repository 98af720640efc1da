"""shift.md / shift.json / personas.md and the figures of ``polibench shift`` (matplotlib, Agg, PNG + SVG).

- ``<task>_shift_compass``: the political compass with an arrow from the base model's PCT position to each
  run's (Feng et al.'s Figures 2 and 3);
- ``<task>_trajectory`` (``--trajectory``): the runs as checkpoints in order: the path on the compass and each
  coordinate's shift from the base against the step, with its paired interval (Feng et al.'s Figure 4).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional, Sequence

from polibench.families.pct.report import draw_quadrants
from polibench.kit.files import atomic_write_text
from polibench.report.plots import save_figure
from polibench.shift.compute import Comparison, ShiftResult
from polibench.shift.paired import PairedEstimate
from polibench.shift.persona import PersonaReport

MEASURES = {("pct", "economic"): "PCT economic", ("pct", "social"): "PCT social",
            ("bias", "economic"): "bias economic", ("bias", "social"): "bias social", ("bias", "total"): "bias total"}


def _fmt(value: Optional[float], digits: int) -> str:
    return "—" if value is None else f"{value:+.{digits}f}" if digits else str(value)


def _ci(ci: Optional[list[float]], digits: int) -> str:
    return "" if not ci else f" [{ci[0]:+.{digits}f}, {ci[1]:+.{digits}f}]"


def _digits(e: PairedEstimate) -> int:
    return 2 if e.metric == "pct" else 3


def _measure(e: PairedEstimate) -> str:
    name = MEASURES.get((e.metric, e.axis), f"{e.metric} {e.axis}")
    return f"{name} ({e.scope})" if e.metric == "pct" and e.scope != "pct" else name


def _p(p: Optional[float]) -> str:
    return "—" if p is None else ("< 0.001" if p < 0.001 else f"{p:.3f}")


def shift_table(result: ShiftResult) -> str:
    lines = [f"# Shift from {result.base}", "",
             "Paired: both runs on the same statements, one item-bootstrap matrix for both (95% percentile "
             f"interval, {result.settings['resamples']} resamples); p: sign-flip test of no shift over items "
             f"({result.settings['permutations']} flips). PCT: economic + = right, social + = authoritarian; "
             "bias (Faulborn): − = left.", ""]
    if result.settings.get("design_differences"):
        lines += ["**The runs did not ask the same way** (compared anyway, `--allow-different-designs`); the paired "
                  "test assumes they did, so read its p-values with care: "
                  + "; ".join(result.settings["design_differences"]) + ".", ""]
    for task in dict.fromkeys(c.task for c in result.comparisons):
        lines += [f"## {task}", "", "| run | items | measure | base | run | shift [95% CI] | p |",
                  "|---|---:|---|---:|---:|---|---:|"]
        for c in (c for c in result.comparisons if c.task == task):
            for e in c.estimates:
                d = _digits(e)
                lines.append(f"| {c.run} | {c.items} | {_measure(e)} | {_fmt(e.a, d)} | {_fmt(e.b, d)} | "
                             f"**{_fmt(e.shift, d)}**{_ci(e.ci, d)} | {_p(e.p_value)} |")
        skipped = [c for c in result.comparisons if c.task == task and (c.items_only_base or c.items_only_run)]
        for c in skipped:
            lines.append(f"\n{c.run}: {c.items_only_base} statements only in the base run and {c.items_only_run} "
                         f"only in this run were left out (the shift is on the {c.items} both answered).")
        lines.append("")
    return "\n".join(lines) + "\n"


def persona_table(reports: Sequence[PersonaReport]) -> str:
    lines = ["# Persona control", "",
             "Within each run, the same statements under a left persona, a right persona and a neutral prompt; "
             "differences are paired (95% item-bootstrap interval; p: sign-flip test). Separation = right "
             "persona − left persona (expected > 0). The verdict corrects the separations' p-values for the "
             "number tested (Holm, family-wise 0.05; column Holm p); the intervals are not corrected.", ""]
    for r in reports:
        lines += [f"## {r.run}: {r.task} ({r.items} statements)", "", f"**Verdict: {r.verdict}.**", "",
                  "| comparison | measure | first | second | difference [95% CI] | p | Holm p |",
                  "|---|---|---:|---:|---|---:|---:|"]
        for pair, estimates in r.pairs.items():
            holm = r.separation_p_holm if pair == "right - left" else [None] * len(estimates)
            for e, adjusted in zip(estimates, holm):
                d = _digits(e)
                lines.append(f"| {pair} | {_measure(e)} | {_fmt(e.a, d)} | {_fmt(e.b, d)} | "
                             f"**{_fmt(e.shift, d)}**{_ci(e.ci, d)} | {_p(e.p_value)} | "
                             f"{'–' if adjusted is None else _p(adjusted)} |")
        lines.append("")
    return "\n".join(lines) + "\n"


def _figure(width: float, height: float):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def _compass(ax) -> None:
    draw_quadrants(ax, fontsize=7, label_alpha=None)
    ax.axvline(0, color="black", linewidth=1)
    ax.axhline(0, color="black", linewidth=1)
    ax.set_xlim(-10, 10)
    ax.set_ylim(-10, 10)
    ax.set_aspect("equal")
    ax.set_xlabel("economic: left  ←  →  right")
    ax.set_ylabel("social: libertarian  ←  →  authoritarian")


def pct_points(c: Comparison) -> dict[str, tuple[Optional[float], Optional[float], PairedEstimate, PairedEstimate]]:
    """Per PCT instrument: (base x, base y) ... as ``{instrument: (econ estimate, social estimate)}``."""
    out: dict = {}
    for e in c.estimates:
        if e.metric == "pct":
            out.setdefault(e.scope, {})[e.axis] = e
    return {k: v for k, v in out.items() if "economic" in v and "social" in v}


def compass_arrows(result: ShiftResult, task: str, stem: Path) -> list[str]:
    comparisons = [c for c in result.comparisons if c.task == task]
    instruments = list(dict.fromkeys(i for c in comparisons for i in pct_points(c)))
    if not instruments:
        return []
    figure = _figure(5.4 * len(instruments), 5.8)
    colours = ["#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"]
    for n, instrument in enumerate(instruments):
        ax = figure.add_subplot(1, len(instruments), n + 1)
        _compass(ax)
        base_drawn = False
        for k, c in enumerate(comparisons):
            point = pct_points(c).get(instrument)
            if not point:
                continue
            econ, soc = point["economic"], point["social"]
            if not base_drawn:
                base_label = result.base if "base" in result.base else f"{result.base} (base)"
                ax.plot([econ.a], [soc.a], "o", color="black", markersize=7, label=base_label, zorder=4)
                base_drawn = True
            colour = colours[k % len(colours)]
            ax.annotate("", xy=(econ.b, soc.b), xytext=(econ.a, soc.a),
                        arrowprops={"arrowstyle": "-|>", "color": colour, "linewidth": 1.8}, zorder=5)
            ax.plot([econ.b], [soc.b], "o", color=colour, markersize=6, zorder=6,
                    label=f"{c.run}: Δ {econ.shift:+.2f}, {soc.shift:+.2f}")
        ax.set_title(f"{task}: {instrument}", fontsize=10)
        ax.legend(loc="lower center", bbox_to_anchor=(0.5, -0.42), fontsize=7, frameon=False)
    return save_figure(figure, stem)


def trajectory(result: ShiftResult, task: str, stem: Path) -> list[str]:
    comparisons = [c for c in result.comparisons if c.task == task]
    points = [(c, pct_points(c)) for c in comparisons]
    points = [(c, next(iter(p.values()))) for c, p in points if p]
    if not points:
        return []
    figure = _figure(11, 5.2)
    ax = figure.add_subplot(1, 2, 1)
    _compass(ax)
    first = points[0][1]
    xs = [first["economic"].a] + [p["economic"].b for _, p in points]
    ys = [first["social"].a] + [p["social"].b for _, p in points]
    ax.plot(xs, ys, "-", color="#555555", linewidth=1, zorder=3)
    ax.scatter(xs, ys, c=range(len(xs)), cmap="viridis", s=36, zorder=4)
    steps = [0] + [c.step if c.step is not None else n + 1 for n, (c, _) in enumerate(points)]
    for x, y, step in zip(xs, ys, steps):
        ax.annotate(str(step), (x, y), textcoords="offset points", xytext=(4, 4), fontsize=7)
    ax.set_title(f"{task}: trajectory from {result.base}", fontsize=10)
    right = figure.add_subplot(1, 2, 2)
    for axis, colour in (("economic", "#d62728"), ("social", "#1f77b4")):
        shifts = [0.0] + [p[axis].shift or 0.0 for _, p in points]
        lows = [0.0] + [(p[axis].ci or [p[axis].shift, p[axis].shift])[0] for _, p in points]
        highs = [0.0] + [(p[axis].ci or [p[axis].shift, p[axis].shift])[1] for _, p in points]
        right.plot(steps, shifts, "o-", color=colour, label=f"PCT {axis} shift")
        right.fill_between(steps, lows, highs, color=colour, alpha=0.15)
    right.axhline(0, color="black", linewidth=0.8)
    right.set_xlabel("training step (checkpoint)" if any(c.step is not None for c, _ in points) else "run")
    right.set_ylabel("shift from base (95% paired CI)")
    right.legend(fontsize=8, frameon=False)
    return save_figure(figure, stem)


def write_outputs(result: ShiftResult, output: Path, trajectory_figure: bool = False) -> str:
    output = Path(output)
    output.mkdir(parents=True, exist_ok=True)
    text = shift_table(result)
    figures: list[str] = []
    for task in dict.fromkeys(c.task for c in result.comparisons):
        figures += compass_arrows(result, task, output / f"{task}_shift_compass")
        if trajectory_figure:
            figures += trajectory(result, task, output / f"{task}_trajectory")
    pngs = [f for f in figures if f.endswith(".png")]
    if pngs:
        text += "\n" + "\n".join(f"![{name[:-4]}]({name})" for name in pngs) + "\n"
    atomic_write_text(output / "shift.json", json.dumps(result.as_dict(), indent=2, ensure_ascii=False) + "\n")
    atomic_write_text(output / "shift.md", text)
    return text


def write_persona_outputs(reports: Sequence[PersonaReport], output: Path) -> str:
    output = Path(output)
    output.mkdir(parents=True, exist_ok=True)
    text = persona_table(reports)
    atomic_write_text(output / "personas.json", json.dumps({"format": "polibench.personas", "version": 1,
                                                 "reports": [r.as_dict() for r in reports]}, indent=2) + "\n")
    atomic_write_text(output / "personas.md", text)
    return text
