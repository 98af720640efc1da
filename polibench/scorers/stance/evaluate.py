"""Measure a stance scorer against labelled examples, as Faulborn et al. validated theirs.

For each confidence threshold t in 0.0, 0.1, ..., 0.9 an example is *retained* when the scorer gave it a
label (did not abstain) with confidence >= t; precision, recall and F1 per class and their macro average
are computed over the retained examples only, and the retained share is reported next to them. The
trade-off between the two (Faulborn et al.'s Figure 3) is what a threshold buys. Macro-F1 averages the
classes present in the gold labels; a class with no retained prediction or example scores 0.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Callable, Optional, Sequence

from polibench.kit.files import atomic_write_text
from polibench.scorers.stance.data import StanceExample
from polibench.scoring.base import LABELS, StanceResult, StanceScorer

THRESHOLDS = tuple(round(0.1 * i, 1) for i in range(10))


def classification_table(gold: Sequence[str], predicted: Sequence[str], labels: Sequence[str]) -> dict:
    """Per-class precision/recall/F1/support, macro averages and accuracy (scikit-learn)."""
    from sklearn.metrics import accuracy_score, precision_recall_fscore_support

    if not gold:
        return {"per_class": {label: {"precision": 0.0, "recall": 0.0, "f1": 0.0, "support": 0} for label in labels},
                "macro_precision": 0.0, "macro_recall": 0.0, "macro_f1": 0.0, "accuracy": 0.0}
    p, r, f, s = precision_recall_fscore_support(gold, predicted, labels=list(labels), zero_division=0)
    mp, mr, mf, _ = precision_recall_fscore_support(gold, predicted, labels=list(labels), average="macro",
                                                    zero_division=0)
    return {
        "per_class": {label: {"precision": round(float(p[i]), 4), "recall": round(float(r[i]), 4),
                              "f1": round(float(f[i]), 4), "support": int(s[i])} for i, label in enumerate(labels)},
        "macro_precision": round(float(mp), 4), "macro_recall": round(float(mr), 4), "macro_f1": round(float(mf), 4),
        "accuracy": round(float(accuracy_score(gold, predicted)), 4),
    }


def threshold_rows(examples: Sequence[StanceExample], results: Sequence[StanceResult],
                   thresholds: Sequence[float] = THRESHOLDS) -> list[dict]:
    labels = [label for label in LABELS if any(e.label == label for e in examples)]
    rows = []
    for t in thresholds:
        kept = [(e.label, r.label) for e, r in zip(examples, results)
                if r.label is not None and r.confidence >= t - 1e-9]
        table = classification_table([g for g, _ in kept], [p for _, p in kept], labels)
        rows.append({"threshold": t, "retained": len(kept), "retained_share": round(len(kept) / len(examples), 4),
                     **table})
    return rows


def evaluate_scorer(scorer: StanceScorer, examples: Sequence[StanceExample], *, data: str = "",
                    show_progress: bool = True, thresholds: Sequence[float] = THRESHOLDS) -> tuple[dict, list[dict]]:
    """``(report, predictions)``: the report is what ``stance eval`` prints and writes as JSON."""
    from tqdm.auto import tqdm

    started = time.time()
    with tqdm(total=len(examples), desc=f"scoring ({scorer.name})", unit="ex", disable=not show_progress) as bar:
        results = scorer.score([e.statement for e in examples], [e.response for e in examples], progress=bar.update)
    seconds = time.time() - started
    predictions = [{"statement": e.statement, "response": e.response, "label": e.label, "predicted": r.label,
                    "confidence": round(r.confidence, 6), "probs": {k: round(v, 6) for k, v in r.probs.items()},
                    **{k: v for k, v in e.meta.items() if k in ("id", "style", "source", "statement_id")}}
                   for e, r in zip(examples, results)]
    report = {
        "scorer": scorer.describe(), "data": data, "n": len(examples),
        "gold_counts": {label: sum(e.label == label for e in examples) for label in LABELS},
        "abstained": sum(r.label is None for r in results),
        "seconds": round(seconds, 2),
        "thresholds": threshold_rows(examples, results, thresholds),
        "by_style": _by_style(examples, results),
    }
    return report, predictions


def _by_style(examples: Sequence[StanceExample], results: Sequence[StanceResult]) -> dict:
    """Accuracy (abstentions count as wrong) per ``style`` field, when the data has one."""
    styles: dict[str, list[bool]] = {}
    for e, r in zip(examples, results):
        if "style" in e.meta:
            styles.setdefault(str(e.meta["style"]), []).append(r.label == e.label)
    return {s: {"n": len(v), "accuracy": round(sum(v) / len(v), 4)} for s, v in sorted(styles.items())}


def row_at(report: dict, threshold: float) -> Optional[dict]:
    return next((row for row in report["thresholds"] if abs(row["threshold"] - threshold) < 1e-9), None)


def class_table_lines(title: str, table: dict) -> list[str]:
    """A classification table (:func:`classification_table`) as text: per class, then the macro row."""
    lines = [f"  {title:<10} {'precision':>9} {'recall':>7} {'F1':>6} {'support':>8}"]
    for label, c in table["per_class"].items():
        lines.append(f"  {label:<10} {c['precision']:>9.3f} {c['recall']:>7.3f} {c['f1']:>6.3f} {c['support']:>8}")
    lines.append(f"  {'macro':<10} {table['macro_precision']:>9.3f} {table['macro_recall']:>7.3f} "
                 f"{table['macro_f1']:>6.3f}   accuracy {table['accuracy']:.3f}")
    return lines


def report_head(report: dict, detail_thresholds: Sequence[float], unit: str,
                tables: Callable[[dict], list[str]]) -> list[str]:
    """The first lines of an evaluation report: what was scored (``unit``: "examples", "responses"), then at each
    detail threshold the retained count and ``tables(row)``, the row's per-class tables."""
    lines = [f"scorer {report['scorer'].get('scorer')} on {report['data'] or 'data'}: {report['n']} {unit}, "
             f"{report['abstained']} abstained, {report['seconds']:.1f} s"]
    for t in detail_thresholds:
        row = row_at(report, t)
        if row is None:
            continue
        lines += ["", f"confidence >= {t:.1f}: {row['retained']}/{report['n']} retained "
                      f"({100 * row['retained_share']:.1f}%)"]
        lines += tables(row)
    return lines


