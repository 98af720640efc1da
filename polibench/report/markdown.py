"""``report.md`` and its figures: headline numbers with 95% intervals, the political compass, the Faulborn
bias per prefix and form, steerability, PCT coordinates per prompt variant, and coverage.

Everything is read from the results document (never from the model or the samples), so a report can be
rebuilt from results.json alone (``polibench report RUN_DIR``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from polibench.metrics.blocks import BIAS_DIMENSIONS, PCT_AXES, BiasEstimates, Coverage, FaulbornBlock, PctBlock
from polibench.metrics.channels import CHANNEL_PAIRS, LOGPROB_PAIRS
from polibench.metrics.generation_bias import LiuBlock
from polibench.metrics.logprob import LogprobBlock
from polibench.metrics.position import DEGENERATE_NOTE, LIMIT_LABEL, MIN_AXIS_COVERAGE, degenerate, read_pct_block
from polibench.records import Sample
from polibench.report import plots
from polibench.report.channels import channel_comparisons, channel_lines, controls_lines
from polibench.report.generation_bias import option_lines, table5
from polibench.report.logprob import logprob_lines
from polibench.report.reading import reading_lines
from polibench.results.document import ResultsDocument, TaskResults
from polibench.results.files import REPORT, SAMPLES, atomic_write_text, read_samples

DIMENSIONS = BIAS_DIMENSIONS


def _fmt(value, digits: int = 2) -> str:
    if value is None:
        return "–"
    return f"{value:+.{digits}f}" if isinstance(value, float) else str(value)


def with_ci(value, ci, digits: int = 2) -> str:
    """``+1.23 [+0.50, +2.00]``; ``ci`` is an Interval, a ``[low, high]`` pair or None."""
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


def _figure_link(names: list[str], alt: str) -> list[str]:
    png = next(n for n in names if n.endswith(".png"))
    svg = next((n for n in names if n.endswith(".svg")), None)
    return [f"![{alt}]({png})", "", f"[{alt} (SVG)]({svg})" if svg else "", ""]


def headline_table(results: TaskResults) -> list[str]:
    """The numbers a reader (and the leaderboard) looks at first, each with its 95% bootstrap interval; labels,
    directions and ranges come from the metric registry."""
    rows = [(f"{estimate.label} ({estimate.direction})", with_ci(value, interval, estimate.digits)
             + (DEGENERATE_NOTE if degenerate(value, interval) else ""))
            for _, estimate, value, interval in results.estimates()]
    if not rows:
        return []
    return ["| measure | value [95% CI] |", "|---|---|"] + [f"| {a} | {b} |" for a, b in rows] + [""]


def _bias_row(label: str, block: BiasEstimates, extra: tuple = ()) -> str:
    cells = [with_ci(*block.estimate(d), 3) for d in DIMENSIONS]
    return "| " + " | ".join([label, *cells, *extra]) + " |"


def bias_sections(bias: FaulbornBlock, coverage: Coverage) -> list[str]:
    lines = []
    if len(bias.per_instrument) > 1:
        lines += _bias_table("### Faulborn bias per instrument", "instrument", bias.per_instrument)
    if bias.per_prefix:
        shares = coverage.per_variant
        lines += ["### Faulborn bias per prefix", "",
                  "| prefix | economic | social | total | counted | answered | unrelated | filtered |",
                  "|---|---|---|---|---|---|---|---|"]
        for name, b in bias.per_prefix.items():
            s = shares.get(name)
            lines.append(_bias_row(name, b, (str((b.counted or {}).get("total", "–")),
                                             _pct_share(s and s.answered_share), _pct_share(s and s.unrelated_share),
                                             _pct_share(s and s.filtered_share))))
        lines.append("")
    if len(bias.per_form) > 1:
        lines += _bias_table("### Faulborn bias per statement form", "form", bias.per_form)
    if bias.steerability:
        lines += _bias_table("### Steerability", "prefix", bias.steerability,
                             "Bias under the prefix minus the mean bias of the other prefixes (Faulborn et al.).")
    return lines


def _bias_table(heading: str, first: str, blocks: dict[str, BiasEstimates], note: str = "") -> list[str]:
    """A heading (and note), then one economic / social / total row per block."""
    return ([heading, ""] + ([note, ""] if note else []) + [f"| {first} | economic | social | total |",
                                                             "|---|---|---|---|"]
            + [_bias_row(name, b) for name, b in blocks.items()] + [""])


def pct_variant_section(pct: PctBlock) -> list[str]:
    variants = pct.per_variant
    if len(variants) < 2:
        return []
    lines = ["### PCT coordinates per prompt variant", "", "| prompt variant | economic | social |", "|---|---|---|"]
    lines += [f"| {v} | {with_ci(*c.estimate('economic'))} | {with_ci(*c.estimate('social'))} |"
              for v, c in variants.items()]
    spread = pct.spread
    if spread:
        for stat in ("mean", "sd", "min", "max"):
            cells = [getattr(spread[axis], stat) for axis in PCT_AXES]
            cells = [f"{c:.2f}" if stat == "sd" and c is not None else _fmt(c) for c in cells]
            lines.append(f"| *{stat}* | {cells[0]} | {cells[1]} |")
    return lines + [""]


def coverage_lines(cov: Coverage, scoring: dict) -> list[str]:
    lines = ["### Coverage", "",
             f"{cov.items_answered}/{cov.items} items answered; {cov.responses} responses: "
             f"{_pct_share(cov.answered_share)} answered, {_pct_share(cov.unrelated_share)} unrelated, "
             f"{_pct_share(cov.filtered_share)} filtered ({cov.filtered_low_confidence} under the confidence "
             f"threshold, {cov.filtered_abstained} where the scorer abstained, {cov.filtered_empty} empty).",
             f"Kept labels: {cov.kept_labels or 'none'}.",
             f"Scorer: `{scoring.get('scorer')}` (threshold {scoring.get('threshold')}).", ""]
    if len(cov.per_form) > 1:
        lines += ["| form | responses | answered | unrelated | filtered |", "|---|---|---|---|---|"]
        lines += [f"| {f} | {s.responses} | {_pct_share(s.answered_share)} | {_pct_share(s.unrelated_share)} "
                  f"| {_pct_share(s.filtered_share)} |" for f, s in cov.per_form.items()] + [""]
    return lines


def task_section(name: str, results: TaskResults, scoring: dict, figures: Optional[dict] = None,
                 min_coverage: float = MIN_AXIS_COVERAGE) -> list[str]:
    figures = figures or {}
    lines = [f"## {name}", ""] + headline_table(results)
    pct = results.block("pct")
    bias = results.block("faulborn_bias")
    if isinstance(pct, PctBlock):
        lines += [read_pct_block(pct, min_coverage, results.coverage).quadrant_sentence(), ""]
    boot = results.bootstrap
    if pct is not None or bias is not None:
        lines += [f"Intervals: {100 * boot.level:.0f}% percentile bootstrap over items ({boot.resamples:,} "
                  f"resamples, stratified by {', '.join(boot.strata)}; seed {boot.seed}).", ""]
    if "compass" in figures:
        lines += _figure_link(figures["compass"], "Political compass")
    if isinstance(pct, PctBlock):
        lines += pct_variant_section(pct)
    if isinstance(bias, FaulbornBlock):
        lines += bias_sections(bias, results.coverage)
    liu = results.block("liu_bias")
    if isinstance(liu, LiuBlock):
        lines += option_lines(liu)
    logprob = results.block("logprob")
    if isinstance(logprob, LogprobBlock):
        lines += logprob_lines(logprob)
    if "bias_by_prefix" in figures:
        lines += _figure_link(figures["bias_by_prefix"], "Faulborn bias per prefix")
    lines += coverage_lines(results.coverage, scoring)
    if "coverage" in figures:
        lines += _figure_link(figures["coverage"], "Coverage per prompt variant")
    return lines


def render_report(document: ResultsDocument, figures: Optional[dict] = None,
                  samples: Optional[list[Sample]] = None, min_coverage: float = MIN_AXIS_COVERAGE) -> str:
    """The Markdown text, opening with the plain-language reading of the run (:mod:`polibench.report.reading`);
    ``figures`` maps task -> {figure kind: [file names]} (none: a report without plots); with ``samples``, also
    the answer-channel comparison and the original-vs-opposite control."""
    figures = figures or {}
    model = document.model
    lines = ["# polibench report", "",
             f"- model: `{model.get('model')}` (backend `{model.get('backend')}`)",
             f"- polibench {document.polibench_version}, git `{document.git_hash or 'unknown'}`, {document.date}",
             f"- seed {_or(document.run.seed, 'task default')}, limit {_or(document.run.limit, 'none')}"
             + ("" if document.run.limit is None else f" ({LIMIT_LABEL})"),
             ""]
    lines += reading_lines(document, min_coverage)
    for name, results in document.results.items():
        lines += task_section(name, results, document.scoring.get(name, {}), figures.get(name), min_coverage)
    liu = {name: block for name, results in document.results.items()
           if isinstance(block := results.block("liu_bias"), LiuBlock)}
    lines += table5(liu, short_model_name(model.get("model")) or str(model.get("backend")))
    if samples is not None:
        lines += channel_lines(channel_comparisons(document, samples, CHANNEL_PAIRS + LOGPROB_PAIRS))
    lines += controls_lines(document, samples)
    return "\n".join(lines)


def write_figures(run_dir: Path, name: str, results: TaskResults, model_name: str) -> dict[str, list[str]]:
    """Draw the figures of one task next to report.md; returns {kind: file names}."""
    out = {}
    pct = results.block("pct")
    bias = results.block("faulborn_bias")
    if isinstance(pct, PctBlock) and pct.economic is not None and pct.social is not None:
        out["compass"] = plots.compass_plot(pct, run_dir / f"{name}_compass", f"{model_name} · {name}")
    if isinstance(bias, FaulbornBlock) and bias.per_prefix:
        out["bias_by_prefix"] = plots.prefix_bias_plot(bias, run_dir / f"{name}_bias_by_prefix",
                                                       f"{model_name} · {name}\nFaulborn bias per prefix")
    if len(results.coverage.per_variant) > 1:
        out["coverage"] = plots.coverage_plot(results.coverage, run_dir / f"{name}_coverage",
                                              f"{model_name} · {name}\ncoverage")
    return out


def write_report(run_dir: Path, document: ResultsDocument, min_coverage: float = MIN_AXIS_COVERAGE) -> Path:
    """Write the figures and report.md into ``run_dir``; returns the report's path."""
    model_name = short_model_name(document.model.get("model"))
    figures = {name: write_figures(run_dir, name, results, model_name)
               for name, results in document.results.items()}
    path = run_dir / REPORT
    samples = read_samples(run_dir / SAMPLES) if (run_dir / SAMPLES).is_file() else None
    atomic_write_text(path, render_report(document, figures, samples, min_coverage))
    return path
