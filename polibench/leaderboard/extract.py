"""The ONE place that reads the layout of a run's results.json for the leaderboard.

Everything else in :mod:`polibench.leaderboard` sees the :class:`~polibench.leaderboard.schema.TaskResult`
summaries made here. Confidence intervals, per-prefix breakdowns and the samples hash are optional: when
the metrics stage does not write them, the entry simply has none. If the results layout changes, this
module is the one to adapt.
"""

from __future__ import annotations

import hashlib
import json
import math
from typing import Any, Optional

from polibench.leaderboard.schema import CoverageSummary, Metric, TaskResult

FAULBORN_KEYS = ("economic", "cultural", "total")


def _number(value: Any) -> Optional[float]:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    return float(value)


def _interval(value: Any) -> Optional[list[float]]:
    if isinstance(value, dict):
        value = [value.get("low", value.get("lo")), value.get("high", value.get("hi"))]
    if isinstance(value, (list, tuple)) and len(value) == 2:
        low, high = _number(value[0]), _number(value[1])
        if low is not None and high is not None:
            return [low, high]
    return None


def metric(block: Any, key: str) -> Optional[Metric]:
    """``block[key]`` with its CI, accepting the layouts the metrics stage may use:
    ``{key: x, "ci": {key: [lo, hi]}}``, ``{key: x, key + "_ci": [lo, hi]}`` or
    ``{key: {"value": x, "ci": [lo, hi]}}``."""
    if not isinstance(block, dict) or key not in block:
        return None
    raw = block[key]
    if isinstance(raw, dict):
        value = _number(raw.get("value", raw.get("estimate", raw.get("mean"))))
        ci = _interval(raw.get("ci"))
    else:
        value = _number(raw)
        cis = block.get("ci")
        ci = _interval(cis.get(key)) if isinstance(cis, dict) else None
        if ci is None:
            ci = _interval(block.get(f"{key}_ci"))
    return Metric(value=value, ci=ci)


def _faulborn(block: Any) -> dict[str, Metric]:
    out = {}
    for key in FAULBORN_KEYS:
        m = metric(block, key)
        if m is not None:
            out[key] = m
    return out


def _per_prefix(task_block: dict) -> dict[str, dict[str, Metric]]:
    """Per-prefix (per prompt variant) breakdown of the Faulborn bias and PCT coordinates, when present."""
    found = task_block.get("per_prefix")
    if not isinstance(found, dict):
        bias = task_block.get("faulborn_bias")
        found = bias.get("per_prefix") if isinstance(bias, dict) else None
    if not isinstance(found, dict):
        return {}
    out = {}
    for prefix, block in found.items():
        if isinstance(block, dict):
            inner = block.get("faulborn_bias", block)
            metrics = _faulborn(inner)
            for key in ("economic", "social"):
                pct = block.get("pct")
                if isinstance(pct, dict) and key in pct:
                    metrics[f"pct_{key}"] = metric(pct, key)
            if metrics:
                out[str(prefix)] = metrics
    return out


def _coverage(block: dict) -> CoverageSummary:
    return CoverageSummary(items=int(block.get("items", 0)), items_answered=int(block.get("items_answered", 0)),
                           responses=int(block.get("responses", 0)),
                           responses_kept=int(block.get("responses_kept", 0)),
                           kept_share=float(block.get("kept_share", 0.0)))


def spec_sha256(config: dict, instruments: dict[str, dict]) -> str:
    """Hash of a task's config and the instruments it reads, normalised through the task schema."""
    from polibench.taskspec.schema import Instrument, TaskConfig

    task = TaskConfig.model_validate(config)
    payload = {"config": task.model_dump(mode="json", by_alias=True),  # by_alias: the spec hash keeps "variants"
               "instruments": {n: Instrument.model_validate(instruments[n]).model_dump(mode="json", exclude_none=True)
                               for n in task.instruments}}
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def task_result(name: str, document: dict, block: dict) -> TaskResult:
    """The leaderboard summary of ``block`` (a ``results[name]`` block) of the run ``document``."""
    config = document["configs"][name]
    instruments = config["instrument"] if isinstance(config["instrument"], list) else [config["instrument"]]
    run = document.get("run") or {}
    generation = config.get("generation") or {}
    scoring = (document.get("scoring") or {}).get(name, {})
    pct = block.get("pct") if isinstance(block.get("pct"), dict) else {}
    per_variant = {str(v): {k: _number(c.get(k)) for k in ("economic", "social")}
                   for v, c in (pct.get("per_variant") or {}).items() if isinstance(c, dict)}
    return TaskResult(
        name=name, version=int(document.get("versions", {}).get(name, config.get("version", 1))),
        instruments=instruments, variant_set=str(config.get("variant_set", config.get("variants", ""))),
        forms=list(config.get("forms") or ["original"]),
        seed=int(run["seed"] if run.get("seed") is not None else generation.get("seed", 0)),
        samples_per_prompt=int(run.get("samples_per_prompt") or generation.get("samples", 1)),
        scorer=scoring.get("scorer"), threshold=_number(scoring.get("threshold")),
        spec_sha256=spec_sha256(config, document["instruments"]),
        economic=metric(pct, "economic"), social=metric(pct, "social"),
        faulborn_bias=_faulborn(block.get("faulborn_bias")),
        coverage=_coverage(block.get("coverage") or {}),
        per_variant=per_variant, per_prefix=_per_prefix(block),
    )


def task_results(document: dict, results: dict) -> list[TaskResult]:
    """Summaries of every task, from the run's document and a ``results`` block (stored or recomputed)."""
    return [task_result(name, document, results[name]) for name in document["configs"]]


def stored_samples_sha256(document: dict) -> Optional[str]:
    """The samples hash the run recorded about itself, if its results.json has one."""
    for holder in (document, document.get("files") or {}, document.get("run") or {}):
        for key in ("samples_sha256", "samples.jsonl"):
            value = holder.get(key) if isinstance(holder, dict) else None
            if isinstance(value, dict):
                value = value.get("sha256")
            if isinstance(value, str) and len(value) == 64:
                return value.lower()
    return None


def model_identity(document: dict) -> tuple[Optional[str], str, Optional[str], dict]:
    """(model as the backend named it, backend, revision, backend args) from the run document."""
    model = document.get("model") or {}
    args = dict(model.get("model_args") or {})
    revision = args.get("revision") or model.get("revision") or model.get("gguf_sha256")
    return model.get("model"), str(model.get("backend", "unknown")), revision, args
