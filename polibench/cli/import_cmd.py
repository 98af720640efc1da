"""``polibench import FILE``: responses generated elsewhere (JSONL or CSV) -> a scored run folder."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from polibench.cli.args import parse_kv, parse_task_names, probability
from polibench.cli.flags import accept_lm_eval_spellings


def add_parser(sub) -> None:
    p = sub.add_parser("import", help="turn responses generated elsewhere (JSONL/CSV) into a scored run folder")
    p.add_argument("file", help=".jsonl or .csv: item, variant, response; optionally task, form, sample_index, "
                                "model, prompt")
    p.add_argument("--tasks", required=True, help="comma-separated task names the responses answer")
    p.add_argument("--output", required=True, metavar="DIR", help="run folder to write")
    p.add_argument("--model", help="the model that wrote the responses (default: the rows' 'model' field)")
    p.add_argument("--citation", help="where the responses come from (recorded in results.json)")
    p.add_argument("--licence", help="the responses' licence (recorded in results.json)")
    p.add_argument("--scorer", help="stance scorer (overrides the task's; see `polibench list`)")
    p.add_argument("--scorer-args", help="scorer options as k=v,k=v")
    p.add_argument("--threshold", type=probability, help="stance confidence threshold (overrides the task's)")
    p.add_argument("--include-path", action="append", default=[], help="extra folder of task YAML files")
    p.add_argument("--no-progress", action="store_true", help="hide progress bars")
    accept_lm_eval_spellings(p)
    p.set_defaults(handler=import_command)


def import_command(args: argparse.Namespace) -> int:
    from polibench.cli.run import print_summary
    from polibench.evaluator import RunOptions, scorer_specs
    from polibench.importing import import_responses, matched_samples, read_rows
    from polibench.preflight import check_output_dir, check_scorers
    from polibench.taskspec.loader import load_registry

    registry = load_registry(args.include_path)
    task_names = parse_task_names(args.tasks)
    tasks = [registry.task(name) for name in task_names]
    options = RunOptions(scorer=args.scorer, scorer_args=parse_kv(args.scorer_args, "--scorer-args"),
                         threshold=args.threshold, show_progress=not args.no_progress, command=sys.argv[1:])
    path, out = Path(args.file), Path(args.output)
    matched_samples(path, read_rows(path), task_names, registry, args.model)  # every row checked first
    check_scorers(scorer_specs(tasks, options))
    check_output_dir(out)
    document = import_responses(path, task_names, registry, out, options, model=args.model,
                                citation=args.citation, licence=args.licence)
    print_summary(document, out)
    return 0
