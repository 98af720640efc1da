"""A shard folder: one machine's share of a run (``polibench run --shard i/N``), to be merged by ``polibench merge``.

A shard folder holds ``samples.jsonl`` (its share of the samples, with their responses and **no stance**: the
merge scores every response once, in plan order, as the unsharded run would) and ``shard.json`` (the
:class:`ShardManifest`). It holds no results.json and no report.md: no number is computed from a part of a run,
so a shard cannot be mistaken for a result, and ``score``, ``report`` and ``submit`` refuse it with one line.

``shard.json`` is written last (after samples.jsonl is in place), so a folder without it is not a finished
shard. Its ``plan`` is everything the shards of one run must share: the task specs (configs, instruments,
variant sets), the run seed, ``--limit``, samples per prompt, the model (``describe()``, cache identity and the
name filled into prompts) and the stance-scoring options the merge will use. ``plan_sha256`` hashes it.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Iterable, Optional

from polibench.errors import PolibenchError
from polibench.hashing import file_sha256
from polibench.kit.files import atomic_write_text
from polibench.kit.strict import Strict, validated
from polibench.records import Sample
from polibench.results.files import RESULTS, SAMPLES, SHARD, parse_json, write_samples

FORMAT = "polibench.shard"
VERSION = 1


def plan_sha256(plan: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(plan, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
                          .encode("utf-8")).hexdigest()


class ShardManifest(Strict):
    """``shard.json``: which shard this is, the plan it is a share of, and what it holds."""

    format: str = FORMAT
    version: int = VERSION
    index: int
    count: int
    plan_sha256: str
    plan: dict[str, Any]
    n_samples: dict[str, int]
    samples_sha256: str
    command: list[str]
    polibench_version: str
    git_hash: Optional[str] = None
    date: str
    python: Optional[str] = None
    packages: dict[str, str] = {}

    @property
    def shard(self) -> str:
        return f"{self.index}/{self.count}"


def write_shard(run_dir: Path, samples: Iterable[Sample], manifest: dict[str, Any]) -> ShardManifest:
    """Write samples.jsonl, then shard.json (recording the samples' SHA-256): the folder is a shard only once
    both are in place."""
    path = write_samples(run_dir, samples)
    document = ShardManifest.model_validate({**manifest, "plan_sha256": plan_sha256(manifest["plan"]),
                                             "samples_sha256": file_sha256(path)})
    atomic_write_text(run_dir / SHARD, document.model_dump_json(indent=2) + "\n")
    return document


def read_manifest(run_dir: Path) -> ShardManifest:
    """A shard folder's shard.json, checked; one error naming the folder when it is not a finished shard."""
    path = run_dir / SHARD
    if not path.is_file():
        if (run_dir / RESULTS).is_file():
            raise PolibenchError(f"{run_dir}: a finished run, not a shard (no {SHARD}; shards are written by "
                                 "`polibench run --shard i/N`)")
        what = "no such folder" if not run_dir.exists() else f"no {SHARD}"
        raise PolibenchError(f"{run_dir}: not a shard folder ({what}; shards are written by "
                             "`polibench run --shard i/N`, and shard.json is written when the shard is finished)")
    data = parse_json(path.read_bytes(), str(path))
    if isinstance(data, dict) and (data.get("format"), data.get("version")) != (FORMAT, VERSION):
        raise PolibenchError(f"{path}: expected format '{FORMAT}' version {VERSION}, got "
                             f"{data.get('format')!r} version {data.get('version')!r}")
    manifest = validated(path, ShardManifest, data, "(document)")
    if (run_dir / RESULTS).is_file():
        raise PolibenchError(f"{run_dir}: holds both {SHARD} and {RESULTS}; a shard folder holds no results")
    if plan_sha256(manifest.plan) != manifest.plan_sha256:
        raise PolibenchError(f"{path}: plan_sha256 does not match its plan (the file was edited)")
    if not (run_dir / SAMPLES).is_file():
        raise PolibenchError(f"{run_dir / SAMPLES}: no such file (the shard's samples are missing)")
    if file_sha256(run_dir / SAMPLES) != manifest.samples_sha256:
        raise PolibenchError(f"{run_dir / SAMPLES}: its SHA-256 is not the one {SHARD} records (the samples were "
                             "changed after the shard was written)")
    return manifest
