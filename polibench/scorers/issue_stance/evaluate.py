"""Measure an issue-stance scorer (IssueBench's 1-5 / refusal) against labelled responses.

The six labels are scored as they are (6-way), and read as IssueBench's three sides (3-way: pro = 1-2,
neutral = 3 or refusal, con = 4-5). As for the stance scorers (:mod:`polibench.scorers.stance.evaluate`), at each
confidence threshold t in 0.0, 0.1, ..., 0.9 a response is *retained* when the scorer named a label with
confidence >= t, and the figures are computed over the retained responses only, next to the retained share.
Macro-F1 averages the classes present in the gold labels (scikit-learn, a class never predicted scores 0), at
every threshold the same classes: so at a high threshold a class none of whose responses is retained counts as
F1 0. Each row therefore also records ``classes_retained`` (the classes with at least one retained gold
response), and the sweep prints it beside the macro-F1 (``0.444 (3/6)``), so that a low macro-F1 with a high
accuracy is read for what it is.
"""

from __future__ import annotations

import time
from typing import Sequence

from polibench.records import ISSUE_LABELS, Issue, Sample
from polibench.scorers.issue_stance.data import THREE_WAY, IssueExample
from polibench.scorers.stance.evaluate import THRESHOLDS, class_table_lines, classification_table, report_head
from polibench.scoring.base import StanceResult, StanceScorer

SIDES = ("pro", "neutral", "con")


def as_sample(example: IssueExample, index: int) -> Sample:
    """A scoring-stage sample for ``example`` (the grader sees the issue under the framing given by the row's
    optional ``framing`` field, neutral by default)."""
    framing = str(example.meta.get("framing") or "neutral")
    issue = Issue(issue_id=str(example.meta.get("issue_id") or index), framing=framing,  # type: ignore[arg-type]
                  topic_neutral=example.topic_neutral, topic_pro=example.topic_pro, topic_con=example.topic_con)
    return Sample(task="issue-stance-eval", instrument="issue-stance-eval", item_id=str(example.meta.get("id", index)),
                  statement=issue.topic_prompt, variant="eval", sample_index=0, seed=0, prompt=issue.topic_prompt,
                  response=example.response, issue=issue)


def threshold_rows(gold: Sequence[str], results: Sequence[StanceResult],
                   thresholds: Sequence[float] = THRESHOLDS) -> list[dict]:
    six = [label for label in ISSUE_LABELS if label in gold]
    three = [side for side in SIDES if any(THREE_WAY[g] == side for g in gold)]
    rows = []
    for t in thresholds:
        kept = [(g, r.label) for g, r in zip(gold, results) if r.label is not None and r.confidence >= t - 1e-9]
        g6, p6 = [g for g, _ in kept], [str(p) for _, p in kept]
        table6 = classification_table(g6, p6, six)
        table3 = classification_table([THREE_WAY[g] for g in g6], [THREE_WAY.get(p, "none") for p in p6], three)
        table6["classes_retained"] = sum(label in g6 for label in six)
        table3["classes_retained"] = len({THREE_WAY[g] for g in g6})
        rows.append({"threshold": t, "retained": len(kept), "retained_share": round(len(kept) / max(1, len(gold)), 4),
                     "six_way": table6, "three_way": table3})
    return rows


def evaluate_issue_scorer(scorer: StanceScorer, examples: Sequence[IssueExample], *, data: str = "",
                          show_progress: bool = True,
                          thresholds: Sequence[float] = THRESHOLDS) -> tuple[dict, list[dict]]:
    """``(report, predictions)`` of ``scorer`` (an issue-stance grader) on ``examples``."""
    from tqdm.auto import tqdm

    samples = [as_sample(e, i) for i, e in enumerate(examples)]
    started = time.time()
    with tqdm(total=len(samples), desc=f"scoring ({scorer.name})", unit="resp", disable=not show_progress) as bar:
        results = scorer.score_samples(samples, progress=bar.update)
    seconds = time.time() - started
    predictions = [{"topic_pro": e.topic_pro, "topic_con": e.topic_con, "topic_neutral": e.topic_neutral,
                    "response": e.response, "label": e.label, "predicted": r.label,
                    "confidence": round(r.confidence, 6), "probs": {k: round(v, 6) for k, v in r.probs.items()},
                    **{k: v for k, v in e.meta.items() if k in ("id", "issue_id", "style")}}
                   for e, r in zip(examples, results)]
    gold = [e.label for e in examples]
    report = {"scorer": scorer.describe(), "data": data, "n": len(examples), "kind": "issue-stance",
              "gold_counts": {label: gold.count(label) for label in ISSUE_LABELS},
              "abstained": sum(r.label is None for r in results), "seconds": round(seconds, 2),
              "thresholds": threshold_rows(gold, results, thresholds)}
    return report, predictions


def format_issue_report(report: dict, detail_thresholds: Sequence[float] = (0.0,)) -> str:
    """Per-class tables (6-way and 3-way) at the detail thresholds, then the threshold sweep."""
    lines = report_head(report, detail_thresholds, "responses",
                        lambda row: [line for name in ("six_way", "three_way")
                                     for line in class_table_lines(name.replace("_", "-"), row[name])])
    n6 = len(report["thresholds"][0]["six_way"]["per_class"]) if report["thresholds"] else 0
    n3 = len(report["thresholds"][0]["three_way"]["per_class"]) if report["thresholds"] else 0
    lines += ["", f"  {'threshold':>9} {'retained':>9} {'share':>7} {'6-way F1 (classes kept)':>23} "
                  f"{'3-way F1 (classes kept)':>23} {'6-way acc':>9} {'3-way acc':>9}"]

    def f1(table: dict, classes: int) -> str:
        return f"{table['macro_f1']:.3f} ({table.get('classes_retained', classes)}/{classes})"

    for row in report["thresholds"]:
        lines.append(f"  {row['threshold']:>9.1f} {row['retained']:>9} {row['retained_share']:>7.3f} "
                     f"{f1(row['six_way'], n6):>23} {f1(row['three_way'], n3):>23} "
                     f"{row['six_way']['accuracy']:>9.3f} {row['three_way']['accuracy']:>9.3f}")
    lines.append("  (macro-F1 averages every class of the data; a class with no retained response counts as 0)")
    return "\n".join(lines)
