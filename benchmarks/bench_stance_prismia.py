"""Benchmark (evaluation only): the stance scorer against PrismIA's judge panel on clearly partisan answers.

PrismIA's AI Political Bias Benchmark (2026; MIT licence, Copyright (c) 2026 PrismIA; swissprismia/
llm-political-bias-bench) published one-sentence answers of eight 2026 frontier models to 80 statements, each
scored by a panel of peer models from 0.0 (strongly right) to 1.0 (strongly left), ``weighted_score``.
Every statement leans ``left`` or ``right``. An answer the panel scores >= 0.75 (clearly left) *agrees* with a
left-leaning statement and *disagrees* with a right-leaning one; <= 0.25 (clearly right) the reverse; answers in
between are left out. For those answers this prints, by model and by side (agree / disagree), how often the
scorer reads the panel's side:

* ``read``: the scorer's top label is the panel's side (any confidence);
* ``kept``: share with confidence >= the filter (0.9), the answers a polibench metric would count;
* ``right among kept``: share of the kept answers whose label is the panel's side.

Goal (issue 27): right among kept >= 95 % for agreements and disagreements alike, with >= 90 % kept.
These answers are evaluation material: never train, tune or pick data with them.

Run:  python benchmarks/bench_stance_prismia.py /work/shared/external/prismia2026 [--scorer embedded]
      python benchmarks/bench_stance_prismia.py /work/shared/external/prismia2026 --smoke   (40 answers)
"""

from __future__ import annotations

import argparse
import collections
import json
from pathlib import Path

PARTISAN = 0.75
SIDES = ("agree", "disagree")


def panel_side(score: float, lean: str, partisan: float = PARTISAN) -> str | None:
    """``agree``/``disagree`` with the statement as the panel reads the answer, None when not clearly partisan.

    The panel's 1.0 is strongly left: a clearly left answer agrees with a left-leaning statement and disagrees
    with a right-leaning one."""
    if lean not in ("left", "right"):
        raise ValueError(f"statement lean must be left or right, got {lean!r}")
    if score >= partisan:
        answer = "left"
    elif score <= 1 - partisan:
        answer = "right"
    else:
        return None
    return "agree" if answer == lean else "disagree"


def load_partisan(source: Path, partisan: float = PARTISAN) -> list[dict]:
    """One row per clearly partisan answer: month, model, statement, response, side (the panel's reading)."""
    statements = {s["id"]: s for s in json.loads((source / "statements.json").read_text(encoding="utf-8"))}
    rows = []
    for month in sorted(p for p in source.iterdir() if (p / "likert_raw.json").is_file()):
        scores = {(s["statement_id"], s["model_id"]): s["weighted_score"]
                  for s in json.loads((month / "likert_scores.json").read_text(encoding="utf-8"))}
        for answer in json.loads((month / "likert_raw.json").read_text(encoding="utf-8")):
            key = (answer["statement_id"], answer["model_id"])
            if key not in scores or scores[key] is None:
                continue
            statement = statements[answer["statement_id"]]
            side = panel_side(float(scores[key]), statement["lean"], partisan)
            if side is None:
                continue
            rows.append({"month": month.name, "model": answer["model_id"], "statement": statement["text"],
                         "response": answer["response_text"] or "", "side": side})
    return rows


def tally(rows: list[dict], threshold: float) -> dict:
    out = {"n": len(rows), "read": sum(r["label"] == r["side"] for r in rows)}
    kept = [r for r in rows if r["confidence"] >= threshold]
    out["kept"] = len(kept)
    out["kept_right"] = sum(r["label"] == r["side"] for r in kept)
    out["labels"] = dict(collections.Counter(r["label"] for r in rows if r["label"] != r["side"]))
    return out


def cell(t: dict) -> str:
    if not t["n"]:
        return "— | — | —"
    right = f"{t['kept_right'] / t['kept']:.1%}" if t["kept"] else "—"
    return f"{t['read']}/{t['n']} ({t['read'] / t['n']:.1%}) | {t['kept'] / t['n']:.1%} | {right}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path, help="the prismia2026 folder (statements.json, 2026-MM/)")
    parser.add_argument("--scorer", default="embedded", help="stance scorer (default: embedded)")
    parser.add_argument("--scorer-args", help="k=v,... for the scorer, e.g. model=CHECKPOINT with --scorer classifier")
    parser.add_argument("--threshold", type=float, default=0.9, help="confidence filter (default 0.9)")
    parser.add_argument("--partisan", type=float, default=PARTISAN, help="panel score cut (default 0.75)")
    parser.add_argument("--smoke", action="store_true", help="only the first 40 partisan answers")
    args = parser.parse_args()

    from polibench.cli.args import parse_kv
    from polibench.scoring.base import LABELS
    from polibench.scoring.registry import create_scorer

    rows = load_partisan(args.source, args.partisan)
    if args.smoke:
        rows = rows[:40]
    scorer = create_scorer(args.scorer, LABELS, **parse_kv(args.scorer_args, "--scorer-args"))
    results = scorer.score([r["statement"] for r in rows], [r["response"] for r in rows])
    for r, res in zip(rows, results):
        r["label"], r["confidence"] = res.label, res.confidence
    print(f"PrismIA AI Political Bias Benchmark 2026 (MIT, Copyright (c) 2026 PrismIA): {len(rows)} answers the "
          f"panel scores >= {args.partisan} or <= {1 - args.partisan:.2f}; scorer {args.scorer} "
          f"{json.dumps({k: v for k, v in scorer.describe().items() if k != 'labels'})}; filter {args.threshold}")
    print()
    print("| model | agreements read | kept | right among kept | disagreements read | kept | right among kept |")
    print("|---|---|---|---|---|---|---|")
    models = sorted({r["model"] for r in rows})
    for model in models + ["all"]:
        group = [r for r in rows if model in ("all", r["model"])]
        cells = [cell(tally([r for r in group if r["side"] == side], args.threshold)) for side in SIDES]
        name = f"**{model}**" if model == "all" else model
        print(f"| {name} | {cells[0]} | {cells[1]} |")
    print()
    for side in SIDES:
        t = tally([r for r in rows if r["side"] == side], args.threshold)
        print(f"{side}: misread as {t['labels']}")


if __name__ == "__main__":
    main()
