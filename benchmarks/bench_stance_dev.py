"""Benchmark: the embedded scorer's recipe on the dev split (where its settings are chosen), never on test.

Trains the recipe (``polibench.scorers.stance.embedded.recipe``, with optional overrides) on the gold train split and
evaluates it on the gold dev split (gold v4: no statement and no wording shared with train; before v4 the dev split
was carved from train by statement, ``--dev-file carve``), then prints:

* macro-F1 and retained share on dev at thresholds 0.0, 0.8 and 0.9, and accuracy per response style;
* restated answers built from the held-out markers of ``polibench.scorers.stance.restated`` (markers kept out of the
  gold data: the property test's set, and the ``FRESH`` set never used for a decision) for every dev
  statement, every marker: share read correctly, share kept at 0.9 and share right among kept, per side.

Run:  python benchmarks/bench_stance_dev.py [--recipe 2] [--lr 2e-4 --epochs 5 --freeze-layers 0]   (~5 min on 2 cores)
      python benchmarks/bench_stance_dev.py --train-file OLD/train.jsonl --output DIR   (another gold version)
      python benchmarks/bench_stance_dev.py --checkpoint DIR   (no training: a kept checkpoint on the dev split; the
                                                               default trains on gold:train only, so its cached
                                                               checkpoint is one)
      python benchmarks/bench_stance_dev.py --smoke      (1 step on 40 examples: checks the script runs)
"""

from __future__ import annotations

import argparse
import dataclasses
import tempfile
import time
from pathlib import Path


def held_out_rows(scorer, statements: list[str]) -> list[str]:
    from polibench.scorers.stance.restated import AGREE_FRESH, AGREE_HELDOUT, DISAGREE_FRESH, DISAGREE_HELDOUT, restate

    lines = []
    for label, pool in (("agree", AGREE_HELDOUT), ("disagree", DISAGREE_HELDOUT), ("agree", AGREE_FRESH),
                        ("disagree", DISAGREE_FRESH)):
        name = "fresh" if pool in (AGREE_FRESH, DISAGREE_FRESH) else "held-out"
        pairs = [(s, restate(t, s)) for s in statements for t in pool]
        results = scorer.score([p[0] for p in pairs], [p[1] for p in pairs])
        right = sum(r.label == label for r in results)
        kept = [r for r in results if r.confidence >= 0.9]
        kept_right = sum(r.label == label for r in kept)
        lines.append(f"{name:>8} restated {label:<8} n={len(pairs):4d}  read correctly {right / len(pairs):6.1%}  "
                     f"kept at 0.9 {len(kept) / len(pairs):6.1%}  correct among kept "
                     f"{kept_right / max(len(kept), 1):6.1%}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--recipe", type=int, help="the embedded recipe version (default: the default's)")
    parser.add_argument("--lr", type=float, help="learning rate (default: the recipe's)")
    parser.add_argument("--epochs", type=float, help="epochs (default: the recipe's)")
    parser.add_argument("--freeze-layers", type=int, help="lowest encoder layers frozen (default: the recipe's)")
    parser.add_argument("--smoke", action="store_true", help="1 step on 40 examples, to check the script runs")
    parser.add_argument("--output", type=Path, help="keep the dev checkpoint here (default: a temporary folder)")
    parser.add_argument("--train-file", default="gold:train",
                        help="the train split (default: gold:train; e.g. an earlier gold version's train.jsonl)")
    parser.add_argument("--dev-file", default="gold:dev",
                        help="the dev split (default: gold:dev), or 'carve' for the dev split carved from the train "
                             "file by statement, as before gold v4 (split_by_statement(train, 0.2, seed=0))")
    parser.add_argument("--checkpoint", type=Path, help="do not train: evaluate this dev checkpoint (one kept with "
                                                        "--output) on this train file's dev split")
    parser.add_argument("--no-markers", action="store_true", help="skip the held-out marker rows (dev split only)")
    args = parser.parse_args()

    from polibench.scorers.stance.classifier import ClassifierScorer
    from polibench.scorers.stance.data import load_examples, split_by_statement
    from polibench.scorers.stance.embedded import minilm_path, recipe
    from polibench.scorers.stance.evaluate import evaluate_scorer, row_at
    from polibench.scorers.stance.train import train_classifier

    if args.dev_file == "carve":
        rest, dev = split_by_statement(load_examples(args.train_file), 0.2, seed=0)
    else:
        rest, dev = load_examples(args.train_file), load_examples(args.dev_file)
    settings = recipe(args.recipe) if args.recipe else recipe()
    overrides = {"learning_rate": args.lr, "epochs": args.epochs, "freeze_layers": args.freeze_layers}
    settings = dataclasses.replace(settings, **{k: v for k, v in overrides.items() if v is not None})
    if args.smoke:
        rest, dev, settings = rest[:40], dev[:40], dataclasses.replace(settings, steps=1)
    print(f"dev split: {len(rest)} train / {len(dev)} dev examples, {len({e.group for e in dev})} dev statements")
    print(f"settings: {settings}")
    with tempfile.TemporaryDirectory() as tmp:
        out = args.checkpoint or args.output or Path(tmp) / "dev-model"
        if not args.checkpoint:
            started, cpu = time.time(), time.process_time()
            train_classifier(str(minilm_path()), rest, out, settings, show_progress=False)
            print(f"trained: {time.time() - started:.0f} s wall, {time.process_time() - cpu:.0f} s CPU")
        scorer = ClassifierScorer(model=str(out))
        report, _ = evaluate_scorer(scorer, dev, show_progress=False)
        for t in (0.0, 0.8, 0.9):
            row = row_at(report, t)
            print(f"dev at {t:.1f}: macro-F1 {row['macro_f1']:.3f}  retained {row['retained_share']:6.1%}")
        for style, v in report["by_style"].items():
            print(f"  style {style:<24} n={v['n']:4d}  accuracy {v['accuracy']:.2f}")
        statements = sorted({e.statement for e in dev if e.meta.get("style") != "real_model"})
        for line in [] if args.no_markers else held_out_rows(scorer, statements[:3] if args.smoke else statements):
            print(line)


if __name__ == "__main__":
    main()
