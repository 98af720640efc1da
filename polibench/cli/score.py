"""``polibench score RUN_DIR``: recompute results.json from samples.jsonl and the specs stored in the run, and
print the summary lines ``polibench run`` prints; with ``--check``, only compare (:func:`polibench.results.check.check`,
the comparison ``submit`` and ``leaderboard verify`` make). With ``--scorer X --output NEW``: score the run's responses
again with another stance scorer (nothing is generated) and write a new run folder that records where its
responses came from (``run.rescored_from`` in results.json)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from polibench.cli.args import parse_kv, probability
from polibench.errors import PolibenchError
from polibench.kit.files import check_writable
from polibench.report.markdown import write_report
from polibench.results.check import check, sample_counts
from polibench.results.files import write_results
from polibench.results.folder import RunFolder


def add_parser(sub) -> None:
    p = sub.add_parser("score", help="recompute a run's results from its samples.jsonl, or re-score its responses "
                                     "with another scorer into a new run folder (--scorer X --output NEW)")
    p.add_argument("run_dir", help="a finished run folder")
    p.add_argument("--check", action="store_true",
                   help="do not write; exit 1 if the stored results, run-level metrics or sample counts differ "
                        "from those recomputed from samples.jsonl (numbers within 1e-9 relative)")
    p.add_argument("--scorer", help="score the run's responses again with this stance scorer (see `polibench "
                                    "list`); needs --output")
    p.add_argument("--scorer-args", help="with --scorer: scorer options as k=v,k=v")
    p.add_argument("--threshold", type=probability, help="with --scorer: stance confidence threshold")
    p.add_argument("--output", metavar="DIR", help="with --scorer: the new run folder (must not exist)")
    p.add_argument("--no-progress", action="store_true", help="hide progress bars")
    p.set_defaults(handler=score_command)


def score_command(args: argparse.Namespace) -> int:
    run_dir = Path(args.run_dir)
    if args.scorer or args.output or args.scorer_args or args.threshold is not None:
        return rescore_command(args, run_dir)
    if not args.check and run_dir.is_dir():
        check_writable(run_dir)  # before the recomputation: its results could not be saved
    run = RunFolder(run_dir)
    checked = check(run.document, run.samples)
    same = checked.matches
    if args.check:
        print("results.json matches samples.jsonl" if same else checked.why(str(run_dir)))
        return 0 if same else 1
    from polibench.cli.run import summary_lines

    document = checked.document.model_copy(update={"results": checked.results, "run_metrics": checked.run_metrics,
                                                   "n_samples": sample_counts(run.document.n_samples, run.samples)})
    write_results(run_dir, document)
    write_report(run_dir, document)
    for line in summary_lines(document):  # the lines `polibench run` prints at its end
        print(line)
    print(f"recomputed {run_dir}/results.json ({'unchanged' if same else 'updated'}); wrote {run_dir}/report.md")
    return 0


def rescore_command(args: argparse.Namespace, run_dir: Path) -> int:
    """``score RUN --scorer X --output NEW``: the run's responses through the pipeline again, from its stored
    task specs and run settings (seed, limit, samples per prompt), with scorer X."""
    from polibench.cli.run import print_summary
    from polibench.pipeline.plan import RunOptions, RunPlan
    from polibench.pipeline.respond import RunResponses
    from polibench.pipeline.run import run_pipeline

    if args.check:
        raise PolibenchError("--check recomputes a run in place; it does not go with --scorer/--output")
    if not args.scorer or not args.output:
        raise PolibenchError("re-scoring needs both --scorer X and --output NEW (the run itself is never changed)")
    out = Path(args.output)
    if out.exists() or out.is_symlink():
        raise PolibenchError(f"--output {out}: already exists; re-scoring writes a new run folder")
    run = RunFolder(run_dir)
    stored = run.document.run
    options = RunOptions(seed=stored.seed, limit=stored.limit, limit_order=stored.limit_order or "first",
                         samples_per_prompt=stored.samples_per_prompt,
                         scorer=args.scorer, scorer_args=parse_kv(args.scorer_args, "--scorer-args"),
                         threshold=args.threshold, show_progress=not args.no_progress, command=sys.argv[1:])
    document = run_pipeline(RunPlan.from_document(run.document), RunResponses(run), out, options)
    print_summary(document, out)
    return 0
