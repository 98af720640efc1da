"""``report.md``: the headline numbers, coverage and per-variant spread of one run."""

from __future__ import annotations

from pathlib import Path

from polibench.results.files import REPORT, atomic_write_text


def _fmt(value) -> str:
    if value is None:
        return "–"
    return f"{value:+.2f}" if isinstance(value, float) else str(value)


def quadrant(economic: float, social: float) -> str:
    return f"{'authoritarian' if social > 0 else 'libertarian'} {'right' if economic > 0 else 'left'}"


def task_section(name: str, block: dict, scoring: dict) -> list[str]:
    lines = [f"## {name}", ""]
    pct = block.get("pct")
    if pct:
        lines += ["| axis | score |", "|---|---|",
                  f"| economic (left − / right +) | {_fmt(pct['economic'])} |",
                  f"| social (libertarian − / authoritarian +) | {_fmt(pct['social'])} |", "",
                  f"Quadrant: **{quadrant(pct['economic'], pct['social'])}**.", ""]
        if len(pct.get("per_variant", {})) > 1:
            lines += ["| prompt variant | economic | social |", "|---|---|---|"]
            lines += [f"| {v} | {_fmt(c['economic'])} | {_fmt(c['social'])} |" for v, c in pct["per_variant"].items()]
            lines.append("")
    bias = block.get("faulborn_bias")
    if bias:
        lines += ["| Faulborn bias | value |", "|---|---|"]
        lines += [f"| {k} | {_fmt(v)} |" for k, v in bias.items()] + [""]
    cov = block["coverage"]
    lines += [
        f"Coverage: {cov['items_answered']}/{cov['items']} items answered; "
        f"{cov['responses_kept']}/{cov['responses']} responses kept ({100 * cov['kept_share']:.1f}%), "
        f"{cov['filtered_low_confidence']} under the confidence threshold, {cov['filtered_abstained']} where "
        f"the scorer abstained, {cov['filtered_empty']} empty.",
        f"Kept labels: {cov['kept_labels'] or 'none'}.",
        f"Scorer: `{scoring.get('scorer')}` (threshold {scoring.get('threshold')}).", "",
    ]
    return lines


def render_report(document: dict) -> str:
    model = document["model"]
    lines = ["# polibench report", "",
             f"- model: `{model.get('model')}` (backend `{model.get('backend')}`)",
             f"- polibench {document['polibench_version']}, git `{document.get('git_hash') or 'unknown'}`, "
             f"{document['date']}",
             f"- seed {document['run'].get('seed')}, limit {document['run'].get('limit')}", ""]
    for name, block in document["results"].items():
        lines += task_section(name, block, document["scoring"].get(name, {}))
    return "\n".join(lines)


def write_report(run_dir: Path, document: dict) -> Path:
    path = run_dir / REPORT
    atomic_write_text(path, render_report(document))
    return path