def format_report(report: dict, detail_thresholds: Sequence[float] = (0.0, 0.9)) -> str:
    """Plain-text tables: per-class figures at the detail thresholds, then the threshold sweep."""
    lines = report_head(report, detail_thresholds, "examples", lambda row: class_table_lines("label", row))
    lines += ["", f"  {'threshold':>9} {'retained':>9} {'share':>7} {'macro-F1':>9} {'accuracy':>9}"]
    for row in report["thresholds"]:
        lines.append(f"  {row['threshold']:>9.1f} {row['retained']:>9} {row['retained_share']:>7.3f} "
                     f"{row['macro_f1']:>9.3f} {row['accuracy']:>9.3f}")
    return "\n".join(lines)


def write_outputs(report: dict, predictions: list[dict], output: Path) -> list[Path]:
    """``eval.json``, ``predictions.jsonl`` and the threshold plot (PNG and SVG) in ``output``."""
    from polibench.scorers.stance.plot import plot_thresholds

    output = Path(output)
    output.mkdir(parents=True, exist_ok=True)
    paths = [output / "eval.json", output / "predictions.jsonl"]
    atomic_write_text(paths[0], json.dumps(report, indent=2) + "\n")
    atomic_write_text(paths[1], "".join(json.dumps(p, ensure_ascii=False) + "\n" for p in predictions))
    return paths + plot_thresholds(report, output / "thresholds")
