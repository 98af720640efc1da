"""``polibench leaderboard verify``: re-check entries against the samples shipped beside them.

For each entry: the schema and file name; the gzipped samples.jsonl and results.json against the entry's SHA-256;
every metric, run-level metric and sample count recomputed from the samples against the results file
(:func:`polibench.results.check.check`, the comparison ``score --check`` and ``submit`` make); the entry's own
numbers and the run-level blocks it keeps (those of the run-level metrics with a board) against a summary made
afresh from the recomputation; and its ``imported`` record against the run's. Entries whose files are not shipped
are reported as unverifiable, not as failures."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pydantic_core import to_jsonable_python

from polibench.errors import PolibenchError
from polibench.leaderboard import extract
from polibench.leaderboard.artifacts import read_artifact, sha256_bytes
from polibench.leaderboard.schema import Entry, entry_paths, load_entry
from polibench.results.check import check, describe, differences
from polibench.results.files import parse_json, parse_samples
from polibench.results.migrate import migrate

VERIFIED, FAILED, UNAVAILABLE = "verified", "FAILED", "samples not available"


@dataclass
class Outcome:
    path: Path
    status: str
    detail: str = ""


def check_entry(entry: Entry, entries_dir: Path) -> None:
    """Raise PolibenchError saying what differs; return when every number is reproduced."""
    shipped = read_artifact(entries_dir, entry.samples)  # checked against the entry's own hash
    samples = parse_samples(shipped, entry.samples.file)
    document = migrate(parse_json(read_artifact(entries_dir, entry.results), entry.results.file), entry.results.file)
    # and against the hash results.json recorded when its numbers were computed
    checked = check(document, samples, samples_sha256=sha256_bytes(shipped))
    if not checked.matches:
        raise PolibenchError(checked.why("shipped files"))
    expected = [t.model_dump(mode="json") for t in extract.task_results(document, checked.results)]
    diffs = differences([t.model_dump(mode="json") for t in entry.tasks], expected, "tasks")
    if diffs:
        raise PolibenchError(f"entry numbers differ from the recomputation: "
                             f"{describe(diffs, what='entry', against='recomputed')}")
    if entry.imported != extract.imported_from(document):
        raise PolibenchError("the entry's 'imported' record differs from the run's (run.imported in results.json)")
    diffs = differences(to_jsonable_python(entry.run_metrics),
                        to_jsonable_python(extract.run_blocks(checked.run_metrics)), "run_metrics")
    if diffs:
        raise PolibenchError(f"entry run-level metrics differ from the recomputation: "
                             f"{describe(diffs, what='entry', against='recomputed')}")
    backend = extract.model_identity(document)[1]
    if backend != entry.model.backend:
        raise PolibenchError(f"entry says backend '{entry.model.backend}', the run used '{backend}'")
    if len(samples) != entry.run.n_samples:
        raise PolibenchError(f"the shipped samples hold {len(samples)} samples, the entry says {entry.run.n_samples}")


def files_shipped(entry: Entry, entries_dir: Path) -> bool:
    """Whether the entry's gzipped samples and results are in ``entries_dir`` (else it cannot be verified)."""
    return all((entries_dir / a.file).is_file() for a in (entry.samples, entry.results))


def verify_path(path: Path) -> Outcome:
    try:
        entry = load_entry(path)
    except PolibenchError as exc:
        return Outcome(path, FAILED, str(exc))
    entries_dir = path.parent
    if not files_shipped(entry, entries_dir):
        return Outcome(path, UNAVAILABLE, f"{entry.samples.file} or {entry.results.file} is not in {entries_dir}")
    try:
        check_entry(entry, entries_dir)
    except PolibenchError as exc:
        return Outcome(path, FAILED, str(exc))
    return Outcome(path, VERIFIED, f"{entry.run.n_samples} samples, {len(entry.tasks)} task(s) reproduced")


def verify_dir(entries_dir: Path) -> list[Outcome]:
    return [verify_path(p) for p in entry_paths(entries_dir)]
