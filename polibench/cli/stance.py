"""``polibench stance train|eval|default``: fine-tune a stance classifier, validate any scorer on labelled data."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from polibench.cli.args import add_command_group, parse_kv, probability, split_names
from polibench.cli.flags import keep_old_spellings


def add_parser(sub) -> None:
    stance_sub = add_command_group(
        sub, "stance", help="train and validate stance scorers",
        description="Fine-tune a 4-label stance classifier (train), measure a scorer on labelled (statement, "
                    "response, label) JSONL (eval), or build the offline default.")

    t = stance_sub.add_parser("train", help="fine-tune a 4-label stance classifier with transformers' Trainer",
                              description="Defaults follow Faulborn et al.: AdamW, lr 2e-5, weight decay 0.2, "
                                          "batch 4, linear warm-up over 2/7 of training, ceil(5.3 * n / batch) "
                                          "steps (docs/stance.md).")
    t.add_argument("--model", required=True, help="hub id or folder of the model to fine-tune")
    t.add_argument("--train", required=True, help="JSONL with statement, response, label (or gold:train)")
    t.add_argument("--eval", help="JSONL to evaluate the trained model on (e.g. a dev split)")
    t.add_argument("--output", metavar="DIR", required=True,
                   help="folder for the checkpoint (must not exist or be empty)")
    t.add_argument("--steps", type=int, help="training steps (default: the scaling rule)")
    t.add_argument("--epochs", type=float, help="passes over the data when --steps is not given (default 5.3)")
    t.add_argument("--lr", type=float, help="learning rate (default 2e-5)")
    t.add_argument("--weight-decay", type=float, help="AdamW weight decay (default 0.2)")
    t.add_argument("--batch-size", type=int, help="examples per step (default 4)")
    t.add_argument("--warmup-ratio", type=float, help="warm-up share of the steps (default 2/7, Faulborn's 500/1750)")
    t.add_argument("--max-length", type=int, help="tokens per (statement, response) pair (default 256)")
    t.add_argument("--freeze-embeddings", action="store_true", help="do not train the input embeddings")
    t.add_argument("--freeze-layers", type=int, help="also freeze the embedding block and the lowest N layers")
    t.add_argument("--seed", type=int, help="random seed (default 1234)")
    t.add_argument("--precision", choices=("fp32", "fp64"),
                   help="training arithmetic (default fp32); fp64 makes the weights all but independent of the "
                        "machine's rounding and always trains on the CPU (the embedded default's recipe; "
                        "docs/stance.md)")
    t.add_argument("--threads", type=int, help="torch threads while training (default: the process's); fixed, the "
                                               "weights do not depend on the machine's core count")
    t.add_argument("--no-progress", action="store_true", help="hide progress bars")
    keep_old_spellings(t, {"--base": "--model", "--warmup": "--warmup-ratio"})
    t.set_defaults(handler=train_command)

    e = stance_sub.add_parser("eval", help="per-class P/R/F1 and retention at confidence thresholds 0.0 ... 0.9",
                              description="Score labelled (statement, response, label) JSONL with a scorer and "
                                          "print per-class precision/recall/F1, macro-F1 and the share of examples "
                                          "retained at confidence thresholds 0.0, 0.1 ... 0.9.")
    e.add_argument("--scorer", required=True, help="scorer name (see `polibench list`)")
    e.add_argument("--model", help="the scorer's model (shorthand for --scorer-args model=...)")
    e.add_argument("--scorer-args", help="scorer options as k=v,k=v")
    e.add_argument("--labels", default="agree,disagree,neutral,unrelated", help="labels the scorer may return")
    e.add_argument("--data", required=True,
                   help="JSONL with statement, response, label (gold:test = the gold test split); for an "
                        "issue-stance scorer (issue, issue_judge) rows of topic_pro, topic_con, topic_neutral, "
                        "response, label (1-5 or refusal; gold:dev / gold:test = its gold splits)")
    e.add_argument("--limit", type=int, help="only the first N examples")
    e.add_argument("--output", metavar="DIR", help="folder for eval.json, predictions.jsonl, thresholds.png/.svg "
                                    "(default runs/stance-eval/<scorer>-<data>)")
    e.add_argument("--threshold", type=probability, default=0.9, help="threshold of the second per-class table (0.9)")
    e.add_argument("--no-progress", action="store_true", help="hide progress bars")
    e.set_defaults(handler=eval_command)

    d = stance_sub.add_parser("default", help="train (once) and show the offline default stance scorer")
    d.add_argument("--no-progress", action="store_true", help="hide progress bars")
    d.set_defaults(handler=default_command)


def _settings(args: argparse.Namespace):
    from polibench.scorers.stance.train import TrainSettings

    overrides = {"steps": args.steps, "epochs": args.epochs, "learning_rate": args.lr,
                 "weight_decay": args.weight_decay, "batch_size": args.batch_size, "warmup_fraction": args.warmup_ratio,
                 "max_length": args.max_length, "seed": args.seed,
                 "freeze_layers": args.freeze_layers, "precision": args.precision, "threads": args.threads}
    settings = {k: v for k, v in overrides.items() if v is not None}
    if args.freeze_embeddings:
        settings["freeze_embeddings"] = True
    return TrainSettings(**settings)


def train_command(args: argparse.Namespace) -> int:
    from polibench.errors import PolibenchError
    from polibench.scorers.stance.data import load_examples
    from polibench.scorers.stance.train import train_classifier

    settings = _settings(args)
    train = load_examples(args.train)
    evaluation = load_examples(args.eval) if args.eval else None
    output = Path(args.output)
    if output.exists() and (not output.is_dir() or any(output.iterdir())):
        raise PolibenchError(f"--output {output} already exists and is not an empty folder")
    steps = settings.total_steps(len(train))
    print(f"polibench: fine-tuning {args.model} on {len(train)} examples: {steps} steps of {settings.batch_size}, "
          f"lr {settings.learning_rate:g}, weight decay {settings.weight_decay:g}, "
          f"{settings.warmup_steps(len(train))} warm-up steps, seed {settings.seed}, {settings.precision}"
          + (f", {settings.threads} threads" if settings.threads else ""), file=sys.stderr)
    train_classifier(args.model, train, output, settings, show_progress=not args.no_progress)
    print(f"wrote {output}")
    if evaluation is not None:
        _evaluate_checkpoint(output, args.eval, evaluation, not args.no_progress)
    return 0


def _evaluate_checkpoint(checkpoint: Path, data_name: str, examples, show_progress: bool) -> None:
    from polibench.scorers.stance.classifier import ClassifierScorer
    from polibench.scorers.stance.evaluate import evaluate_scorer, format_report, write_outputs

    scorer = ClassifierScorer(model=str(checkpoint))
    report, predictions = evaluate_scorer(scorer, examples, data=str(data_name), show_progress=show_progress)
    print(format_report(report))
    write_outputs(report, predictions, checkpoint / "eval")
    print(f"wrote {checkpoint / 'eval'}/eval.json, predictions.jsonl, thresholds.png/.svg")


def default_eval_dir(scorer: str, data: str) -> Path:
    """``runs/stance-eval/<scorer>-<data>``, the data named by its split (``gold-test``) or file stem."""
    import re

    name = data.replace(":", "-") if data.startswith("gold:") else Path(data).stem
    return Path("runs") / "stance-eval" / re.sub(r"[^A-Za-z0-9._-]+", "-", f"{scorer}-{name}")


def eval_command(args: argparse.Namespace) -> int:
    from polibench.errors import PolibenchError
    from polibench.scorers.stance.data import load_examples
    from polibench.scorers.stance.evaluate import THRESHOLDS, evaluate_scorer, format_report, write_outputs
    from polibench.scoring.registry import create_scorer, reads

    if args.limit is not None and args.limit < 1:
        raise PolibenchError(f"--limit must be at least 1 (got {args.limit})")
    if not 0.0 <= args.threshold <= 1.0:
        raise PolibenchError(f"--threshold must be in [0, 1] (got {args.threshold})")
    scorer_args = parse_kv(args.scorer_args, "--scorer-args")
    if args.model:
        scorer_args["model"] = args.model
    if reads(args.scorer) == "issue_stance":
        return _issue_eval(args, scorer_args)
    examples = load_examples(args.data)[:args.limit]
    scorer = create_scorer(args.scorer, split_names(args.labels), **scorer_args)
    thresholds = sorted(set(THRESHOLDS) | {args.threshold})
    report, predictions = evaluate_scorer(scorer, examples, data=str(args.data), show_progress=not args.no_progress,
                                          thresholds=thresholds)
    print(format_report(report, detail_thresholds=sorted({0.0, args.threshold})))
    output = Path(args.output) if args.output else default_eval_dir(args.scorer, args.data)
    paths = write_outputs(report, predictions, output)
    print("wrote " + ", ".join(str(p) for p in paths))
    return 0


def _issue_eval(args: argparse.Namespace, scorer_args: dict) -> int:
    """``stance eval`` of an issue-stance grader (``issue``, ``issue_judge``) on rows of topic_pro, topic_con,
    topic_neutral, response and label (1-5 or refusal): 6-way and 3-way macro-F1 at each confidence threshold."""
    import json

    from polibench.kit.files import atomic_write_text
    from polibench.scorers.issue_stance.data import load_issue_examples
    from polibench.scorers.issue_stance.evaluate import evaluate_issue_scorer, format_issue_report
    from polibench.scorers.stance.evaluate import THRESHOLDS
    from polibench.scoring.registry import create_scorer

    examples = load_issue_examples(args.data)[:args.limit]
    scorer = create_scorer(args.scorer, ("agree", "disagree"), **scorer_args)
    scorer.preflight()
    thresholds = sorted(set(THRESHOLDS) | {args.threshold})
    report, predictions = evaluate_issue_scorer(scorer, examples, data=str(args.data),
                                                show_progress=not args.no_progress, thresholds=thresholds)
    print(format_issue_report(report, detail_thresholds=sorted({0.0, args.threshold})))
    output = Path(args.output) if args.output else default_eval_dir(args.scorer, args.data)
    output.mkdir(parents=True, exist_ok=True)
    paths = [output / "eval.json", output / "predictions.jsonl"]
    atomic_write_text(paths[0], json.dumps(report, indent=2) + "\n")
    atomic_write_text(paths[1], "".join(json.dumps(p, ensure_ascii=False) + "\n" for p in predictions))
    print("wrote " + ", ".join(str(p) for p in paths))
    return 0


def default_command(args: argparse.Namespace) -> int:
    from polibench.scorers.stance.embedded import EmbeddedStanceScorer, ensure_default_checkpoint
    from polibench.scorers.stance.train import read_metadata
    from polibench.scoring.fingerprint import Reading, describe

    path = ensure_default_checkpoint(show_progress=not args.no_progress)
    meta = read_metadata(path)
    print(f"offline default stance scorer: {path}")
    print(f"  trained on {meta.get('n_train')} gold examples in {meta.get('train_seconds')} s, "
          f"{meta.get('steps')} steps, data sha256 {str(meta.get('train_sha256'))[:12]}")
    found = EmbeddedStanceScorer(show_progress=False).fingerprint()
    reading = Reading("embedded", found)
    print(f"  fingerprint {describe(found)}: "
          + ("the reference scorer's (the one that read the shipped leaderboard entries)" if reading.is_reference
             else reading.why_not_reference().replace("read by embedded ", "")))
    return 0
