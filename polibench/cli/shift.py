"""``polibench shift BASE_RUN RUN [RUN ...]``: how far each run's position moved from the base run's; and
``polibench personas RUN [RUN ...]``: the persona control (left vs right persona within each run)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_parser(sub) -> None:
    p = sub.add_parser(
        "shift", help="paired shift of each run's position from a base run (PCT and Faulborn bias)",
        description="For each RUN, the shift of its PCT coordinates and Faulborn bias from BASE_RUN's on the "
                    "statements both runs answered, with paired item-bootstrap intervals (the same resampled "
                    "statements in both runs) and a sign-flip test of no shift. Writes shift.md, shift.json and "
                    "the figures to --output. See docs/pretraining.md.")
    p.add_argument("base", metavar="BASE_RUN", help="run folder of the base model")
    p.add_argument("runs", nargs="+", metavar="RUN", help="run folders to compare with the base")
    p.add_argument("--tasks", help="only these tasks, comma-separated (default: every task all runs share)")
    p.add_argument("--labels", help="comma-separated names of BASE_RUN and each RUN in the table and figures")
    p.add_argument("--trajectory", action="store_true",
                   help="the RUNs are checkpoints in order: also draw the trajectory figure")
    p.add_argument("--output", metavar="DIR", default="shift", help="folder for shift.md, shift.json, figures")
    p.add_argument("--resamples", type=int, default=10_000, help="bootstrap resamples (default 10000)")
    p.add_argument("--permutations", type=int, default=10_000, help="sign-flip resamples of the test (default "
                                                                      "10000)")
    p.add_argument("--seed", type=int, default=0, help="seed of the resamples (default 0)")
    p.add_argument("--allow-different-designs", action="store_true",
                   help="compare runs that asked a task differently (task spec, variants, samples per prompt or "
                        "decoding settings); refused by default, since the paired test assumes the same design; "
                        "the differences are recorded in shift.json")
    p.set_defaults(handler=shift_command)

    q = sub.add_parser(
        "personas", help="persona control: left vs right persona (and neutral) within each run, paired",
        description="For each RUN of the persona-control task (or any task with a left persona, a right persona "
                    "and a neutral variant), the separation right persona - left persona of the PCT coordinates "
                    "and Faulborn bias on the same statements, with paired intervals, and a plain verdict on "
                    "whether the personas separate. Writes personas.md and personas.json to --output.")
    q.add_argument("runs", nargs="+", metavar="RUN", help="run folders")
    q.add_argument("--tasks", help="only these tasks, comma-separated (default: every task with the three variants)")
    q.add_argument("--left", default="persona-left", help="variant id of the left persona (default persona-left)")
    q.add_argument("--right", default="persona-right", help="variant id of the right persona (default persona-right)")
    q.add_argument("--neutral", default="neutral", help="variant id of the neutral prompt (default neutral)")
    q.add_argument("--labels", help="comma-separated names of the runs")
    q.add_argument("--output", metavar="DIR", default="personas", help="folder for personas.md and personas.json")
    q.add_argument("--resamples", type=int, default=10_000, help="bootstrap resamples (default 10000)")
    q.add_argument("--permutations", type=int, default=10_000, help="sign flips of the test (default 10000)")
    q.add_argument("--seed", type=int, default=0, help="seed of the resamples (default 0)")
    q.set_defaults(handler=personas_command)


def shift_command(args: argparse.Namespace) -> int:
    from polibench.cli.args import split_names
    from polibench.shift.compute import shift_runs
    from polibench.shift.render import write_outputs

    labels = split_names(args.labels) if args.labels else None
    result = shift_runs(Path(args.base), [Path(r) for r in args.runs], tasks=split_names(args.tasks)
                        if args.tasks else None, labels=labels, resamples=args.resamples,
                        permutations=args.permutations, seed=args.seed,
                        allow_different_designs=args.allow_different_designs)
    text = write_outputs(result, Path(args.output), trajectory_figure=args.trajectory)
    sys.stdout.write(text)
    print(f"wrote {args.output}")
    return 0


def personas_command(args: argparse.Namespace) -> int:
    from polibench.cli.args import split_names
    from polibench.errors import PolibenchError
    from polibench.shift.persona import persona_reports
    from polibench.shift.render import write_persona_outputs

    if args.resamples < 100 or args.permutations < 100:
        raise PolibenchError("--resamples and --permutations must be at least 100")
    reports = persona_reports([Path(r) for r in args.runs], tasks=split_names(args.tasks) if args.tasks else None,
                              variants={"left": args.left, "right": args.right, "neutral": args.neutral},
                              labels=split_names(args.labels) if args.labels else None, resamples=args.resamples,
                              permutations=args.permutations, seed=args.seed)
    sys.stdout.write(write_persona_outputs(reports, Path(args.output)))
    print(f"wrote {args.output}")
    return 0
