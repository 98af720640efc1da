"""Write, the last stage: publish the run folder (samples.jsonl, results.json, report.md with its figures).

Nothing is written before this stage: a run that fails earlier leaves no folder behind. Samples go to
``samples.jsonl.partial`` first and are renamed into place; ``results.json`` (which records the samples' SHA-256)
and ``report.md`` are each written to a temporary file and renamed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from polibench.records import Sample
from polibench.report.markdown import write_report
from polibench.results.document import ResultsDocument
from polibench.results.files import write_results, write_samples


def write_run(output_dir: Path, samples: dict[str, list[Sample]], document: ResultsDocument,
              min_coverage: Optional[float] = None) -> None:
    """Write the scored samples (task by task, in order), the results document and the report."""
    write_samples(output_dir, (s for task_samples in samples.values() for s in task_samples))
    write_results(output_dir, document)
    write_report(output_dir, document, **({} if min_coverage is None else {"min_coverage": min_coverage}))
