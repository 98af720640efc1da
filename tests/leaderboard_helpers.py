"""Helpers for the leaderboard tests: real run folders from a scripted backend, in milliseconds.

The run goes through the real evaluator (request building, lexical scoring, metrics, results files); only
the model is replaced by a backend that answers from a script, so the numbers are real and recomputable.
"""

from __future__ import annotations

import functools
import gzip
import json
import shutil
from pathlib import Path
from typing import Optional
from unittest import mock

from polibench.models.mock import MockBackend

ANSWERS = ("I agree with this statement.", "I disagree with this.", "I strongly agree.", "I do not agree at all.",
           "Hmm, hard to say.")


class ScriptedBackend(MockBackend):
    """The ``mock`` backend answering ``ANSWERS[(seed + shift) % len]`` under its own name, and recording any
    further arguments as its model args (the submit tests check that secrets among them are scrubbed)."""

    name = "scripted"

    def __init__(self, model: str, shift: int = 0, **args):
        super().__init__(model, responses=list(ANSWERS), shift=shift)
        self.model_args.update(args)


def make_run(run_dir: Path, model: str = "org/tiny-model", shift: int = 0, tasks=("pct",), limit: int = 6,
             samples: int = 2, model_args: Optional[dict] = None) -> Path:
    from polibench.pipeline.run import RunOptions, evaluate

    backend = ScriptedBackend(model, shift=shift, **(model_args or {}))
    options = RunOptions(limit=limit, samples_per_prompt=samples, scorer="lexical", threshold=0.5,
                         show_progress=False, command=["test"])
    # report.md and its figures: not needed
    with mock.patch("polibench.pipeline.write.write_report", lambda *a, **k: None):
        evaluate(list(tasks), _registry(), backend, run_dir, options)
    return run_dir


@functools.lru_cache(maxsize=1)
def _registry():
    from polibench.taskspec.loader import load_registry

    return load_registry()


def edit_json(path: Path, change) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data, indent=2))


def edit_gz_lines(path: Path, change) -> None:
    """Rewrite a gzipped JSONL file, passing each parsed line through ``change`` (which edits in place)."""
    lines = [json.loads(line) for line in gzip.decompress(path.read_bytes()).decode().splitlines() if line.strip()]
    for i, record in enumerate(lines):
        change(i, record)
    path.write_bytes(gzip.compress(("".join(json.dumps(r) + "\n" for r in lines)).encode()))


XSS_IMG = '<img src=x onerror="window.__xss=1">'
XSS_SCRIPT = "</script><script>window.__xss=2</script>"


_ENTRIES: list[Path] = []


def make_entries(base: Path) -> Path:
    """Entries of three scripted models (one with a Faulborn task) and two whose ids are HTML injections.
    Made once per test session and copied to ``base/entries`` for later callers."""
    from polibench.cli.main import main

    entries = base / "entries"
    if _ENTRIES and _ENTRIES[0].is_dir():
        shutil.copytree(_ENTRIES[0], entries)
        return entries
    runs = [(make_run(base / "run-a", model="org/alpha-7b", shift=0), None),
            (make_run(base / "run-b", model="org/beta-1b", shift=2), None),
            (make_run(base / "run-c", model="org/gamma-2b", shift=1, tasks=("faulborn30",), limit=3, samples=1), None)]
    runs += [(make_run(base / "run-d", model="x", shift=3, limit=5), XSS_IMG),
             (make_run(base / "run-e", model="y", shift=4, limit=5), XSS_SCRIPT)]
    for run, model_id in runs:
        extra = ["--model-id", model_id] if model_id else []
        assert main(["submit", str(run), "--entries", str(entries), "--allow-partial", *extra]) == 0
    _ENTRIES[:] = [entries]
    return entries
