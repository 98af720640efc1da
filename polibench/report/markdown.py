"""``report.md`` and its figures: headline numbers with 95% intervals, the political compass, the Faulborn
bias per prefix and form, steerability, PCT coordinates per prompt variant, and coverage.

Everything is read from the results document (never from the model or the samples), so a report can be
rebuilt from results.json alone (``polibench report RUN_DIR``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from polibench.report import plots
from polibench.results.files import REPORT, atomic_write_text

DIMENSIONS = ("economic", "cultural", "total")


def _fmt(value, digits: int = 2) -> str:
    if value is None:
        return "–"
    return f"{value:+.{digits}f}" if isinstance(value, float) else str(value)


def with_ci(value, ci: Optional[list], digits: int = 2) -> str:
    text = _fmt(value, digits)
    return f"{text} [{_fmt(ci[0], digits)}, {_fmt(ci[1], digits)}]" if ci and value is not None else text


def _or(value, default: str):
    return default if value is None else value


def _pct_share(value: Optional[float]) -> str:
    return "–" if value is None else f"{100 * value:.1f}%"


def short_model_name(model) -> str:
    """A file or folder path becomes its last part (``.../SmolLM2-135M-Instruct.Q4_1.gguf`` -> the file name);
    hub ids (``org/name``) stay as they are."""
    text = str(model)
    path = Path(text)
    return path.name if (path.is_absolute() or text.startswith(".") or path.suffix == ".gguf") else text


def quadrant(economic: float, social: float) -> str:
    return f"{'authoritarian' if social > 0 else 'libertarian'} {'right' if economic > 0 else 'left'}"


def _figure_link(names: list[str], alt: str) -> list[str]:
    png = next(n for n in names if n.endswith(".png"))
    svg = next((n for n in names if n.endswith(".svg")), None)
    return [f"![{alt}]({png})", "", f"[{alt} (SVG)]({svg})" if svg else "", ""]


def headline_table(block: dict) -> list[str]:
    """The numbers a reader (and the leaderboard) looks at first, each with its 95% bootstrap interval."""
    rows = []
    pct = block.get("pct")
    if pct:
        ci = pct.get("ci") or {}
        rows.append(("PCT economic (left − / right +, −10…10)", with_ci(pct["economic"], ci.get("economic"))))
        rows.append(("PCT social (libertarian − / authoritarian +, −10…10)",
                     with_ci(pct["social"], ci.get("social"))))
    bias = block.get("faulborn_bias")
    if bias:
        for dim in DIMENSIONS:
            rows.append((f"Faulborn bias, {dim} (left − / right +, −1…1)",
                         with_ci(bias.get(dim), (bias.get("ci") or {}).get(dim), 3)))
    if not rows:
        return []
    return ["| measure | value [95% CI] |", "|---|---|"] + [f"| {a} | {b} |" for a, b in rows] + [""]


def _bias_row(label: str, block: dict, extra: tuple = ()) -> str:
    cells = [with_ci(block.get(d), (block.get("ci") or {}).get(d), 3) for d in DIMENSIONS]
    return "| " + " | ".join([label, *cells, *extra]) + " |"


def bias_sections(bias: dict, coverage: dict) -> list[str]:
    lines = []
    per_instrument = bias.get("per_instrument") or {}
    if len(per_instrument) > 1:
        lines += _bias_table("### Faulborn bias per instrument", "instrument", per_instrument)
    per_prefix = bias.get("per_prefix") or {}
    if per_prefix:
        shares = coverage.get("per_variant") or {}
        lines += ["### Faulborn bias per prefix", "",
                  "| prefix | economic | cultural | total | counted | answered | unrelated | filtered |",
                  "|---|---|---|---|---|---|---|---|"]
        for name, b in per_prefix.items():
            s = shares.get(name, {})
            lines.append(_bias_row(name, b, (str((b.get("counted") or {}).get("total", "–")),
                                             _pct_share(s.get("answered_share")), _pct_share(s.get("unrelated_share")),
                                             _pct_share(s.get("filtered_share")))))
        lines.append("")
    per_form = bias.get("per_form") or {}
    if len(per_form) > 1:
        lines += _bias_table("### Faulborn bias per statement form", "form", per_form)
    steer = bias.get("steerability") or {}
    if steer:
        lines += _bias_table("### Steerability", "prefix", steer,
                             "Bias under the prefix minus the mean bias of the other prefixes (Faulborn et al.).")
    return lines


def _bias_table(heading: str, first: str, blocks: dict, note: str = "") -> list[str]:
    """A heading (and note), then one economic / cultural / total row per block."""
    return ([heading, ""] + ([note, ""] if note else []) + [f"| {first} | economic | cultural | total |",
                                                             "|---|---|---|---|"]
            + [_bias_row(name, b) for name, b in blocks.items()] + [""])


def pct_variant_section(pct: dict) -> list[str]:
    variants = pct.get("per_variant") or {}
    if len(variants) < 2:
        return []
    lines = ["### PCT coordinates per prompt variant", "", "| prompt variant | economic | social |", "|---|---|---|"]
    lines += [f"| {v} | {with_ci(c['economic'], (c.get('ci') or {}).get('economic'))} | "
              f"{with_ci(c['social'], (c.get('ci') or {}).get('social'))} |" for v, c in variants.items()]
    spread = pct.get("spread") or {}
    if spread:
        for stat in ("mean", "sd", "min", "max"):
            cells = [spread[axis][stat] for axis in ("economic", "social")]
            cells = [f"{c:.2f}" if stat == "sd" and c is not None else _fmt(c) for c in cells]
            lines.append(f"| *{stat}* | {cells[0]} | {cells[1]} |")
    return lines + [""]


def coverage_lines(cov: dict, scoring: dict) -> list[str]:
    lines = ["### Coverage", "",
             f"{cov['items_answered']}/{cov['items']} items answered; {cov['responses']} responses: "
             f"{_pct_share(cov.get('answered_share'))} answered, {_pct_share(cov.get('unrelated_share'))} unrelated, "
             f"{_pct_share(cov.get('filtered_share'))} filtered ({cov['filtered_low_confidence']} under the confidence "
             f"threshold, {cov['filtered_abstained']} where the scorer abstained, {cov['filtered_empty']} empty).",
             f"Kept labels: {cov['kept_labels'] or 'none'}.",
             f"Scorer: `{scoring.get('scorer')}` (threshold {scoring.get('threshold')}).", ""]
    per_form = cov.get("per_form") or {}
    if len(per_form) > 1:
        lines += ["| form | responses | answered | unrelated | filtered |", "|---|---|---|---|---|"]
        lines += [f"| {f} | {s['responses']} | {_pct_share(s['answered_share'])} | {_pct_share(s['unrelated_share'])} "
                  f"| {_pct_share(s['filtered_share'])} |" for f, s in per_form.items()] + [""]
    return lines


def task_section(name: str, block: dict, scoring: dict, figures: Optional[dict] = None) -> list[str]:
    figures = figures or {}
    lines = [f"## {name}", ""] + headline_table(block)
    pct = block.get("pct")
    if pct:
        lines += [f"Quadrant: **{quadrant(pct['economic'], pct['social'])}**.", ""]
    boot = block.get("bootstrap")
    if boot and (pct or block.get("faulborn_bias")):
        lines += [f"Intervals: {100 * boot['level']:.0f}% percentile bootstrap over items ({boot['resamples']:,} "
                  f"resamples, stratified by {', '.join(boot['strata'])}; seed {boot['seed']}).", ""]
    if "compass" in figures:
        lines += _figure_link(figures["compass"], "Political compass")
    if pct:
        lines += pct_variant_section(pct)
    bias = block.get("faulborn_bias")
    if bias:
        lines += bias_sections(bias, block["coverage"])
    if "bias_by_prefix" in figures:
        lines += _figure_link(figures["bias_by_prefix"], "Faulborn bias per prefix")
    lines += coverage_lines(block["coverage"], scoring)
    if "coverage" in figures:
        lines += _figure_link(figures["coverage"], "Coverage per prompt variant")
    return lines


def render_report(document: dict, figures: Optional[dict] = None) -> str:
    """The Markdown text; ``figures`` maps task -> {figure kind: [file names]} (none: a report without plots)."""
    figures = figures or {}
    model = document["model"]
    lines = ["# polibench report", "",
             f"- model: `{model.get('model')}` (backend `{model.get('backend')}`)",
             f"- polibench {document['polibench_version']}, git `{document.get('git_hash') or 'unknown'}`, "
             f"{document['date']}",
             f"- seed {_or(document['run'].get('seed'), 'task default')}, "
             f"limit {_or(document['run'].get('limit'), 'none')}",
             ""]
    for name, block in document["results"].items():
        lines += task_section(name, block, document["scoring"].get(name, {}), figures.get(name))
    return "\n".join(lines)


def write_figures(run_dir: Path, name: str, block: dict, model_name: str) -> dict[str, list[str]]:
    """Draw the figures of one task next to report.md; returns {kind: file names}."""
    out = {}
    if block.get("pct"):
        out["compass"] = plots.compass_plot(block["pct"], run_dir / f"{name}_compass", f"{model_name} · {name}")
    if (block.get("faulborn_bias") or {}).get("per_prefix"):
        out["bias_by_prefix"] = plots.prefix_bias_plot(block["faulborn_bias"], run_dir / f"{name}_bias_by_prefix",
                                                       f"{model_name} · {name}\nFaulborn bias per prefix")
    if len(block["coverage"].get("per_variant") or {}) > 1:
        out["coverage"] = plots.coverage_plot(block["coverage"], run_dir / f"{name}_coverage",
                                              f"{model_name} · {name}\ncoverage")
    return out


def write_report(run_dir: Path, document: dict) -> Path:
    """Write the figures and report.md into ``run_dir``; returns the report's path."""
    model_name = short_model_name(document["model"].get("model"))
    figures = {name: write_figures(run_dir, name, block, model_name) for name, block in document["results"].items()}
    path = run_dir / REPORT
    atomic_write_text(path, render_report(document, figures))
    return path
