"""Measured speeds, kept in the cache folder, so that a run can say how long it will take before it starts.

``$POLIBENCH_CACHE/speed.json`` maps a key to the last good measurement under it:

- generation: :func:`generation_key` of a backend identity (:mod:`polibench.models.identity`, the same
  identity the response cache uses, so another model file, batch size or llama.cpp build is another key) and
  the generation's ``max_new_tokens``; the entry holds seconds and completion tokens per generated response;
- training (the offline stance scorer's first use): a key naming the recipe; seconds per step.

A measurement replaces the one kept when it rests on at least as many units (responses, steps) or on 100 or
more, so a small ``--limit`` run does not overwrite a full run's figure, and the figure follows the machine.
The file is written whole to a temporary file and renamed (a reader never sees half of it); a file that
cannot be read or written costs the ETA only, never the run.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Optional

from polibench.kit.files import atomic_write_text
from polibench.paths import cache_dir

FILE = "speed.json"
ENOUGH = 100  # units of a measurement that always replaces the kept one


@dataclass(frozen=True)
class Speed:
    """``seconds`` per unit (a generated response, a training step), measured over ``units`` of them."""

    seconds: float
    units: int
    measured: str  # UTC date and time
    tokens: Optional[float] = None  # completion tokens per response, where the backend reports them
    what: str = ""  # a readable name of what was measured

    def describe(self, unit: str) -> str:
        return f"{self.seconds:.2f} s per {unit}, measured on {self.units} {unit}s on {self.measured}"


def generation_key(identity: dict, max_new_tokens: int) -> str:
    text = json.dumps({"identity": identity, "max_new_tokens": max_new_tokens}, sort_keys=True, default=str)
    return "generate:" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def speed_path(folder: Optional[Path] = None) -> Path:
    return (folder or cache_dir()) / FILE


def _load(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def read_speed(key: str, folder: Optional[Path] = None) -> Optional[Speed]:
    entry = _load(speed_path(folder)).get(key)
    try:
        return Speed(**entry) if isinstance(entry, dict) else None
    except TypeError:
        return None


def record_speed(key: str, seconds: float, units: int, tokens: Optional[float] = None, what: str = "",
                 folder: Optional[Path] = None) -> Optional[Speed]:
    """Keep this measurement under ``key`` (see the module docstring for when it replaces the kept one);
    returns what is kept now, or None when the file cannot be written."""
    if units < 1 or seconds <= 0:
        return read_speed(key, folder)
    path = speed_path(folder)
    data = _load(path)
    new = Speed(seconds=float(f"{seconds / units:.4g}"), units=units,
                tokens=None if tokens is None else round(tokens, 1),
                measured=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), what=what)
    old = data.get(key)
    if isinstance(old, dict) and units < min(int(old.get("units", 0)), ENOUGH):
        return read_speed(key, folder)
    data[key] = asdict(new)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, json.dumps(data, indent=1, sort_keys=True))
    except OSError:
        return None
    return new
