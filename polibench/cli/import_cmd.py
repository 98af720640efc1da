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
    from polibench.pipeline.import_file import ImportedResponses
    from polibench.pipeline.plan import RunOptions, RunPlan
    from polibench.pipeline.run import run_pipeline
    from polibench.taskspec.loader import load_registry

    plan = RunPlan.from_registry(load_registry(args.include_path), parse_task_names(args.tasks))
    options = RunOptions(scorer=args.scorer, scorer_args=parse_kv(args.scorer_args, "--scorer-args"),
                         threshold=args.threshold, show_progress=not args.no_progress, command=sys.argv[1:])
    source = ImportedResponses(Path(args.file), model=args.model, citation=args.citation, licence=args.licence)
    out = Path(args.output)
    document = run_pipeline(plan, source, out, options)
    print_summary(document, out)
    return 0
