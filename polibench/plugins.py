"""Packages that extend polibench: entry-point groups, read once per process, as lm-eval and Inspect do.

A plugin package declares, in its ``pyproject.toml`` (see docs/architecture.md, "Plugins")::

    [project.entry-points."polibench.backends"]   # name = "module:BackendClass"
    [project.entry-points."polibench.scorers"]    # name = "module:ScorerClass"
    [project.entry-points."polibench.metrics"]    # name = "module:METRIC" (a polibench.metrics.registry.Metric)
    [project.entry-points."polibench.run_metrics"]  # name = "module:METRIC" (a polibench.metrics.run_level.RunMetric)
    [project.entry-points."polibench.tasks"]      # name = "module:tasks_dir" (a folder of task YAML files,
                                                  #   or a function returning one)

Backends and scorers are recorded by their ``module:Class`` string and imported only when chosen, like the
built-in ones; metrics, run-level metrics and task folders are imported when their registry is first used. A
plugin never replaces a built-in of the same name.
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import Any

from polibench.errors import PolibenchError

GROUPS = ("backends", "scorers", "metrics", "run_metrics", "tasks")


def _group(kind: str) -> str:
    if kind not in GROUPS:
        raise ValueError(f"unknown plugin kind '{kind}' (one of {', '.join(GROUPS)})")
    return f"polibench.{kind}"


@cache
def declared(kind: str) -> tuple[EntryPoint, ...]:
    """The entry points of group ``polibench.<kind>`` of every installed distribution, by name (read once)."""
    found = {ep.name: ep for ep in entry_points(group=_group(kind))}
    return tuple(found[name] for name in sorted(found))


def targets(kind: str) -> dict[str, str]:
    """``{name: "module:attr"}`` of the plugins of ``kind``, nothing imported (backends and scorers)."""
    return {ep.name: ep.value for ep in declared(kind)}


def load_group(kind: str) -> dict[str, Any]:
    """``{name: object}``: each plugin of ``kind`` imported; one clear error naming a plugin that fails to load."""
    out = {}
    for ep in declared(kind):
        try:
            out[ep.name] = ep.load()
        except Exception as exc:  # a broken plugin: name it instead of a traceback from deep inside polibench
            raise PolibenchError(f"polibench plugin '{ep.name}' ({_group(kind)} = {ep.value}) cannot be loaded: "
                                 f"{type(exc).__name__}: {exc}") from None
    return out


def task_folders() -> list[Path]:
    """The task folders of installed plugins (entry-point group ``polibench.tasks``), in name order."""
    folders = []
    for name, found in load_group("tasks").items():
        folder = Path(found() if callable(found) else found)
        if not folder.is_dir():
            raise PolibenchError(f"polibench plugin '{name}' (polibench.tasks) names {folder}, which is not a folder")
        folders.append(folder)
    return folders
