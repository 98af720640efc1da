"""Read YAML files from ``tasks/`` (and ``--include-path`` folders) into a :class:`TaskRegistry`.

The first key of a file names its kind (``instrument:``, ``translation:``, ``variant_set:`` or ``task:``; the files
of the other kinds in :mod:`polibench.taskspec.catalogue` are skipped). A translation becomes an instrument once
every file is read (:meth:`TaskRegistry.expand_translations`). Validation
errors become one :class:`SpecError` naming the file and, for each problem, the field path (or line and
column) and what was expected; the CLI prints it and exits 2.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Optional

from pydantic import BaseModel

from polibench.errors import SpecError
from polibench.taskspec.catalogue import SpecFile, check_kind, read_spec_file, register_kind, validate, walk
from polibench.taskspec.schema import Instrument, TaskConfig, Translation, VariantSet

TASKSPEC_KINDS = ("instrument", "translation", "variant_set", "task")
register_kind("instrument", Instrument, "polibench.taskspec")
register_kind("translation", Translation, "polibench.taskspec")
register_kind("variant_set", VariantSet, "polibench.taskspec")
register_kind("task", TaskConfig, "polibench.taskspec")


def parse_file(path: Path) -> Optional[BaseModel]:
    """Parse and validate one YAML file, choosing the schema from its kind (its first key); None for a kind
    another package reads (a fairness task, a corpus).

    Every schema problem of the file is reported at once, in one :class:`SpecError`."""
    return _parsed(read_spec_file(path))


def _parsed(spec: SpecFile) -> Optional[BaseModel]:
    return validate(spec) if check_kind(spec) in TASKSPEC_KINDS else None


@dataclass
class TaskRegistry:
    """Everything found in the task folders, by name, with the file each came from."""

    instruments: dict[str, Instrument] = field(default_factory=dict)
    variant_sets: dict[str, VariantSet] = field(default_factory=dict)
    tasks: dict[str, TaskConfig] = field(default_factory=dict)
    sources: dict[tuple[str, str], Path] = field(default_factory=dict)
    translations: dict[str, Translation] = field(default_factory=dict)

    def add(self, spec: BaseModel, path: Path) -> None:
        if isinstance(spec, Instrument):
            self.instruments[self._claim("instrument", spec.instrument, path)] = spec
        elif isinstance(spec, Translation):  # an instrument too, made once every base is known
            self.translations[self._claim("translation", spec.translation, path)] = spec
        elif isinstance(spec, VariantSet):
            self.variant_sets[self._claim("variant_set", spec.variant_set, path)] = spec
        elif isinstance(spec, TaskConfig):
            self.tasks[self._claim("task", spec.task, path)] = spec
        else:
            raise TypeError(f"not a task, instrument or variant set: {type(spec).__name__}")

    def _claim(self, kind: str, name: str, path: Path) -> str:
        """Record that ``path`` defines the ``kind`` called ``name``; one clear error if another file did (an
        instrument and a translation share one set of names: both are instruments)."""
        for taken in ({kind, "instrument", "translation"} if kind in ("instrument", "translation") else {kind}):
            if (taken, name) in self.sources:
                raise SpecError(str(path), kind, f"a unique name; '{name}' is already defined in "
                                                 f"{self.sources[(taken, name)]}")
        self.sources[(kind, name)] = path
        return name

    def expand_translations(self) -> None:
        """Each translation becomes the instrument it describes (:meth:`Translation.instrument`); one SpecError
        naming the file for a translation of an unknown instrument or with other items than it."""
        for name, translation in self.translations.items():
            path = str(self.sources[("translation", name)])
            base = self.instruments.get(translation.of)
            if base is None:
                raise SpecError(path, "of", f"the name of an instrument (got '{translation.of}')")
            try:
                self.instruments[name] = translation.instrument(base)
            except ValueError as exc:
                field_name, _, expected = str(exc).partition(": ")
                raise SpecError(path, field_name, expected) from None

    def check_references(self) -> None:
        """Every task must name instruments and a variant set that exist, in its own language; a translated
        instrument must match the one it translates item by item."""
        for name, instrument in self.instruments.items():
            where = self.sources.get(("instrument", name)) or self.sources[("translation", name)]
            check_translation(instrument, self.instruments, str(where))
        for name, task in self.tasks.items():
            path = str(self.sources[("task", name)])
            for inst in task.instruments:
                if inst not in self.instruments:
                    raise SpecError(path, "instrument", f"one of {sorted(self.instruments)} (got '{inst}')")
                if self.instruments[inst].language_code != task.language_code:
                    raise SpecError(path, "language", f"the language of instrument '{inst}' "
                                                      f"('{self.instruments[inst].language_code}'), got "
                                                      f"'{task.language_code}'")
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


def check_translation(instrument: Instrument, instruments: dict[str, Instrument], path: str) -> None:
    """An instrument with ``translation_of`` has the items of that instrument, in its order, with the same ids,
    dimensions, sides and weights (only the texts differ): one SpecError naming the first item that does not."""
    base_name = instrument.translation_of
    if base_name is None:
        return
    if base_name not in instruments or base_name == instrument.instrument:
        raise SpecError(path, "translation_of", f"another instrument's name (got '{base_name}')")
    base = instruments[base_name]
    if len(base.items) != len(instrument.items):
        raise SpecError(path, "items", f"the {len(base.items)} items of '{base_name}' it translates, got "
                                       f"{len(instrument.items)}")
    for n, (item, original) in enumerate(zip(instrument.items, base.items)):
        for field_name in ("id", "dimension", "agree_side", "weights"):
            if getattr(item, field_name) != getattr(original, field_name):
                raise SpecError(path, f"items.{n}.{field_name}", f"{getattr(original, field_name)!r} as item {n + 1} "
                                                                 f"of '{base_name}', got {getattr(item, field_name)!r}")


def load_registry(include_paths: Iterable[str | Path] = ()) -> TaskRegistry:
    """Load the built-in tasks, the task folders of installed plugins
    (:func:`polibench.taskspec.catalogue.task_folders`) and any user folders (searched recursively for
    ``*.yaml``/``*.yml``)."""
    registry = TaskRegistry()
    for spec_file in walk(include_paths):
        spec = _parsed(spec_file)
        if spec is not None:
            registry.add(spec, spec_file.path)
    registry.expand_translations()
    registry.check_references()
    return registry
