"""Fairness data: read a task's raw data with `datasets`, clean it, split it, and cache the result.

Sources (``data.loader`` in the task file):

* ``json`` / ``csv``: a local file (JSON lines or CSV with a header), e.g. the Yoder et al. 2022 corpora
  (``identity_hate_corpora.jsonl``, ``demographic_category_hate_corpora.jsonl`` from OSF project 53tfs),
  either passed with ``--path``, found next to the task file, or downloaded into the cache and verified.
* ``liar``: LIAR (Wang 2017) from the Hugging Face hub (``ucsbnlp/liar``), or a local folder holding the
  original ``train.tsv`` / ``valid.tsv`` / ``test.tsv`` (``--path``).

Cleaning and splitting, in this order:

1. duplicates: rows repeating the values of ``data.dedup`` (Yoder: ``[fold, text]``) are dropped, the
   first kept; the manifest counts them, the duplicates whose labels disagree, and texts present in both
   train and test;
2. labels become 0/1 (1 = the harmful class) through ``data.label_map`` or from booleans / 0 / 1;
3. each grouping gives the item a group (display label, or none) and its member groups (Borkan et al.'s
   subgroup membership, from ``members_column`` such as Yoder's ``target_groups``);
4. splits come from ``data.split_column``; when there is no dev split (Yoder has only train and test),
   ``dev_fraction`` of train is carved out with ``split_seed``, stratified by label and first-grouping group
   (by label only when a stratum is too small). With no split column at all, test is carved the same way.

The prepared splits are written (through a temporary folder and a rename) as ``train.jsonl``,
``dev.jsonl``, ``test.jsonl`` and ``manifest.json`` under ``<data_dir>/<task>/`` (default:
``$POLIBENCH_CACHE/fairness/data``).
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from polibench import __version__
from polibench.errors import PolibenchError
from polibench.fairness.download import OfflineError, fetch, verify, where_to_get
from polibench.fairness.sources import source_of
from polibench.fairness.spec import FairnessTask
from polibench.hashing import file_sha256
from polibench.kit.files import staged_folder
from polibench.kit.jsonl import iter_jsonl, line_error
from polibench.paths import cache_dir

SPLITS = ("train", "dev", "test")
MANIFEST = "manifest.json"
LIAR_COLUMNS = ("id", "label", "statement", "subject", "speaker", "job_title", "state_info", "party_affiliation",
                "barely_true_counts", "false_counts", "half_true_counts", "mostly_true_counts",
                "pants_on_fire_counts", "context")
LIAR_LABELS = ("false", "half-true", "mostly-true", "true", "barely-true", "pants-fire")  # ucsbnlp/liar ids 0..5
LIAR_FILES = {"train": "train.tsv", "dev": "valid.tsv", "test": "test.tsv"}
LIAR_ZIP = "https://www.cs.ucsb.edu/~william/data/liar_dataset.zip"
SPLIT_COLUMN = "__split"


@dataclass(frozen=True)
class Item:
    """One example: text, 0/1 label, its group in each grouping, and the groups it is about."""

    id: str
    text: str
    label: int
    groups: dict = field(default_factory=dict)
    members: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"id": self.id, "text": self.text, "label": self.label, "groups": self.groups,
                "members": self.members}

    @classmethod
    def from_json(cls, row: dict) -> Item:
        return cls(id=str(row["id"]), text=row["text"], label=int(row["label"]), groups=row.get("groups") or {},
                   members=row.get("members") or {})


@dataclass
class PreparedData:
    task: str
    folder: Path
    splits: dict[str, list[Item]]
    manifest: dict

    @property
    def train(self) -> list[Item]:
        return self.splits["train"]

    @property
    def dev(self) -> list[Item]:
        return self.splits["dev"]

    @property
    def test(self) -> list[Item]:
        return self.splits["test"]

    def manifest_sha256(self) -> str:
        return file_sha256(self.folder / MANIFEST)


def data_root(data_dir: Optional[Path] = None) -> Path:
    return Path(data_dir) if data_dir else cache_dir() / "fairness" / "data"


def raw_dir() -> Path:
    return cache_dir() / "fairness" / "raw"


def _hf_cache() -> str:
    return str(cache_dir() / "fairness" / "hf")


def _datasets(show_progress: bool):
    try:
        import datasets
    except ImportError:
        raise PolibenchError("fairness data needs the `datasets` package: pip install 'polibench[fairness]'") \
            from None
    datasets.logging.set_verbosity_error()
    if show_progress:
        datasets.enable_progress_bars()
    else:
        datasets.disable_progress_bars()
    return datasets


def spec_sha256(task: FairnessTask) -> str:
    """Hash of everything the prepared data depends on in the task file."""
    payload = {"data": task.data.model_dump(mode="json", exclude={"file"}),
               "groupings": {k: g.model_dump(mode="json") for k, g in task.groupings.items()},
               "labels": [task.negative_label, task.positive_label]}
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


# ---------------------------------------------------------------- raw sources -> one pandas frame

def _load_file(datasets, path: Path, loader: str):
    builder = "json" if loader == "json" else "csv"
    try:
        table = datasets.load_dataset(builder, data_files=str(path), split="train", cache_dir=_hf_cache())
    except Exception as exc:  # datasets raises many types for malformed files
        raise PolibenchError(f"{path}: cannot be read as {builder.upper()} ({str(exc).splitlines()[0][:200]})") \
            from None
    return table.to_pandas()


def _resolve_file(task: FairnessTask, path: Optional[Path], show_progress: bool) -> tuple[Path, dict]:
    spec = task.data
    pinned = spec.download.sha256 if spec.download else None
    if path is not None:
        path = Path(path)
        if not path.is_file():
            raise PolibenchError(f"--path {path}: no such file")
        return path, {"kind": "file", "path": str(path), "sha256": verify(path, pinned)}
    candidate = Path(spec.file)
    for option in (candidate, raw_dir() / candidate.name):
        if option.is_file():
            return option, {"kind": "file", "path": str(option), "sha256": verify(option, pinned)}
    if spec.download is None:
        raise PolibenchError(f"{task.name}: data file '{spec.file}' not found; pass it with --path")
    try:
        fetched = fetch(spec.download, raw_dir() / candidate.name, show_progress=show_progress)
    except OfflineError as exc:
        raise OfflineError(str(exc).replace("--task TASK", f"--task {task.name}")) from None
    source = {"kind": "download", "path": str(fetched), "sha256": verify(fetched, pinned),
              "from": spec.download.url or f"osf:{spec.download.osf_project}/{spec.download.osf_path}"}
    return fetched, source


def _liar_frame(datasets, task: FairnessTask, path: Optional[Path]):
    import csv

    import pandas as pd

    spec = task.data
    if path is not None:
        folder = Path(path)
        files = {split: folder / name for split, name in LIAR_FILES.items()}
        missing = [str(f) for f in files.values() if not f.is_file()]
        if not folder.is_dir() or missing:
            raise PolibenchError(f"--path {folder}: expected a folder with LIAR's train.tsv, valid.tsv and test.tsv "
                                 f"(unzip {LIAR_ZIP}); missing {', '.join(missing) or folder}")
        try:
            parts = datasets.load_dataset("csv", data_files={k: str(v) for k, v in files.items()}, delimiter="\t",
                                          column_names=list(LIAR_COLUMNS), quoting=csv.QUOTE_NONE,
                                          cache_dir=_hf_cache())
        except Exception as exc:
            raise PolibenchError(f"{folder}: cannot read the LIAR TSV files ({str(exc).splitlines()[0][:200]})") \
                from None
        source = {"kind": "liar-tsv", "path": str(folder),
                  "sha256": {f.name: verify(f, None) for f in files.values()}}
        frames = []
        for split, part in parts.items():
            frame = part.to_pandas()
            frame[SPLIT_COLUMN] = split
            frames.append(frame)
        return pd.concat(frames, ignore_index=True), source
    try:
        parts = datasets.load_dataset(spec.hub_id, revision=spec.revision, cache_dir=_hf_cache())
    except Exception as exc:
        reason = str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__
        raise OfflineError(
            f"LIAR could not be loaded from the Hugging Face hub ({spec.hub_id}, revision {spec.revision}): "
            f"{reason}. Run `polibench fairness data --task {task.name}` once with network access (it is then "
            f"cached), or download {LIAR_ZIP}, unzip it and pass the folder: "
            f"`polibench fairness data --task {task.name} --path liar_dataset/`") from None
    frames = []
    for split, part in parts.items():
        frame = part.to_pandas()
        feature = part.features.get("label")
        names = list(getattr(feature, "names", None) or LIAR_LABELS)
        if frame["label"].dtype.kind in "iu":
            frame["label"] = [names[i] for i in frame["label"]]
        frame[SPLIT_COLUMN] = split
        frames.append(frame)
    source = {"kind": "hub", "hub_id": spec.hub_id, "revision": spec.revision,
              "fingerprints": {split: part._fingerprint for split, part in parts.items()}}
    return pd.concat(frames, ignore_index=True), source


# ---------------------------------------------------------------- frame -> items

def _label(raw, label_map: Optional[dict]) -> Optional[int]:
    key = str(raw).strip().lower()
    if label_map is not None:
        return label_map.get(key)
    if isinstance(raw, bool) or key in ("true", "false"):
        return int(key == "true")
    if key in ("0", "1", "0.0", "1.0"):
        return int(float(key))
    return None


def _require_columns(frame, task: FairnessTask, columns) -> None:
    missing = [c for c in columns if c and c not in frame.columns]
    if missing:
        raise PolibenchError(f"{task.name}: the data has no column(s) {', '.join(missing)} "
                             f"(columns: {', '.join(map(str, frame.columns))})")


def _split_of(frame, task: FairnessTask):
    spec = task.data
    if spec.loader == "liar":
        values = {"train": "train", "validation": "dev", "dev": "dev", "test": "test"}
        return [values.get(str(v), None) for v in frame[SPLIT_COLUMN]]
    if not spec.split_column:
        return [None] * len(frame)
    out = []
    for value in frame[spec.split_column]:
        split = spec.split_values.get(str(value).strip().lower())
        if split is None:
            raise PolibenchError(f"{task.name}: {spec.split_column} value '{value}' is not one of "
                                 f"{', '.join(spec.split_values)} (see data.split_values)")
        out.append(split)
    return out


def _dedup(frame, task: FairnessTask) -> tuple:
    """The frame without repeated rows (``data.dedup`` columns) and what was removed."""
    columns = task.data.dedup
    if not columns:
        return frame, {"columns": [], "removed": 0, "conflicting_labels": 0}
    _require_columns(frame, task, columns)
    keys = frame[columns].astype(str).agg("\x1f".join, axis=1)
    labels = frame[task.data.label_column].astype(str)
    conflicting = int((labels.groupby(keys).nunique() > 1).sum())
    kept = frame[~keys.duplicated(keep="first")].reset_index(drop=True)
    return kept, {"columns": columns, "removed": int(len(frame) - len(kept)), "conflicting_labels": conflicting}


def _item_id(task: FairnessTask, row, split: Optional[str], text: str) -> str:
    if task.data.id_column:
        return str(row[task.data.id_column])
    return hashlib.sha1(f"{split}\x1f{text}".encode()).hexdigest()[:16]


def _items(frame, task: FairnessTask, splits: list) -> tuple[list[Item], list, dict]:
    spec = task.data
    _require_columns(frame, task, [spec.text_column, spec.label_column, spec.id_column,
                                   *[g.column or "context" for g in task.groupings.values()],
                                   *[g.members_column for g in task.groupings.values()]])
    items, item_splits, seen, bad_labels, empty = [], [], {}, [], 0
    for index, row in enumerate(frame.to_dict("records")):
        text = row[spec.text_column]
        if not isinstance(text, str) or not text.strip():
            empty += 1
            continue
        label = _label(row[spec.label_column], spec.label_map)
        if label is None:
            bad_labels.append(row[spec.label_column])
            continue
        groups, members = {}, {}
        for name, grouping in task.groupings.items():
            raw = source_of(row.get("context")) if grouping.derive == "liar_source" else row[grouping.column]
            groups[name] = grouping.label_of(_plain(raw))
            if grouping.members_column:
                members[name] = grouping.members_of(_plain(row[grouping.members_column]))
            else:
                members[name] = [groups[name]] if groups[name] else []
        item_id = _item_id(task, row, splits[index], text)
        if item_id in seen:
            seen[item_id] += 1
            item_id = f"{item_id}#{seen[item_id]}"
        else:
            seen[item_id] = 0
        items.append(Item(id=item_id, text=text, label=label, groups=groups, members=members))
        item_splits.append(splits[index])
    if bad_labels:
        examples = sorted({str(v) for v in bad_labels})[:5]
        raise PolibenchError(f"{task.name}: {len(bad_labels)} rows have a label that is not mapped to 0/1 "
                             f"(e.g. {examples}); set data.label_map")
    return items, item_splits, {"empty_text_dropped": empty}


def _plain(value):
    """numpy arrays (list columns from pandas) as lists; other values unchanged."""
    return value.tolist() if hasattr(value, "tolist") and not isinstance(value, (str, bytes)) else value


def _carve(items: list[Item], fraction: float, seed: int, first_grouping: Optional[str]) -> tuple[list, list, str]:
    """Seeded split of ``items`` into (kept, carved) with ``fraction`` carved, stratified when possible."""
    from sklearn.model_selection import train_test_split

    index = list(range(len(items)))
    attempts = []
    if first_grouping:
        attempts.append(("label+" + first_grouping, [f"{i.label}|{i.groups.get(first_grouping)}" for i in items]))
    attempts.append(("label", [i.label for i in items]))
    attempts.append(("none", None))
    for name, strata in attempts:
        try:
            kept, carved = train_test_split(index, test_size=fraction, random_state=seed, stratify=strata)
        except ValueError:
            continue
        return [items[i] for i in sorted(kept)], [items[i] for i in sorted(carved)], name
    raise PolibenchError(f"cannot carve {fraction:.0%} out of {len(items)} items")


def _assign_splits(task: FairnessTask, items: list[Item], item_splits: list) -> tuple[dict, dict]:
    spec = task.data
    first = next(iter(task.groupings))
    splits = {s: [i for i, s2 in zip(items, item_splits) if s2 == s] for s in SPLITS}
    carving: dict = {}
    if all(s is None for s in item_splits):
        if len(items) < 10:
            raise PolibenchError(f"{task.name}: only {len(items)} usable items; at least 10 are needed")
        rest, splits["test"], how = _carve(items, spec.test_fraction, spec.split_seed, first)
        splits["train"] = rest
        carving["test"] = {"fraction": spec.test_fraction, "seed": spec.split_seed, "stratified_by": how}
    if not splits["dev"]:
        if len(splits["train"]) < 5:
            raise PolibenchError(f"{task.name}: train has only {len(splits['train'])} items; cannot carve dev")
        splits["train"], splits["dev"], how = _carve(splits["train"], spec.dev_fraction, spec.split_seed, first)
        carving["dev"] = {"fraction": spec.dev_fraction, "seed": spec.split_seed, "stratified_by": how,
                          "from": "train"}
    for split in ("train", "test"):
        if not splits[split]:
            raise PolibenchError(f"{task.name}: the data has no {split} items")
    return splits, carving


def _summary(task: FairnessTask, splits: dict) -> tuple[dict, dict]:
    counts = {s: {"n": len(v), "positive": sum(i.label for i in v)} for s, v in splits.items()}
    groups: dict = {}
    for name, grouping in task.groupings.items():
        groups[name] = {}
        for split, items in splits.items():
            tally = {label: 0 for label in grouping.groups.values()}
            for item in items:
                if item.groups.get(name):
                    tally[item.groups[name]] += 1
            tally["(none)"] = sum(1 for i in items if not i.groups.get(name))
            groups[name][split] = tally
    return counts, groups


# ---------------------------------------------------------------- prepare / load

def prepare(task: FairnessTask, path: Optional[Path] = None, data_dir: Optional[Path] = None,
            show_progress: bool = True) -> PreparedData:
    """Read, clean and split the task's data and write it under ``data_root(data_dir)/<task>``."""
    datasets = _datasets(show_progress)
    if task.data.loader == "liar":
        frame, source = _liar_frame(datasets, task, path)
    else:
        file, source = _resolve_file(task, path, show_progress)
        frame = _load_file(datasets, file, task.data.loader)
    frame, dedup = _dedup(frame, task)
    items, item_splits, dropped = _items(frame, task, _split_of(frame, task))
    splits, carving = _assign_splits(task, items, item_splits)
    train_texts = {i.text for i in splits["train"]} | {i.text for i in splits["dev"]}
    dedup["texts_in_train_and_test"] = sum(1 for i in splits["test"] if i.text in train_texts)
    counts, groups = _summary(task, splits)
    manifest = {
        "format": "polibench-fairness-data", "version": 1, "task": task.name, "task_version": task.version,
        "spec_sha256": spec_sha256(task), "labels": {"0": task.negative_label, "1": task.positive_label},
        "source": source, "dedup": dedup, **dropped, "carved": carving, "splits": counts, "groups": groups,
        "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "polibench_version": __version__,
    }
    out = data_root(data_dir) / task.name
    with staged_folder(out) as tmp:
        for split in SPLITS:
            with open(tmp / f"{split}.jsonl", "w", encoding="utf-8") as handle:
                for item in splits[split]:
                    handle.write(json.dumps(item.to_json(), ensure_ascii=False) + "\n")
            manifest.setdefault("files", {})[f"{split}.jsonl"] = file_sha256(tmp / f"{split}.jsonl")
        (tmp / MANIFEST).write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return PreparedData(task=task.name, folder=out, splits=splits, manifest=manifest)


