"""``polibench score RUN_DIR``: recompute results.json from samples.jsonl and the specs stored in the run, and
print the summary lines ``polibench run`` prints."""

from __future__ import annotations

import argparse
from pathlib import Path

from polibench.metrics.run_level import RunMetrics
from polibench.report.markdown import write_report
from polibench.results.document import ResultsDocument, TaskResults
from polibench.results.files import SAMPLES, read_results, read_samples, write_results
from polibench.results.recompute import recompute, recompute_run_metrics, results_json


def add_parser(sub) -> None:
    p = sub.add_parser("score", help="recompute a run's results from its samples.jsonl")
    p.add_argument("run_dir", help="a finished run folder")
    p.add_argument("--check", action="store_true",
                   help="do not write; exit 1 if the stored results differ from the recomputation")
    p.set_defaults(handler=score_command)


def recompute_run(run_dir: Path) -> tuple[ResultsDocument, dict[str, TaskResults], RunMetrics]:
    """(stored results document, recomputed results per task, recomputed run-level metrics) of a run folder."""
    document = read_results(run_dir)
    samples = read_samples(run_dir / SAMPLES)
    recomputed = recompute(document, samples)
    return document, recomputed, recompute_run_metrics(document, samples, recomputed)


def score_command(args: argparse.Namespace) -> int:
    run_dir = Path(args.run_dir)
    document, recomputed, run_metrics = recompute_run(run_dir)
    same = results_json(recomputed) == document.results_json() and run_metrics == document.run_metrics
    if args.check:
        print("results.json matches samples.jsonl" if same else "results.json DIFFERS from samples.jsonl")
        return 0 if same else 1
    from polibench.cli.run import summary_lines

    document = document.model_copy(update={"results": recomputed, "run_metrics": run_metrics})
    write_results(run_dir, document)
    write_report(run_dir, document)
    for line in summary_lines(document):  # the lines `polibench run` prints at its end
        print(line)
    print(f"recomputed {run_dir}/results.json ({'unchanged' if same else 'updated'}); wrote {run_dir}/report.md")
    return 0
