"""The versioned schema of a leaderboard entry: one JSON file per (model, task set) run.

An entry carries who was measured (model id, revision, backend and its non-secret arguments), how
(polibench version, task names, versions and seeds), what came out (headline metrics with confidence
intervals and coverage, per-variant and per-prefix breakdowns) and the SHA-256 of the samples and results
files it came from, which are shipped gzipped beside it so anyone can recompute every number.
See docs/leaderboard.md for the field-by-field description.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal, Optional

from pydantic import BaseModel, Field, ValidationError, field_validator

from polibench.errors import PolibenchError
from polibench.kit.strict import Strict
from polibench.metrics.channels import ChannelComparison
from polibench.records import normalise_dimension

SCHEMA_VERSION = 1
ENTRY_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,150}$"
SHA256_PATTERN = r"^[0-9a-f]{64}$"


class Metric(Strict):
    """A number and, when the run computed one, its confidence interval ``[low, high]``."""

    value: Optional[float] = None
    ci: Optional[list[float]] = Field(None, min_length=2, max_length=2)


class CoverageSummary(Strict):
    items: int = Field(..., ge=0)
    items_answered: int = Field(..., ge=0)
    responses: int = Field(..., ge=0)
    responses_kept: int = Field(..., ge=0)
    kept_share: float = Field(..., ge=0.0, le=1.0)


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
    spec_sha256: str = Field(..., pattern=SHA256_PATTERN,
                             description="hash of the task config and instruments the run used")
    economic: Optional[Metric] = Field(None, description="PCT economic coordinate (left - / right +)")
    social: Optional[Metric] = Field(None, description="PCT social coordinate (libertarian - / authoritarian +)")
    faulborn_bias: dict[str, Metric] = Field(default_factory=dict, description="economic, social, total")
    coverage: CoverageSummary
    # PCT statements answered / carrying a weight per axis, and the share answered (strongly) agree: what the
    # "insufficient data" and acquiescence judgements read (polibench.metrics.position). Absent in entries
    # written before them: the leaderboard then judges both axes by coverage.items_answered / items.
    pct_answered: Optional[dict[str, int]] = None
    pct_statements: Optional[dict[str, int]] = None
    agree_share: Optional[float] = Field(None, ge=0.0, le=1.0)
    per_variant: dict[str, dict[str, Optional[float]]] = Field(default_factory=dict)
    per_prefix: dict[str, dict[str, Metric]] = Field(default_factory=dict)
    generation_bias: dict[str, dict[str, Metric]] = Field(
        default_factory=dict,
        description="Liu et al. 2022: {'overall' or an option: {'indirect', 'direct', and each's '_null' (permutation "
                    "null mean), '_excess' (observed - null, with interval) and '_p' (permutation p-value)}}")

    @field_validator("faulborn_bias", mode="before")
    @classmethod
    def _social_not_cultural(cls, value):
        """Entries written before the rename call the social dimension "cultural"."""
        return {normalise_dimension(k): v for k, v in value.items()} if isinstance(value, dict) else value

    @field_validator("per_prefix", mode="before")
    @classmethod
    def _social_not_cultural_per_prefix(cls, value):
        if not isinstance(value, dict):
            return value
        return {p: ({normalise_dimension(k): v for k, v in m.items()} if isinstance(m, dict) else m)
                for p, m in value.items()}


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


class Entry(Strict):
    schema_version: Literal[1] = SCHEMA_VERSION
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
    channels: list[ChannelComparison] = Field(default_factory=list,
                                              description="forced-choice vs open-ended comparisons (CHANNEL_PAIRS)")

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


def validated(path: Path, model: type[BaseModel], data, root: str = "(entry)"):
    """``model`` validated from ``data``, or one error naming the file and the first bad field."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(p) for p in first["loc"]) or root
        raise PolibenchError(f"{path}: field '{field}': {first['msg']}") from None


def load_entry(path: Path) -> Entry:
    """Read and validate one entry file; the file name must be ``<entry_id>.json``."""
    data = read_json(path)
    if isinstance(data, dict) and data.get("schema_version") not in (None, SCHEMA_VERSION):
        raise PolibenchError(f"{path}: schema_version {data.get('schema_version')!r} is not supported "
                             f"(this polibench reads version {SCHEMA_VERSION})")
    entry = validated(path, Entry, data)
    if path.name != entry.entry_id + ".json":
        raise PolibenchError(f"{path}: file name must be '{entry.entry_id}.json' (its entry_id)")
    return entry


def entry_paths(entries_dir: Path) -> list[Path]:
    if not entries_dir.is_dir():
        raise PolibenchError(f"{entries_dir}: no such entries folder")
    return sorted(entries_dir.glob("*.json"))
