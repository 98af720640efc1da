"""The spec catalogue: every kind of YAML file under ``tasks/`` (and ``--include-path`` folders), its schema,
and the one walker that finds the files of a kind.

One rule names a file's kind: **its first key** (``task:``, ``instrument:``, ``translation:``, ``variant_set:``,
``fairness_task:``, ``corpus:``). :data:`KINDS` lists every kind and the package that reads it, so a reader
can skip another package's files without importing that package; each package registers the schema of its
kinds with :func:`register_kind`, and :func:`validate` turns every schema problem of a file into one
:class:`SpecError`. The walker reads only the first YAML events of a file to learn its kind; a file is parsed
in full when its kind is asked for.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Iterable, Optional, Union

import yaml
from pydantic import BaseModel, ValidationError

from polibench.errors import SpecError
from polibench.kit.registry import Registry, families
from polibench.paths import builtin_tasks_dir
from polibench.taskspec.yaml_file import read_yaml, validation_problems

# every kind of file in the task folders, with the package that reads it
KINDS: dict[str, str] = {
    "instrument": "polibench.taskspec",
    "translation": "polibench.taskspec",
    "variant_set": "polibench.taskspec",
    "task": "polibench.taskspec",
    "fairness_task": "polibench.fairness",
    "corpus": "polibench.pretrain",
}
SCHEMAS: dict[str, type[BaseModel]] = {}
SUFFIXES = ("*.yaml", "*.yml")


@dataclass
class SpecFile:
    """One YAML file of the task folders and its kind (its first key; None when the file does not start as a
    mapping). The content is parsed, strictly, the first time :attr:`data` is asked for."""

    kind: Optional[str]
    path: Path

    @cached_property
    def data(self) -> Any:
        return read_yaml(self.path)


def register_kind(kind: str, schema: type[BaseModel], reader: Optional[str] = None) -> None:
    """Declare the schema of ``kind`` (a new kind also names the package that reads it)."""
    KINDS.setdefault(kind, reader or schema.__module__)
    SCHEMAS[kind] = schema


def first_key(path: Path) -> Optional[str]:
    """The first key of the file's top-level mapping, read from the first YAML events only (the rule that
    names a file's kind); None for a file that is not a mapping or cannot be read that far."""
    try:
        with open(path, encoding="utf-8") as handle:
            events = yaml.parse(handle, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # libyaml when there
            for event in events:
                if isinstance(event, (yaml.StreamStartEvent, yaml.DocumentStartEvent)):
                    continue
                if not isinstance(event, yaml.MappingStartEvent):
                    return None
                key = next(events)
                return key.value if isinstance(key, yaml.ScalarEvent) else None
    except (OSError, UnicodeDecodeError, yaml.YAMLError, StopIteration):
        return None
    return None


def read_spec_file(path: Path) -> SpecFile:
    """``path`` with its kind (see :func:`first_key`)."""
    return SpecFile(kind=first_key(Path(path)), path=Path(path))


def _folder(name: str, found: Any) -> Path:
    """What a plugin's task-folder entry names: a folder, or a function returning one."""
    folder = Path(found() if callable(found) else found)
    if not folder.is_dir():
        raise ValueError(f"names {folder}, which is not a folder")
    return folder


# The task folders of installed plugin packages (entry-point group ``polibench.tasks``: a folder of task YAML
# files, or a function returning one), by name.
TASK_FOLDERS: Registry[Path] = Registry("task folder", group="tasks", check=_folder)


def task_folders() -> list[Path]:
    """The task folders of installed families (:attr:`polibench.kit.registry.Family.tasks`, in their order) and of
    plugin packages (group ``polibench.tasks``, in name order)."""
    return [f.tasks for f in families() if f.tasks is not None] + [folder for _, folder in TASK_FOLDERS.items()]


def spec_folders(include_paths: Iterable[Union[str, Path]] = (), builtin: bool = True) -> list[Path]:
    """The built-in ``tasks/`` folder, the task folders of installed plugins (:func:`task_folders`) and the
    include paths, each checked to be a folder."""
    include_paths = list(include_paths)
    if any(not str(p).strip() for p in include_paths):  # Path("") is the current folder: never meant
        raise SpecError("''", "--include-path", "an existing folder of task YAML files, not an empty path")
    folders = ([builtin_tasks_dir(), *task_folders()] if builtin else []) + [Path(p) for p in include_paths]
    for folder in folders:
        if not folder.is_dir():
            raise SpecError(str(folder), "--include-path", "an existing folder of task YAML files")
    return folders


def walk(include_paths: Iterable[Union[str, Path]] = (), kinds: Optional[Iterable[str]] = None,
         builtin: bool = True) -> list[SpecFile]:
    """Every YAML file under the task folders (recursively, sorted per folder), or only those of ``kinds``."""
    wanted = set(kinds) if kinds is not None else None
    found = []
    for folder in spec_folders(include_paths, builtin):
        for path in sorted(p for pattern in SUFFIXES for p in folder.rglob(pattern)):
            spec = read_spec_file(path)
            if wanted is None or spec.kind in wanted:
                found.append(spec)
    return found


def check_kind(spec: SpecFile, expected: Optional[str] = None) -> str:
    """The file's kind, which must be a catalogued one (and ``expected`` when given)."""
    data = spec.data  # a file that cannot be parsed is one SpecError naming the line and column
    if not isinstance(data, dict) or not data:
        raise SpecError(str(spec.path), "(top level)", "a mapping with one of the keys " + ", ".join(KINDS))
    kind = str(next(iter(data)))
    if expected is not None and kind != expected:
        raise SpecError(str(spec.path), "(top level)", f"a mapping whose first key is '{expected}'")
    if kind not in KINDS:
        raise SpecError(str(spec.path), kind, "the first key to name the file's kind: " + ", ".join(KINDS))
    return kind


def validate(spec: SpecFile, expected: Optional[str] = None) -> BaseModel:
    """The file validated against its kind's registered schema; every problem at once in one SpecError."""
    kind = check_kind(spec, expected)
    if kind not in SCHEMAS:
        raise SpecError(str(spec.path), kind, f"a kind read by {KINDS[kind]} (its schema is not registered)")
    try:
        return SCHEMAS[kind].model_validate(spec.data)
    except ValidationError as exc:
        raise SpecError.from_problems(str(spec.path), validation_problems(exc)) from None
    except RecursionError:
        raise SpecError(str(spec.path), "(file)", "YAML nested less deeply (too many levels to validate)") from None
