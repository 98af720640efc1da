"""The schema of a fairness task file (``tasks/fairness/*.yaml``, first key ``fairness_task:``).

A fairness task names a binary classification data set (class 1 = the harmful class: hate speech,
misinformation), how to read it, how to split it, and one or more *groupings*: a partition of the test
items into groups (targeted identity, news source, speaker party) over which per-group metrics are
computed. Unknown keys are errors, as in every polibench YAML file. The main task loader
(:mod:`polibench.taskspec.loader`) skips files of this kind; :func:`load_task` reads them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable, Literal, Optional, Union

from pydantic import Field, field_validator, model_validator

from polibench.errors import PolibenchError, SpecError
from polibench.kit.strict import Strict
from polibench.taskspec.catalogue import read_spec_file, register_kind, validate, walk

KIND = "fairness_task"
NAME_PATTERN = r"^[a-z0-9][a-z0-9_-]*$"


class Download(Strict):
    """Where a data file comes from when it is not on disk yet (an OSF project file or a plain URL)."""

    osf_project: Optional[str] = Field(None, description="OSF project id, e.g. 53tfs")
    osf_path: Optional[str] = Field(None, description="file name (or path) inside the project's OSF storage")
    url: Optional[str] = Field(None, description="direct download URL (used instead of the OSF look-up)")
    sha256: Optional[str] = Field(None, pattern=r"^[0-9a-f]{64}$",
                                  description="expected SHA-256 of the file; null = verify against OSF's hash")

    @model_validator(mode="after")
    def _somewhere(self):
        if not self.url and not (self.osf_project and self.osf_path):
            raise ValueError("give either url or both osf_project and osf_path")
        return self


class DataSpec(Strict):
    """How to read the raw data and turn it into train / dev / test items with a 0/1 label."""

    loader: Literal["json", "csv", "liar"] = Field(..., description="json/csv: a local file; liar: LIAR")
    file: Optional[str] = Field(None, description="data file: absolute, relative to this YAML file, or the name "
                                                  "of the downloaded file in polibench's cache")
    download: Optional[Download] = None
    hub_id: Optional[str] = Field(None, description="liar: the Hugging Face dataset id")
    revision: Optional[str] = Field(None, description="liar: the dataset revision to load")
    text_column: str = "text"
    label_column: str = "label"
    id_column: Optional[str] = None
    label_map: Optional[dict[str, Literal[0, 1]]] = Field(
        None, description="raw label (as text, lower case) -> 0/1; without it labels must be 0/1 or true/false")
    split_column: Optional[str] = Field(None, description="column holding train/dev/test; none = carve splits")
    split_values: dict[str, Literal["train", "dev", "test"]] = Field(
        default_factory=lambda: {"train": "train", "dev": "dev", "validation": "dev", "test": "test"},
        description="values of split_column -> split")
    dedup: list[str] = Field(default_factory=list, description="columns whose repeated values mark duplicates")
    dev_fraction: float = Field(0.2, gt=0, lt=1, description="share of train carved out as dev when there is none")
    test_fraction: float = Field(0.2, gt=0, lt=1, description="share carved out as test when there is no split")
    split_seed: int = 42

    @field_validator("label_map", mode="before")
    @classmethod
    def _text_keys(cls, value):
        if isinstance(value, dict):
            return {str(k).strip().lower(): v for k, v in value.items()}
        return value

    @model_validator(mode="after")
    def _source(self):
        if self.loader in ("json", "csv") and not self.file:
            raise ValueError(f"loader '{self.loader}' needs 'file'")
        if self.loader == "liar" and not self.hub_id:
            raise ValueError("loader 'liar' needs 'hub_id' (e.g. ucsbnlp/liar)")
        if self.download and not self.file:
            raise ValueError("'download' needs 'file' (the name to store the download under)")
        return self


class Grouping(Strict):
    """One way of partitioning the items: by a column's value, or derived (``liar_source``)."""

    column: Optional[str] = Field(None, description="column whose value names the item's group")
    derive: Optional[Literal["liar_source"]] = Field(None, description="liar_source: outlet named in `context`")
    groups: dict[str, str] = Field(..., min_length=1, description="raw value (any case) -> display label, in "
                                                                  "display order; other values = no group")
    members_column: Optional[str] = Field(
        None, description="list column naming every group an item targets (Borkan et al.'s subgroup "
                          "membership); without it an item is a member of its own group only")
    member_aliases: dict[str, list[str]] = Field(
        default_factory=dict, description="members_column value -> raw group values it counts as")

    @field_validator("groups", mode="before")
    @classmethod
    def _lower_keys(cls, value):
        if isinstance(value, dict):
            return {str(k).strip().lower(): str(v) for k, v in value.items()}
        return value

    @field_validator("member_aliases", mode="before")
    @classmethod
    def _alias_lists(cls, value):
        if isinstance(value, dict):
            return {str(k).strip().lower(): [str(x).strip().lower() for x in ([v] if isinstance(v, str) else v)]
                    for k, v in value.items()}
        return value

    @model_validator(mode="after")
    def _one_source(self):
        if bool(self.column) == bool(self.derive):
            raise ValueError("give exactly one of 'column' and 'derive'")
        labels = list(self.groups.values())
        if len(set(labels)) != len(labels):
            raise ValueError("group display labels must be unique")
        for alias, targets in self.member_aliases.items():
            unknown = [t for t in targets if t not in self.groups]
            if unknown:
                raise ValueError(f"member_aliases['{alias}'] names groups not in 'groups': {unknown}")
        return self

    def label_of(self, raw) -> Optional[str]:
        """Display label of a raw group value (list values are joined with '/'), or None."""
        if raw is None:
            return None
        if isinstance(raw, (list, tuple)):
            raw = "/".join(str(x) for x in raw)
        return self.groups.get(str(raw).strip().lower())

    def members_of(self, targets) -> list[str]:
        """Display labels of every group the raw ``targets`` list names (directly or through an alias)."""
        if targets is None or isinstance(targets, float):  # pandas NaN for a missing list
            return []
        if isinstance(targets, str):
            targets = [targets]
        found: list[str] = []
        for target in targets:
            key = str(target).strip().lower()
            for raw in [key, *self.member_aliases.get(key, [])]:
                label = self.groups.get(raw)
                if label and label not in found:
                    found.append(label)
        return sorted(found, key=list(self.groups.values()).index)


