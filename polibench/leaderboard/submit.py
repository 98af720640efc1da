"""``polibench submit``: turn a finished run folder into a leaderboard entry, after recomputing it.

The run is refused (a :class:`~polibench.errors.PolibenchError`, exit 2) when results.json disagrees with
the metrics recomputed from samples.jsonl, when a samples hash the run recorded does not match the file,
when the sample counts disagree, when a task's spec differs from this polibench's built-in task of the
same name, or when the run is partial (``--limit``) unless ``allow_partial``. An existing entry of another
model with the same file name is never replaced unless ``force``.
"""

from __future__ import annotations

import datetime as _dt
import functools
from dataclasses import dataclass
from pathlib import Path

from polibench.errors import PolibenchError
from polibench.hashing import file_sha256
from polibench.leaderboard import extract
from polibench.leaderboard.artifacts import gzip_copy
from polibench.leaderboard.naming import entry_id, public_model_id, scrub_secrets
from polibench.leaderboard.schema import Entry, ModelInfo, RunInfo, entry_json, load_entry
from polibench.metrics.position import LIMIT_LABEL
from polibench.metrics.run_level import RunMetrics
from polibench.results.check import Checked, check
from polibench.results.document import ResultsDocument, TaskResults
from polibench.results.files import RESULTS, SAMPLES, atomic_write_text, read_results, read_samples


@dataclass
class Submission:
    entry: Entry
    path: Path
    replaced: bool


def checked_run(run_dir: Path) -> Checked:
    """A run whose stored numbers, sample counts and recorded samples hash match its samples (else one error naming
    the first differences), with its recomputed numbers."""
    if not run_dir.is_dir():
        raise PolibenchError(f"{run_dir}: no such run folder")
    document = read_results(run_dir)
    samples = read_samples(run_dir / SAMPLES)
    checked = check(document, samples, samples_sha256=file_sha256(run_dir / SAMPLES))
    if not checked.matches:
        raise PolibenchError(checked.why(str(run_dir)) + f" (`polibench score {run_dir}` recomputes them)")
    return checked


@functools.lru_cache(maxsize=1)
def builtin_registry():
    from polibench.taskspec.loader import load_registry

    return load_registry()


def check_builtin_specs(document: ResultsDocument) -> None:
    """Each task must be a built-in task, at the same version and with the same config and instruments."""
    registry = builtin_registry()
    for name, config in document.configs.items():
        if name not in registry.tasks:
            raise PolibenchError(f"task '{name}' is not a built-in polibench task; the leaderboard takes "
                                 "built-in tasks only (use --allow-custom-tasks for a private leaderboard)")
        builtin = registry.tasks[name]
        if builtin.version != document.versions.get(name, builtin.version):
            raise PolibenchError(f"task '{name}' ran at version {document.versions[name]}, this polibench "
                                 f"has version {builtin.version}: re-run it with this polibench")
        instruments = {n: registry.instruments[n].model_dump(mode="json") for n in builtin.instruments}
        # notes (descriptions, provenance) are left out: rewording them since the run changes nothing that ran
        if extract.spec_sha256(config, document.instruments, notes=False) != \
                extract.spec_sha256(builtin.model_dump(mode="json"), instruments, notes=False):
            raise PolibenchError(f"task '{name}' v{builtin.version}: the run's task config or instrument "
                                 "differs from this polibench's built-in one (edited YAML or another version)")


def make_entry(run_dir: Path, document: ResultsDocument, recomputed: dict[str, TaskResults], run_metrics: RunMetrics,
               entries_dir: Path, model_id: str | None = None) -> Entry:
    """Write the gzipped samples and results next to the entry and return the entry (not yet written)."""
    raw_model, backend, revision, args = extract.model_identity(document)
    public_id = model_id or public_model_id(raw_model, backend)
    tasks = extract.task_results(document, recomputed)
    eid = entry_id(public_id, [t.name for t in tasks])
    samples = gzip_copy(run_dir / SAMPLES, entries_dir / f"{eid}.samples.jsonl.gz")
    results = gzip_copy(run_dir / RESULTS, entries_dir / f"{eid}.results.json.gz")
    run = document.run
    now = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
    return Entry(
        entry_id=eid,
        model=ModelInfo(id=public_id, revision=None if revision is None else str(revision), backend=backend,
                        args=scrub_secrets(args)),
        polibench_version=document.polibench_version, git_hash=document.git_hash,
        date=document.date, submitted=now,
        run=RunInfo(seed=run.seed, limit=run.limit, samples_per_prompt=run.samples_per_prompt,
                    n_samples=sum(document.n_samples.values())),
        tasks=tasks, samples=samples, results=results, imported=extract.imported_from(document),
        run_metrics=extract.run_blocks(run_metrics),
    )


def submit(run_dir: Path, entries_dir: Path, force: bool = False, allow_partial: bool = False,
           allow_custom_tasks: bool = False, model_id: str | None = None) -> Submission:
    checked = checked_run(run_dir)
    document, recomputed, run_metrics = checked.document, checked.results, checked.run_metrics
    if document.run.limit is not None and not allow_partial:
        raise PolibenchError(f"{run_dir}: a partial run (--limit {document.run.limit}: {LIMIT_LABEL}); the "
                             "leaderboard wants every item (use --allow-partial for a test entry)")
    if not allow_custom_tasks:
        check_builtin_specs(document)
    entries_dir.mkdir(parents=True, exist_ok=True)
    public_id = model_id or public_model_id(*extract.model_identity(document)[:2])
    eid = entry_id(public_id, list(document.configs))
    path = (entries_dir / f"{eid}.json")
    if path.resolve().parent != entries_dir.resolve():
        raise PolibenchError(f"{path}: entry file would leave {entries_dir}")  # cannot happen with entry_id()
    replaced = path.exists()
    if replaced and not force:
        try:
            existing = load_entry(path)
            other = existing.model.id != public_id
        except PolibenchError:
            other = True
        if other:
            raise PolibenchError(f"{path} already holds an entry of another model; not replacing it "
                                 "(use --force to replace it)")
    entry = make_entry(run_dir, document, recomputed, run_metrics, entries_dir, model_id=public_id)
    atomic_write_text(path, entry_json(entry))
    return Submission(entry=entry, path=path, replaced=replaced)
