"""``polibench fairness data|train|eval|compare|submit``: downstream fairness of fine-tuned classifiers
(Feng et al.)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from polibench.cli.args import add_command_group, split_names
from polibench.cli.flags import keep_old_spellings

DEFAULT_RUNS = "runs/fairness"
DEFAULT_FAIRNESS_ENTRIES = "leaderboard/fairness"


def add_parser(sub) -> None:
    fsub = add_command_group(sub, "fairness", help="downstream fairness: hate speech / misinformation per group",
                             description="Fine-tune classifiers on hate-speech and misinformation tasks and compare "
                                         "them per targeted group, news source and party (Feng et al. 2023; "
                                         "docs/fairness.md).")

    d = fsub.add_parser("data", help="prepare a task's data (download + verify, or a local --path)",
                        description="Read, de-duplicate and split a fairness task's data and cache it. Without "
                                    "--task, list the fairness tasks.")
    d.add_argument("--task", help="fairness task name or YAML file")
    d.add_argument("--path", help="local copy of the data (a file; for LIAR the folder with the .tsv files)")
    _common(d)
    d.set_defaults(handler=data_command)

    t = fsub.add_parser("train", help="fine-tune a classifier per seed; writes test-set probabilities",
                        description="Fine-tune MODEL on TASK once per seed with RAdam (Feng et al.), other "
                                    "settings from the task file unless given. Runs under torchrun / accelerate "
                                    "launch unchanged (use `python -m polibench fairness train ...`).")
    t.add_argument("--model", required=True, help="hub id or folder of the model to fine-tune")
    t.add_argument("--task", required=True, help="fairness task name or YAML file")
    t.add_argument("--seeds", default="1", help="comma-separated seeds, one run each (Feng et al.: 5 runs)")
    t.add_argument("--model-id", help="the model's name in run folders and results (default: from --model)")
    t.add_argument("--revision", help="model revision (hub branch, tag or commit)")
    t.add_argument("--output", metavar="DIR", default=DEFAULT_RUNS, help=f"runs root (default {DEFAULT_RUNS})")
    t.add_argument("--epochs", type=float)
    t.add_argument("--lr", type=float, help="learning rate")
    t.add_argument("--batch-size", type=int, help="per-device training batch size")
    t.add_argument("--eval-batch-size", type=int)
    t.add_argument("--max-length", type=int, help="tokens per text")
    t.add_argument("--weight-decay", type=float)
    t.add_argument("--warmup-ratio", type=float)
    t.add_argument("--grad-accum", type=int, help="gradient accumulation steps")
    t.add_argument("--precision", choices=("fp32", "bf16", "fp16"), help="training precision (default fp32)")
    t.add_argument("--limit-train", type=int, help="train on a seeded sample of N items (smoke tests)")
    t.add_argument("--save-model", action="store_true", help="also keep the fine-tuned checkpoint")
    t.add_argument("--force", action="store_true", help="redo seeds that are already complete")
    _common(t)
    keep_old_spellings(t, {"--name": "--model-id", "--output-dir": "--output", "--overwrite": "--force"})
    t.set_defaults(handler=train_command)

    e = fsub.add_parser("eval", help="per-group metrics, gaps, AUCs, CIs, t-tests, ensembles -> JSON",
                        description="Evaluate every run under RUN_DIR (seed folders or folders above them).")
    e.add_argument("run_dirs", nargs="+", metavar="RUN_DIR")
    e.add_argument("--reference", help="model name to t-test the others against (Feng et al.: the base model)")
    e.add_argument("--ensemble", action="append", default=[], metavar="[NAME=]A,B,C",
                   help="average the class probabilities of these models (repeatable)")
    e.add_argument("--bootstrap", type=int, default=1000, help="bootstrap resamples (0 = no intervals)")
    e.add_argument("--ci", type=float, default=0.95, help="interval level (default 0.95)")
    e.add_argument("--alpha", type=float, default=0.05, help="significance level of the t-tests")
    e.add_argument("--seed", type=int, default=0, help="seed of the bootstrap resamples (default 0)")
    e.add_argument("--output", metavar="FILE", default="fairness.json", help="evaluation JSON (default fairness.json)")
    e.add_argument("--markdown", help="also write the printed tables to this file")
    e.add_argument("--no-progress", action="store_true", help="hide progress messages")
    keep_old_spellings(e, {"--bootstrap-seed": "--seed"})
    e.set_defaults(handler=eval_command)

    c = fsub.add_parser("compare", help="per-group tables and heatmaps across models (Feng et al. Table 4)")
    c.add_argument("eval_json", metavar="EVAL_JSON", help="output of `polibench fairness eval`")
    c.add_argument("--tasks", help="only these tasks, comma-separated (default: all)")
    c.add_argument("--groupings", help="only these groupings, comma-separated (default: all)")
    c.add_argument("--metrics", default="bacc,f1", help="metrics, comma-separated (default bacc,f1)")
    c.add_argument("--models", help="models / ensembles to show, comma-separated, in this order")
    c.add_argument("--output", metavar="DIR", required=True, help="folder for compare.md, CSVs and PNG/SVG heatmaps")
    keep_old_spellings(c, {"--output-dir": "--output", "--task": "--tasks", "--grouping": "--groupings",
                           "--metric": "--metrics"})
    c.set_defaults(handler=compare_command)

    s = fsub.add_parser("submit", help="check an evaluation against its predictions and add it to the leaderboard",
                        description="Recompute EVAL_JSON from the test predictions of the runs it lists, refuse it "
                                    "when any number differs, and write <entries>/<name>.json with the packed "
                                    "predictions beside it (shown on the leaderboard's fairness tab).")
    s.add_argument("eval_json", metavar="EVAL_JSON", help="output of `polibench fairness eval`")
    s.add_argument("--name", required=True, help="submission name (letters, digits, '.', '_', '-')")
    s.add_argument("--note", default="", help="what was evaluated: data, checkpoints, caveats (shown on the site)")
    s.add_argument("--runs", nargs="+", help="run folders, when they moved since the evaluation")
    s.add_argument("--entries", default=DEFAULT_FAIRNESS_ENTRIES,
                   help=f"submissions folder (default: {DEFAULT_FAIRNESS_ENTRIES})")
    s.add_argument("--force", action="store_true", help="replace a submission with the same name")
    s.set_defaults(handler=submit_command)


def _common(p) -> None:
    p.add_argument("--data-dir", help="prepared-data root (default $POLIBENCH_CACHE/fairness/data)")
    p.add_argument("--include-path", action="append", default=[], help="extra folder of fairness task YAML files")
    p.add_argument("--no-progress", action="store_true", help="hide progress bars")


def _seeds(text: str) -> list[int]:
    from polibench.errors import PolibenchError

    try:
        seeds = [int(s) for s in split_names(text)]
    except ValueError:
        raise PolibenchError(f"--seeds: expected comma-separated integers, got '{text}'") from None
    if not seeds or len(set(seeds)) != len(seeds):
        raise PolibenchError(f"--seeds: expected distinct integers, got '{text}'")
    return seeds


def data_command(args: argparse.Namespace) -> int:
    from polibench.fairness.data import prepare
    from polibench.fairness.spec import available_tasks, load_task

    if not args.task:
        for name, path in sorted(available_tasks(args.include_path).items()):
            task = load_task(str(path))
            print(f"{name:18s} {task.data.loader:5s} groupings: {', '.join(task.groupings)}   ({path})")
        return 0
    task = load_task(args.task, args.include_path)
    prepared = prepare(task, Path(args.path) if args.path else None, args.data_dir, show_progress=not args.no_progress)
    m = prepared.manifest
    print(f"prepared {task.name} in {prepared.folder}")
    print("  splits: " + ", ".join(f"{s} {v['n']} ({v['positive']} {task.positive_label})"
                                   for s, v in m["splits"].items()))
    print(f"  duplicates removed: {m['dedup']['removed']} (on {', '.join(m['dedup']['columns']) or '-'}; "
          f"{m['dedup']['conflicting_labels']} with disagreeing labels; "
          f"{m['dedup']['texts_in_train_and_test']} test texts also in train/dev)")
    for split, how in m["carved"].items():
        print(f"  {split} carved: {how['fraction']:.0%} seed {how['seed']}, stratified by {how['stratified_by']}")
    for grouping, per_split in m["groups"].items():
        print(f"  test items per {grouping}: " + ", ".join(f"{g} {n}" for g, n in per_split["test"].items()))
    source = m["source"]
    if isinstance(source.get("sha256"), str):
        print(f"  source sha256 {source['sha256']}")
    return 0


def train_command(args: argparse.Namespace) -> int:
    from polibench.fairness.data import load_prepared
    from polibench.fairness.spec import load_task
    from polibench.fairness.train import TrainSettings, is_main_process, train_seeds

    seeds = _seeds(args.seeds)
    task = load_task(args.task, args.include_path)
    settings = TrainSettings.from_task(
        task, epochs=args.epochs, learning_rate=args.lr, batch_size=args.batch_size,
        eval_batch_size=args.eval_batch_size, max_length=args.max_length, weight_decay=args.weight_decay,
        warmup_ratio=args.warmup_ratio, gradient_accumulation_steps=args.grad_accum, precision=args.precision,
        limit_train=args.limit_train)
    data = load_prepared(task, args.data_dir)
    folders = train_seeds(args.model, task, data, seeds, Path(args.output), settings, name=args.model_id,
                          revision=args.revision, show_progress=not args.no_progress, save_model=args.save_model,
                          overwrite=args.force, log=lambda text: print(text, file=sys.stderr))
    if not is_main_process():
        return 0
    for folder in folders:
        record = json.loads((folder / "run.json").read_text(encoding="utf-8")) if (folder / "run.json").is_file() \
            else {}
        dev = record.get("dev", {})
        print(f"wrote {folder} (dev BACC {100 * dev.get('bacc', float('nan')):.2f}, "
              f"F1 {100 * dev.get('f1', float('nan')):.2f})")
    return 0


def eval_command(args: argparse.Namespace) -> int:
    from polibench.fairness.compare import summary_markdown
    from polibench.fairness.evaluate import evaluate, parse_ensemble
    from polibench.results.files import atomic_write_text

    ensembles = [parse_ensemble(text) for text in args.ensemble]
    document = evaluate(args.run_dirs, reference=args.reference, ensembles=ensembles, n_boot=args.bootstrap,
                        level=args.ci, alpha=args.alpha, boot_seed=args.seed,
                        progress=None if args.no_progress else lambda text: print(text, file=sys.stderr))
    text = summary_markdown(document.as_dict())
    output = Path(args.output)
    output.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(output, document.to_json())
    if args.markdown:
        Path(args.markdown).parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(Path(args.markdown), text)
    print(text)
    print(f"wrote {output}" + (f" and {args.markdown}" if args.markdown else ""))
    return 0


def compare_command(args: argparse.Namespace) -> int:
    from polibench.fairness.compare import write_comparison
    from polibench.fairness.document import load_document

    document = load_document(Path(args.eval_json)).as_dict()
    written = write_comparison(document, Path(args.output),
                               tasks=split_names(args.tasks) if args.tasks else None,
                               groupings=split_names(args.groupings) if args.groupings else None,
                               metrics=split_names(args.metrics), models=split_names(args.models) if args.models
                               else None)
    print(written[0].read_text(encoding="utf-8"))
    print(f"wrote {len(written)} files in {args.output}")
    return 0


def submit_command(args: argparse.Namespace) -> int:
    from polibench.leaderboard.fairness_submit import submit

    path, submission = submit(Path(args.eval_json), Path(args.entries), args.name, note=args.note,
                              runs=[Path(r) for r in args.runs] if args.runs else None, force=args.force)
    print(f"wrote {path} ({', '.join(submission.models())} on {', '.join(submission.document['tasks'])}; "
          f"{submission.n_runs} seed runs recomputed and matching; predictions sha256 "
          f"{submission.predictions.sha256[:12]})")
    return 0
