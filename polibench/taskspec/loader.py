"""Read YAML files from ``tasks/`` (and ``--include-path`` folders) into a :class:`TaskRegistry`.

The first key of a file names its kind (``instrument:``, ``variant_set:`` or ``task:``). Validation
errors become one :class:`SpecError` naming the file and, for each problem, the field path (or line and
column) and what was expected; the CLI prints it and exits 2.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Optional

from pydantic import BaseModel, ValidationError

from polibench.errors import SpecError
from polibench.paths import builtin_tasks_dir
from polibench.taskspec.schema import Instrument, TaskConfig, VariantSet
from polibench.taskspec.yaml_file import read_yaml, validation_problems

KINDS: dict[str, type[BaseModel]] = {"instrument": Instrument, "variant_set": VariantSet, "task": TaskConfig}
IGNORED_KINDS = ("fairness_task", "corpus")  # read by polibench.fairness.spec / polibench.pretrain.corpus


def parse_file(path: Path) -> Optional[BaseModel]:
    """Parse and validate one YAML file, choosing the schema from its kind key (None for an ignored kind).

    Every schema problem of the file is reported at once, in one :class:`SpecError`."""
    data = read_yaml(path)
    if not isinstance(data, dict):
        raise SpecError(str(path), "(top level)", "a mapping with one of the keys " + ", ".join(KINDS))
    kind = next(iter(data), None)
    if kind in IGNORED_KINDS:
        return None
    if kind not in KINDS:
        raise SpecError(str(path), str(kind), "the first key to name the file's kind: " + ", ".join(KINDS))
    schema = KINDS[kind]
    try:
        return schema.model_validate(data)
    except ValidationError as exc:
        raise SpecError.from_problems(str(path), validation_problems(exc)) from None
    except RecursionError:
        raise SpecError(str(path), "(file)", "YAML nested less deeply (too many levels to validate)") from None


@dataclass
class TaskRegistry:
    """Everything found in the task folders, by name, with the file each came from."""

    instruments: dict[str, Instrument] = field(default_factory=dict)
    variant_sets: dict[str, VariantSet] = field(default_factory=dict)
    tasks: dict[str, TaskConfig] = field(default_factory=dict)
    sources: dict[tuple[str, str], Path] = field(default_factory=dict)

    def add(self, spec: BaseModel, path: Path) -> None:
        if isinstance(spec, Instrument):
            self.instruments[self._claim("instrument", spec.instrument, path)] = spec
        elif isinstance(spec, VariantSet):
            self.variant_sets[self._claim("variant_set", spec.variant_set, path)] = spec
        elif isinstance(spec, TaskConfig):
            self.tasks[self._claim("task", spec.task, path)] = spec
        else:
            raise TypeError(f"not a task, instrument or variant set: {type(spec).__name__}")

    def _claim(self, kind: str, name: str, path: Path) -> str:
        """Record that ``path`` defines the ``kind`` called ``name``; one clear error if another file did."""
        if (kind, name) in self.sources:
            raise SpecError(str(path), kind, f"a unique name; '{name}' is already defined in "
                                             f"{self.sources[(kind, name)]}")
        self.sources[(kind, name)] = path
        return name

    def check_references(self) -> None:
        """Every task must name instruments and a variant set that exist."""
        for name, task in self.tasks.items():
            path = str(self.sources[("task", name)])
            for inst in task.instruments:
                if inst not in self.instruments:
                    raise SpecError(path, "instrument", f"one of {sorted(self.instruments)} (got '{inst}')")
            for pairing in task.compare_with:
                if pairing.task not in self.tasks or pairing.task == name:
                    raise SpecError(path, "compare_with", f"another task's name (got '{pairing.task}')")
            if task.variant_set not in self.variant_sets:
                raise SpecError(path, "variant_set", f"one of {sorted(self.variant_sets)} (got '{task.variant_set}')")
            for inst in task.instruments:
                for form in task.forms:
                    if form == "original":
                        continue
                    missing = [i.id for i in self.instruments[inst].items if getattr(i.forms, form) is None]
                    if missing:
                        raise SpecError(path, "forms", f"every item of '{inst}' to have a '{form}' form; "
                                                       f"missing on {missing[:5]}")

    def task(self, name: str) -> TaskConfig:
        if name not in self.tasks:
            from polibench.errors import PolibenchError

            raise PolibenchError(f"unknown task '{name}'; available: {', '.join(sorted(self.tasks))}")
        return self.tasks[name]


def load_registry(include_paths: Iterable[str | Path] = ()) -> TaskRegistry:
    """Load the built-in tasks, the task folders of installed plugins (:func:`polibench.plugins.task_folders`)
    and any user folders (searched recursively for ``*.yaml``/``*.yml``)."""
    from polibench.plugins import task_folders

    registry = TaskRegistry()
    include_paths = list(include_paths)
    if any(not str(p).strip() for p in include_paths):  # Path("") is the current folder: never meant
        raise SpecError("''", "--include-path", "an existing folder of task YAML files, not an empty path")
    folders = [builtin_tasks_dir(), *task_folders(), *[Path(p) for p in include_paths]]
    for folder in folders:
        if not folder.is_dir():
            raise SpecError(str(folder), "--include-path", "an existing folder of task YAML files")
        files = sorted([*folder.rglob("*.yaml"), *folder.rglob("*.yml")])
        for path in files:
            spec = parse_file(path)
            if spec is not None:
                registry.add(spec, path)
    registry.check_references()
    return registry