def fetch_hint(task: FairnessTask) -> str:
    """What to run (and, offline, what to download) to prepare the task's data."""
    spec = task.data
    if spec.loader == "liar":
        return f"polibench fairness data --task {task.name} (online), or --path a folder unzipped from {LIAR_ZIP}"
    if spec.download:
        return (f"polibench fairness data --task {task.name} (online), or {where_to_get(spec.download, spec.file)} "
                f"and pass it with --path")
    return f"polibench fairness data --task {task.name} --path YOUR_FILE"


def _read_items(path: Path) -> list[Item]:
    """The items of one prepared split; a line that is not an item names the file, line and what was expected."""
    items = []
    for number, row in iter_jsonl(path):
        try:
            items.append(Item.from_json(row))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise line_error(path, number, f"expected an item with id, text and a 0/1 label "
                                           f"({type(exc).__name__}: {str(exc)[:80]}); prepare the data again") from None
    return items


def load_prepared(task: FairnessTask, data_dir: Optional[Path] = None) -> PreparedData:
    """The prepared splits of ``task``; raises with the command to run when they are missing or stale."""
    folder = data_root(data_dir) / task.name
    manifest_path = folder / MANIFEST
    if not manifest_path.is_file():
        raise PolibenchError(f"no prepared data for '{task.name}' in {folder.parent}; run: {fetch_hint(task)}")
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise PolibenchError(f"{manifest_path}: expected the JSON manifest written by `polibench fairness data` "
                             f"({type(exc).__name__}); prepare it again: {fetch_hint(task)}") from None
    if not isinstance(manifest, dict) or not isinstance(manifest.get("files"), dict):
        raise PolibenchError(f"{manifest_path}: expected a JSON object with a 'files' table; prepare it again: "
                             f"{fetch_hint(task)}")
    if manifest.get("spec_sha256") != spec_sha256(task):
        raise PolibenchError(f"the prepared data in {folder} was made from a different version of task "
                             f"'{task.name}'; run `polibench fairness data --task {task.name}` again")
    splits = {}
    for split in SPLITS:
        path = folder / f"{split}.jsonl"
        if file_sha256(path) != manifest.get("files", {}).get(path.name):
            raise PolibenchError(f"{path}: does not match its manifest (edited or truncated); prepare it again")
        splits[split] = _read_items(path)
    return PreparedData(task=task.name, folder=folder, splits=splits, manifest=manifest)