class TrainDefaults(Strict):
    """Fine-tuning defaults of the task (command-line flags override them). Feng et al.: RAdam, otherwise
    transformers' defaults: learning rate 5e-5, batch size 8, 3 epochs, no weight decay, linear decay."""

    epochs: float = Field(3.0, gt=0)
    learning_rate: float = Field(5e-5, gt=0)
    batch_size: int = Field(8, ge=1)
    eval_batch_size: int = Field(64, ge=1)
    max_length: int = Field(128, ge=8)
    weight_decay: float = Field(0.0, ge=0)
    warmup_ratio: float = Field(0.0, ge=0, lt=1)


class FairnessTask(Strict):
    fairness_task: str = Field(..., pattern=NAME_PATTERN)
    version: int = 1
    description: str = ""
    positive_label: str = Field(..., description="name of class 1 (the harmful class)")
    negative_label: str = Field(..., description="name of class 0")
    data: DataSpec
    groupings: dict[str, Grouping] = Field(..., min_length=1)
    train: TrainDefaults = Field(default_factory=TrainDefaults)
    provenance: dict = Field(default_factory=dict)
    published: dict = Field(default_factory=dict, description="published reference numbers (Feng et al.)")

    @field_validator("groupings")
    @classmethod
    def _names(cls, value):
        import re

        for name in value:
            if not re.match(NAME_PATTERN, name):
                raise ValueError(f"grouping name '{name}' must match {NAME_PATTERN}")
        return value

    @property
    def name(self) -> str:
        return self.fairness_task


register_kind(KIND, FairnessTask, "polibench.fairness")


def parse_task_file(path: Path) -> FairnessTask:
    """Read and validate one fairness task file; relative data paths are resolved against its folder."""
    task = validate(read_spec_file(path), KIND)
    assert isinstance(task, FairnessTask)
    if task.data.file and not Path(task.data.file).is_absolute():
        local = Path(path).resolve().parent / task.data.file
        if local.exists():
            task.data.file = str(local)
    return task


def task_files(include_paths: Iterable[Union[str, Path]] = ()) -> list[Path]:
    """Every fairness task file (first key ``fairness_task``) in the built-in tasks and the include paths."""
    return [spec.path for spec in walk(include_paths, kinds=[KIND])]


def available_tasks(include_paths: Iterable[Union[str, Path]] = ()) -> dict[str, Path]:
    tasks: dict[str, Path] = {}
    for path in task_files(include_paths):
        task = parse_task_file(path)
        if task.name in tasks:
            raise SpecError(str(path), KIND, f"a unique name; '{task.name}' is already defined in {tasks[task.name]}")
        tasks[task.name] = path
    return tasks


def load_task(name_or_path: str, include_paths: Iterable[Union[str, Path]] = ()) -> FairnessTask:
    """A fairness task by name (built-in or under an include path) or by the path of its YAML file."""
    candidate = Path(name_or_path)
    if candidate.suffix in (".yaml", ".yml"):
        if not candidate.is_file():
            raise PolibenchError(f"{candidate}: no such fairness task file")
        return parse_task_file(candidate)
    tasks = available_tasks(include_paths)
    if name_or_path not in tasks:
        raise PolibenchError(f"unknown fairness task '{name_or_path}'; available: {', '.join(sorted(tasks))}")
    return parse_task_file(tasks[name_or_path])
