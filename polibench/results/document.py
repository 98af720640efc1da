"""The results document (results.json): a typed, versioned pydantic model.

``format`` names the document kind and ``version`` its layout; :func:`polibench.results.migrate.migrate` is the
one function that turns an older layout into this one. ``results[task]`` holds one block per metric, keyed as the
metric registry says (``pct``, ``faulborn_bias``, ``coverage``), plus the task's bootstrap settings;
``run_metrics`` holds the comparisons between tasks and the instrument controls; every other field records what is
needed to recompute those blocks from samples.jsonl (task configs, instruments, variant sets, scorer settings, run
seed) and what produced them (model, software versions)."""

from __future__ import annotations

from typing import Any, Optional

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_serializer, model_validator

from polibench.kit.strict import Strict
from polibench.metrics.blocks import BootstrapSettings, Coverage, EstimateBlock
from polibench.metrics.registry import Metric, metric_for_key
from polibench.metrics.run_level import RunMetrics
from polibench.records import without_absent
from polibench.taskspec.schema import Instrument, TaskConfig

FORMAT = "polibench.results"
VERSION = 2


class TaskResults(BaseModel):
    """``results[task]``: the metric blocks (typed by the registry), coverage and the bootstrap settings."""

    model_config = ConfigDict(extra="allow")

    coverage: Coverage
    bootstrap: BootstrapSettings

    @model_validator(mode="after")
    def _typed_blocks(self) -> TaskResults:
        extra = self.__pydantic_extra__ or {}
        for key, value in list(extra.items()):
            metric = metric_for_key(key)
            if metric is None:
                raise ValueError(f"'{key}' is not the results key of any registered metric")
            try:
                extra[key] = metric.block.model_validate(value)
            except ValidationError as exc:  # name the block in the message: pydantic drops it for extras
                problems = "; ".join(f"{'.'.join(str(p) for p in (key, *e['loc']))}: {e['msg']}"
                                     for e in exc.errors()[:3])
                raise ValueError(problems) from None
        return self

    @model_serializer(mode="wrap")
    def _in_order(self, handler):
        """Metric blocks first (in the order computed), then coverage and bootstrap."""
        data = handler(self)
        return {**{k: v for k, v in data.items() if k not in ("coverage", "bootstrap")},
                "coverage": data["coverage"], "bootstrap": data["bootstrap"]}

    @classmethod
    def from_blocks(cls, blocks: dict[str, BaseModel]) -> TaskResults:
        return cls.model_validate(dict(blocks))

    def block(self, key: str) -> Optional[BaseModel]:
        """The block stored under ``key`` (a metric's key, ``coverage`` or ``bootstrap``), or None."""
        if key in ("coverage", "bootstrap"):
            return getattr(self, key)
        return (self.__pydantic_extra__ or {}).get(key)

    def metrics(self) -> list[tuple[Metric, BaseModel]]:
        """Each metric block with its registered metric, in stored order (coverage included)."""
        out = []
        for key, block in [*(self.__pydantic_extra__ or {}).items(), ("coverage", self.coverage)]:
            metric = metric_for_key(key)
            if metric is not None:
                out.append((metric, block))
        return out

    def estimates(self):
        """``(metric, estimate, value, interval)`` for every headline estimate of every metric block."""
        for metric, block in self.metrics():
            for estimate in metric.estimates:
                if isinstance(block, EstimateBlock):
                    value, interval = block.estimate(estimate.key)
                    yield metric, estimate, value, interval


class RunSettings(Strict):
    """How the run was made. ``imported``: the file its responses were imported from; ``rescored_from``: the run
    whose responses it scored again (``polibench score RUN --scorer X --output NEW``): that folder, the SHA-256
    of its results.json and samples.jsonl, and the scorer of each task there; ``merged_from``: the shard
    folders it was merged from (``polibench merge``): each folder, its shard ``i/N`` and the SHA-256 of its
    samples.jsonl and shard.json."""

    seed: Optional[int] = None
    limit: Optional[int] = None
    # how --limit picked its items ("balanced"; absent: the first N, as runs made before the balanced pick)
    limit_order: Optional[str] = None
    issues: Optional[list[str]] = None   # IssueBench tasks: the issues the run kept (--issues)
    samples_per_prompt: Optional[int] = None
    command: list[str] = Field(default_factory=list)
    imported: Optional[dict[str, Any]] = None
    rescored_from: Optional[dict[str, Any]] = None
    merged_from: Optional[list[dict[str, Any]]] = None

    @model_serializer(mode="wrap")
    def _omit_absent_source(self, handler):
        """A run that was not re-scored, merged or limited to some issues serialises exactly as before those
        fields existed."""
        return without_absent(handler(self), ("rescored_from", "merged_from", "issues", "limit_order"))


class ResultsDocument(Strict):
    """The whole results.json."""

    format: str = FORMAT
    version: int = VERSION
    results: dict[str, TaskResults]
    configs: dict[str, dict[str, Any]]
    versions: dict[str, int]
    instruments: dict[str, dict[str, Any]]
    variant_sets: dict[str, dict[str, Any]]
    scoring: dict[str, dict[str, Any]]
    model: dict[str, Any]
    run: RunSettings = Field(default_factory=RunSettings)
    n_samples: dict[str, int] = Field(default_factory=dict)
    # numbers over two tasks and the instrument controls (polibench.metrics.run_level); empty in older runs
    run_metrics: RunMetrics = Field(default_factory=RunMetrics)
    polibench_version: str
    git_hash: Optional[str] = None
    date: str
    python: Optional[str] = None
    packages: dict[str, str] = Field(default_factory=dict)
    samples_sha256: Optional[str] = None

    @model_validator(mode="after")
    def _known_format(self) -> ResultsDocument:
        if self.format != FORMAT:
            raise ValueError(f"format must be '{FORMAT}' (got '{self.format}')")
        if self.version != VERSION:
            raise ValueError(f"version must be {VERSION} (got {self.version}; older layouts go through migrate())")
        return self

    def task_config(self, task: str) -> TaskConfig:
        return TaskConfig.model_validate(self.configs[task])

    def task_instruments(self) -> dict[str, Instrument]:
        return {name: Instrument.model_validate(spec) for name, spec in self.instruments.items()}

    def results_json(self) -> dict[str, Any]:
        """The ``results`` part as plain JSON values (what recomputation is compared against)."""
        return results_json(self.results)

    def to_json(self) -> str:
        return self.model_dump_json(indent=2) + "\n"


def results_json(results: dict[str, TaskResults]) -> dict[str, Any]:
    """Results per task as plain JSON values: stored and recomputed results are compared in this form."""
    return {task: block.model_dump(mode="json") for task, block in results.items()}
