"""The versioned schema of a leaderboard entry: one JSON file per (model, task set) run.

An entry carries who was measured (model id, revision, backend and its non-secret arguments), how
(polibench version, task names, versions and seeds), what came out (every metric's headline estimates with
confidence intervals, coverage, and each metric's own details) and the SHA-256 of the samples and results files it
came from, which are shipped gzipped beside it so anyone can recompute every number.
See docs/leaderboard.md for the field-by-field description.

Version 2 holds every metric's headline estimates under ``tasks[].estimates`` (``{metric: {estimate: {value,
ci}}}``, as the metric registry declares them) and what else a metric keeps (its board's ``details``, e.g. the PCT
coordinates per prompt variant) under ``tasks[].details`` (``{metric: {...}}``), where version 1 had fixed fields
per metric. The run-level metrics that have a board keep their blocks under ``run_metrics`` (``{metric: block}``),
where earlier entries had a field per metric. :func:`migrate_entry` is the one migration; which earlier fields
move where is each metric's own (its board's ``v1``, :mod:`polibench.leaderboard.board`), so this module names no
metric.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal, Optional

from pydantic import Field, ValidationError, field_validator, model_validator

from polibench.errors import PolibenchError
from polibench.kit.strict import Strict, first_error, validated
from polibench.leaderboard.board import Value as Metric
from polibench.leaderboard.boards import board_of, run_board_of
from polibench.metrics.registry import registered
from polibench.metrics.run_level import registered_run_metrics

SCHEMA_VERSION = 3
READS = (1, 2, SCHEMA_VERSION)  # the versions an entry may have on disk (older ones are migrated when read)
ENTRY_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,150}$"
SHA256_PATTERN = r"^[0-9a-f]{64}$"


class CoverageSummary(Strict):
    items: int = Field(..., ge=0)
    items_answered: int = Field(..., ge=0)
    responses: int = Field(..., ge=0)
    responses_kept: int = Field(..., ge=0)
    kept_share: float = Field(..., ge=0.0, le=1.0)


class ScorerFingerprint(Strict):
    """Which trained stance scorer read the task (:mod:`polibench.scoring.fingerprint`): its weights, and its
    readings of a fixed canary set."""

    weights: str = Field(..., pattern=r"^[0-9a-f]{16}$", description="SHA-256 of the weights, first 16 hex digits")
    canary: str = Field(..., pattern=r"^[0-9a-f]{16}$",
                        description="SHA-256 of the (label, kept) readings of the canary set, first 16 hex digits")


class TaskResult(Strict):
    """One task of the run: its identity and headline numbers."""

    name: str = Field(..., pattern=r"^[a-z0-9][a-z0-9_-]*$")
    version: int
    instruments: list[str] = Field(..., min_length=1)
    variant_set: str
    forms: list[str]
    seed: int
    samples_per_prompt: int = Field(..., ge=1)
    scorer: Optional[str] = None
    threshold: Optional[float] = None
    scorer_fingerprint: Optional[ScorerFingerprint] = Field(
        None, description="the trained stance scorer that read the task (None: no trained classifier read it, or the "
                          "entry predates version 3)")
    spec_sha256: str = Field(..., pattern=SHA256_PATTERN,
                             description="hash of the task config and instruments the run used")
    estimates: dict[str, dict[str, Metric]] = Field(
        default_factory=dict, description="metric name -> estimate key -> value and interval: every headline "
                                          "estimate the metric registry declares for the task's metrics")
    coverage: CoverageSummary
    details: dict[str, dict[str, Any]] = Field(
        default_factory=dict, description="metric name -> what else the metric keeps for the site (its board's "
                                          "details: JSON, recomputed by verify like the estimates)")

    @model_validator(mode="before")
    @classmethod
    def _version_1_fields(cls, data):
        """A version-1 task's fixed metric fields, moved under ``estimates`` and ``details`` by the metric each
        belongs to (the one migration)."""
        if not isinstance(data, dict):
            return data
        data = dict(data)
        estimates = {name: dict(found) for name, found in (data.get("estimates") or {}).items()}
        details = {name: dict(found) for name, found in (data.get("details") or {}).items()}
        moved = False
        for name in registered():
            board = board_of(name)
            if board is None or board.v1 is None:
                continue
            found, extra = board.v1(data)
            found = {k: v for k, v in found.items() if v is not None}
            if found:
                estimates[name] = {**found, **estimates.get(name, {})}
            if any(v not in (None, {}, []) for v in extra.values()):
                details[name] = {**extra, **details.get(name, {})}
            moved = moved or bool(found or extra)
        if moved:
            data["estimates"], data["details"] = estimates, details
        return data

    @field_validator("details")
    @classmethod
    def _details_as_their_boards_declare(cls, details: dict) -> dict:
        """Each metric's details validate against its board's ``details_model`` (a metric this polibench does
        not know is kept as it is)."""
        metrics = registered()
        for name, found in details.items():
            board = board_of(name) if name in metrics else None
            if board is not None and board.details_model is not None:
                try:
                    board.details_model.model_validate(found)
                except ValidationError as exc:
                    where, message = first_error(exc, "")
                    raise ValueError(f"details.{'.'.join(filter(None, (name, where)))}: {message}") from None
        return details

    def estimate(self, metric: str, key: str) -> Optional[Metric]:
        """Estimate ``key`` of metric ``metric`` (its registered name), or None when the entry has none."""
        return self.estimates.get(metric, {}).get(key)


class ModelInfo(Strict):
    id: str = Field(..., min_length=1, max_length=300)
    revision: Optional[str] = Field(None, max_length=200)
    backend: str = Field(..., min_length=1, max_length=100)
    args: dict = Field(default_factory=dict, description="backend arguments, secrets removed")

    @field_validator("id", "revision", "backend")
    @classmethod
    def _printable(cls, value):
        if value is not None and any(ord(c) < 32 or ord(c) == 127 for c in value):
            raise ValueError("control characters are not allowed")
        return value


class Artifact(Strict):
    """A file shipped gzipped beside the entry; ``sha256`` and ``bytes`` describe the uncompressed file."""

    file: str = Field(..., pattern=ENTRY_ID_PATTERN, description="file name in the entries folder (no path)")
    sha256: str = Field(..., pattern=SHA256_PATTERN)
    bytes: int = Field(..., ge=0)


class RunInfo(Strict):
    seed: Optional[int] = Field(None, description="the --seed override, if any")
    limit: Optional[int] = Field(None, description="--limit: only the first N items (a partial run)")
    samples_per_prompt: Optional[int] = Field(None, description="the --samples override, if any")
    n_samples: int = Field(..., ge=0)


class ImportedFrom(Strict):
    """Where an imported run's responses came from (``polibench import``): the site shows it with the citation."""

    file: str = Field(..., max_length=300)
    sha256: str = Field(..., pattern=SHA256_PATTERN, description="SHA-256 of the imported file")
    rows: int = Field(..., ge=1)
    citation: Optional[str] = Field(None, max_length=2000)
    licence: Optional[str] = Field(None, max_length=200)


