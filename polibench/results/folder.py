"""A finished run folder as one object: its results document and its samples, each read on first use."""

from __future__ import annotations

from functools import cached_property
from pathlib import Path

from polibench.hashing import file_sha256
from polibench.records import Sample
from polibench.results.document import ResultsDocument
from polibench.results.files import RESULTS, SAMPLES, read_results, read_samples


class RunFolder:
    """``results.json`` (migrated to the current layout) and ``samples.jsonl`` of one run, read lazily: a
    command that needs only the document never parses the samples. A missing or malformed file is one
    :class:`~polibench.errors.PolibenchError` naming it, raised when it is first read. ``label``: the name a
    command shows for the run (``shift`` gives each run one)."""

    def __init__(self, path: Path | str, label: str = ""):
        self.path = Path(path)
        self.label = label

    def __repr__(self) -> str:
        return f"RunFolder({str(self.path)!r})"

    @cached_property
    def document(self) -> ResultsDocument:
        return read_results(self.path)

    @cached_property
    def samples(self) -> list[Sample]:
        return read_samples(self.path / SAMPLES)

    def read(self) -> RunFolder:
        """Read both files now, so that a command needing both fails on a broken run before it computes."""
        _ = self.document, self.samples
        return self

    def task_samples(self, task: str) -> list[Sample]:
        """The samples of one task, in stored order."""
        return [s for s in self.samples if s.task == task]

    def results_sha256(self) -> str:
        """The SHA-256 of results.json as it is on disk."""
        return file_sha256(self.path / RESULTS)

    def samples_sha256(self) -> str:
        """The SHA-256 of samples.jsonl as it is on disk."""
        return file_sha256(self.path / SAMPLES)
