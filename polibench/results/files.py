"""Write and read a run folder without ever leaving a half-written result behind.

Samples are appended to ``samples.jsonl.partial`` (flushed per chunk) while the run goes; only a finished
run renames it to ``samples.jsonl``. ``results.json`` and ``report.md`` are written to a temporary file and
renamed into place.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Iterable

from pydantic import ValidationError

from polibench.errors import PolibenchError
from polibench.hashing import file_sha256
from polibench.kit.files import atomic_write_text
from polibench.kit.jsonl import field_error, jsonl_lines
from polibench.kit.strict import first_error
from polibench.records import Sample
from polibench.results.document import ResultsDocument
from polibench.results.migrate import migrate

SAMPLES = "samples.jsonl"
RESULTS = "results.json"
REPORT = "report.md"
SHARD = "shard.json"  # a shard folder's manifest (polibench.results.shard)


class SampleSink:
    """Appends finished samples to the run's partial samples file; :meth:`finish` publishes it."""

    def __init__(self, run_dir: Path):
        self.run_dir = run_dir
        run_dir.mkdir(parents=True, exist_ok=True)
        self.partial = run_dir / (SAMPLES + ".partial")
        self.partial.unlink(missing_ok=True)

    def write(self, samples: Iterable[Sample]) -> None:
        with open(self.partial, "a", encoding="utf-8") as handle:
            for s in samples:
                handle.write(s.model_dump_json() + "\n")
            handle.flush()
            os.fsync(handle.fileno())

    def finish(self) -> Path:
        final = self.run_dir / SAMPLES
        os.replace(self.partial, final)
        return final


def write_samples(run_dir: Path, samples: Iterable[Sample]) -> Path:
    sink = SampleSink(run_dir)
    sink.write(samples)
    return sink.finish()


def read_samples(path: Path) -> list[Sample]:
    if not path.is_file():
        raise PolibenchError(f"{path}: no such file (is this a finished polibench run folder?)")
    return parse_samples(path.read_bytes(), str(path))


def parse_samples(data: bytes, path: str) -> list[Sample]:
    """The samples of a samples.jsonl's bytes (``path`` names it in errors)."""
    out = []
    for number, line in jsonl_lines(data, path):
        try:
            out.append(Sample.model_validate_json(line))
        except ValidationError as exc:
            raise field_error(path, number, *first_error(exc, "(line)")) from None
    return out


def write_results(run_dir: Path, document: ResultsDocument) -> Path:
    """Write results.json, recording the SHA-256 of the run's samples.jsonl (``samples_sha256``) when it
    exists, so that a leaderboard submission can tell that the samples are the ones scored."""
    path = run_dir / RESULTS
    samples = run_dir / SAMPLES
    if samples.is_file():
        document = document.model_copy(update={"samples_sha256": file_sha256(samples)})
    atomic_write_text(path, document.to_json())
    return path


def read_results(run_dir: Path) -> ResultsDocument:
    """The run's results.json as the current :class:`ResultsDocument` (older layouts are migrated)."""
    path = run_dir / RESULTS
    if not path.is_file() and (run_dir / SHARD).is_file():
        raise PolibenchError(f"{run_dir}: a shard of a run (`polibench run --shard`), which has no results; merge "
                             "all its shards with `polibench merge SHARD... --output RUN` first")
    if not path.is_file():
        raise PolibenchError(f"{path}: no such file (is this a finished polibench run folder?)")
    return migrate(parse_json(path.read_bytes(), str(path)), str(path))


def parse_json(data: bytes, path: str):
    """A JSON document's bytes, parsed, or one clear error naming ``path``."""
    try:
        return json.loads(data.decode("utf-8"))
    except json.JSONDecodeError as exc:
        raise PolibenchError(f"{path}: not valid JSON ({exc})") from None
    except UnicodeDecodeError as exc:
        raise PolibenchError(f"{path}: expected UTF-8 JSON (byte {exc.start + 1} is not valid UTF-8)") from None