def migrate_entry(data):
    """An entry document in version 3's layout: a version-1 entry's tasks' estimates moved under ``estimates`` (by
    :class:`TaskResult`), and the run-level blocks that an entry of version 1 (or of version 2 before run-level
    metrics had boards) kept in fields of their own moved under ``run_metrics``; a version-2 entry has no scorer
    fingerprints (version 3 added them: they stay None); anything unreadable is returned as it is."""
    if not isinstance(data, dict):
        return data
    data = dict(data)
    moved = {}
    for name in registered_run_metrics():
        board = run_board_of(name)
        if board is not None and board.v1 is not None and (block := board.v1(data)):
            moved[name] = block
    if moved and isinstance(data.get("run_metrics", {}), dict):  # a malformed run_metrics is the schema's to name
        data["run_metrics"] = {**moved, **data.get("run_metrics", {})}
    if data.get("schema_version") == 2:
        return {**data, "schema_version": SCHEMA_VERSION}
    if data.get("schema_version") != 1:
        return data
    tasks = data.get("tasks")
    return {**data, "schema_version": SCHEMA_VERSION,
            "tasks": [TaskResult._version_1_fields(t) for t in tasks] if isinstance(tasks, list) else tasks}


class Entry(Strict):
    schema_version: Literal[3] = SCHEMA_VERSION
    entry_id: str = Field(..., pattern=ENTRY_ID_PATTERN, description="the file name without .json")
    model: ModelInfo
    polibench_version: str
    git_hash: Optional[str] = None
    date: str = Field(..., description="when the run finished (UTC, ISO 8601)")
    submitted: str = Field(..., description="when the entry was made (UTC, ISO 8601)")
    run: RunInfo
    tasks: list[TaskResult] = Field(..., min_length=1)
    samples: Artifact
    results: Artifact
    fairness: dict = Field(default_factory=dict,
                           description="unused: fairness results are submissions of their own (leaderboard/fairness/)")
    imported: Optional[ImportedFrom] = Field(None, description="responses generated elsewhere (polibench import)")
    run_metrics: dict[str, Any] = Field(
        default_factory=dict, description="run-level metric name -> its block as the run computed it (results.json's "
                                          "run_metrics), for each run-level metric whose board shows it on the site "
                                          "and whose block is not empty; recomputed by verify")

    @model_validator(mode="before")
    @classmethod
    def _migrated(cls, data):
        return migrate_entry(data)

    @field_validator("run_metrics")
    @classmethod
    def _blocks_as_registered(cls, blocks: dict) -> dict:
        """Each block typed by its run-level metric's registration (a metric this polibench does not know is kept
        as it is)."""
        metrics = registered_run_metrics()
        typed = {}
        for name, block in blocks.items():
            try:
                typed[name] = metrics[name].adapter.validate_python(block) if name in metrics else block
            except ValidationError as exc:
                where, message = first_error(exc, "")
                raise ValueError(f"run_metrics.{'.'.join(filter(None, (name, where)))}: {message}") from None
        return typed

    def run_block(self, name: str) -> Any:
        """The block of run-level metric ``name`` the entry keeps, or None."""
        return self.run_metrics.get(name)

    @property
    def partial(self) -> bool:
        return self.run.limit is not None

    def task_set(self) -> str:
        return "+".join(t.name for t in self.tasks)


def entry_json(entry: Entry) -> str:
    return json.dumps(entry.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n"


def read_json(path: Path):
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise PolibenchError(f"{path}: not a readable JSON file ({exc})") from None


def load_entry(path: Path) -> Entry:
    """Read and validate one entry file; the file name must be ``<entry_id>.json``."""
    data = read_json(path)
    if isinstance(data, dict) and data.get("schema_version") not in (None, *READS):
        raise PolibenchError(f"{path}: schema_version {data.get('schema_version')!r} is not supported "
                             f"(this polibench reads versions {', '.join(map(str, READS))})")
    entry = validated(path, Entry, data, "(entry)")
    if path.name != entry.entry_id + ".json":
        raise PolibenchError(f"{path}: file name must be '{entry.entry_id}.json' (its entry_id)")
    return entry


def json_files(folder: Path, what: str) -> list[Path]:
    """The ``*.json`` files of ``folder``, sorted; one error when it is no folder (``no such <what> folder``)."""
    if not folder.is_dir():
        raise PolibenchError(f"{folder}: no such {what} folder")
    return sorted(folder.glob("*.json"))


def entry_paths(entries_dir: Path) -> list[Path]:
    return json_files(entries_dir, "entries")
