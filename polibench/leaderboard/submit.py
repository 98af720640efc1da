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
import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from polibench.errors import PolibenchError
from polibench.hashing import file_sha256
from polibench.leaderboard import extract
from polibench.leaderboard.artifacts import gzip_copy
from polibench.leaderboard.compare import describe, differences
from polibench.leaderboard.naming import entry_id, public_model_id, scrub_secrets
from polibench.leaderboard.schema import Entry, ModelInfo, RunInfo, entry_json, load_entry
from polibench.results.files import RESULTS, SAMPLES, atomic_write_text

REQUIRED = ("results", "configs", "versions", "instruments", "model")


@dataclass
class Submission:
    entry: Entry
    path: Path
    replaced: bool


def checked_run(run_dir: Path) -> tuple[dict, dict]:
    """(results document, recomputed results) of a run whose stored numbers match its samples."""
    from polibench.cli.score import recompute

    if not run_dir.is_dir():
        raise PolibenchError(f"{run_dir}: no such run folder")
    try:
        document, recomputed = recompute(run_dir)
    except (KeyError, TypeError, ValidationError) as exc:
        raise PolibenchError(f"{run_dir}/{RESULTS}: not a complete polibench results file ({exc!s:.120})") from None
    missing = [k for k in REQUIRED if k not in document]
    if missing:
        raise PolibenchError(f"{run_dir}/{RESULTS}: missing {', '.join(missing)}")
    diffs = differences(document["results"], recomputed)
    if diffs:
        raise PolibenchError(f"{run_dir}/{RESULTS} disagrees with the metrics recomputed from {SAMPLES}: "
                             f"{describe(diffs)}")
    digest = file_sha256(run_dir / SAMPLES)
    recorded = extract.stored_samples_sha256(document)
    if recorded and recorded != digest:
        raise PolibenchError(f"{run_dir}/{SAMPLES}: SHA-256 {digest[:16]}... does not match the "
                             f"{recorded[:16]}... recorded in {RESULTS}")
    counts = _task_counts(run_dir / SAMPLES)
    for task, n in (document.get("n_samples") or {}).items():
        if counts.get(task, 0) != n:
            raise PolibenchError(f"{run_dir}/{SAMPLES}: {counts.get(task, 0)} samples of task '{task}', "
                                 f"but {RESULTS} says {n}")
    return document, recomputed


def _task_counts(path: Path) -> Counter:
    counts: Counter = Counter()
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                counts[json.loads(line)["task"]] += 1
    return counts


@functools.lru_cache(maxsize=1)
def builtin_registry():
    from polibench.taskspec.loader import load_registry

    return load_registry()


def check_builtin_specs(document: dict) -> None:
    """Each task must be a built-in task, at the same version and with the same config and instruments."""
    registry = builtin_registry()
    for name, config in document["configs"].items():
        if name not in registry.tasks:
            raise PolibenchError(f"task '{name}' is not a built-in polibench task; the leaderboard takes "
                                 "built-in tasks only (use --allow-custom-tasks for a private leaderboard)")
        builtin = registry.tasks[name]
        if builtin.version != document["versions"].get(name, builtin.version):
            raise PolibenchError(f"task '{name}' ran at version {document['versions'][name]}, this polibench "
                                 f"has version {builtin.version}: re-run it with this polibench")
        instruments = {n: registry.instruments[n].model_dump(mode="json") for n in builtin.instruments}
        if extract.spec_sha256(config, document["instruments"]) != \
                extract.spec_sha256(builtin.model_dump(mode="json"), instruments):
            raise PolibenchError(f"task '{name}' v{builtin.version}: the run's task config or instrument "
                                 "differs from this polibench's built-in one (edited YAML or another version)")


def make_entry(run_dir: Path, document: dict, recomputed: dict, entries_dir: Path,
               model_id: str | None = None) -> Entry:
    """Write the gzipped samples and results next to the entry and return the entry (not yet written)."""
    raw_model, backend, revision, args = extract.model_identity(document)
    public_id = model_id or public_model_id(raw_model, backend)
    tasks = extract.task_results(document, recomputed)
    eid = entry_id(public_id, [t.name for t in tasks])
    samples = gzip_copy(run_dir / SAMPLES, entries_dir / f"{eid}.samples.jsonl.gz")
    results = gzip_copy(run_dir / RESULTS, entries_dir / f"{eid}.results.json.gz")
    run = document.get("run") or {}
    now = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
    return Entry(
        entry_id=eid,
        model=ModelInfo(id=public_id, revision=None if revision is None else str(revision), backend=backend,
                        args=scrub_secrets(args)),
        polibench_version=str(document.get("polibench_version", "unknown")), git_hash=document.get("git_hash"),
        date=str(document.get("date", now)), submitted=now,
        run=RunInfo(seed=run.get("seed"), limit=run.get("limit"), samples_per_prompt=run.get("samples_per_prompt"),
                    n_samples=sum((document.get("n_samples") or {}).values())),
        tasks=tasks, samples=samples, results=results,
    )


def submit(run_dir: Path, entries_dir: Path, force: bool = False, allow_partial: bool = False,
           allow_custom_tasks: bool = False, model_id: str | None = None) -> Submission:
    document, recomputed = checked_run(run_dir)
    if (document.get("run") or {}).get("limit") is not None and not allow_partial:
        raise PolibenchError(f"{run_dir}: a partial run (--limit {document['run']['limit']}); the leaderboard "
                             "wants every item (use --allow-partial for a test entry)")
    if not allow_custom_tasks:
        check_builtin_specs(document)
    entries_dir.mkdir(parents=True, exist_ok=True)
    public_id = model_id or public_model_id(*extract.model_identity(document)[:2])
    eid = entry_id(public_id, list(document["configs"]))
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
    entry = make_entry(run_dir, document, recomputed, entries_dir, model_id=public_id)
    atomic_write_text(path, entry_json(entry))
    return Submission(entry=entry, path=path, replaced=replaced)
