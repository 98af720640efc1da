"""Corpus specs and the corpus loader for ``polibench pretrain``.

A corpus spec is a YAML file whose first key is ``corpus:`` (the built-in ones are in ``tasks/corpora/``; the
task loader skips this kind). It says where the texts come from and how to read them::

    corpus: news-left
    description: ...
    provenance: {source: ..., obtain: ...}     # how to get the data (shown when it is missing)
    data:
      format: jsonl                            # text | jsonl | parquet | hf
      files: [news_left.jsonl]                 # relative to --data-dir, else to the YAML file's folder
      text_field: text
      date_field: date                         # optional; needed for --before / --after
      sha256: {news_left.jsonl: <64 hex>}      # optional pins, checked before training

``format: hf`` reads ``datasets.load_dataset(dataset, config, split=split, revision=revision)`` instead of
files. Plain text files hold one text per line (blank lines skipped). A data file given directly (not a
spec) is read as a one-off corpus with the format from its suffix (``.txt``, ``.jsonl``, ``.parquet``).

Every problem is one :class:`~polibench.errors.PolibenchError` naming the file, the line or field and what
was expected; a corpus whose data is absent says how to obtain it.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Optional

from pydantic import Field, model_validator

from polibench.errors import PolibenchError
from polibench.hashing import file_sha256
from polibench.kit.jsonl import iter_jsonl
from polibench.kit.strict import Strict
from polibench.taskspec.catalogue import read_spec_file, register_kind, validate, walk

KIND = "corpus"
SUFFIX_FORMATS = {".txt": "text", ".text": "text", ".jsonl": "jsonl", ".json": "jsonl", ".parquet": "parquet"}


class CorpusData(Strict):
    format: Literal["text", "jsonl", "parquet", "hf"]
    files: list[str] = Field(default_factory=list, description="data files (text, jsonl, parquet)")
    dataset: Optional[str] = Field(None, description="hf: the dataset id or path given to datasets.load_dataset")
    data_files: list[str] = Field(default_factory=list, description="hf: data_files for load_dataset (e.g. with "
                                                                    "dataset 'json' or 'parquet')")
    config: Optional[str] = None
    split: str = "train"
    revision: Optional[str] = None
    text_field: str = "text"
    date_field: Optional[str] = None
    sha256: dict[str, str] = Field(default_factory=dict, description="file name -> expected SHA-256")

    @model_validator(mode="after")
    def _source(self):
        if self.format == "hf" and not self.dataset:
            raise ValueError("format 'hf' needs 'dataset'")
        if self.format != "hf" and not self.files:
            raise ValueError(f"format '{self.format}' needs at least one entry in 'files'")
        if self.format == "text" and self.date_field:
            raise ValueError("plain text files have no fields: date_field needs jsonl, parquet or hf")
        for name, digest in self.sha256.items():
            if name not in self.files:
                raise ValueError(f"sha256 names '{name}', which is not in files")
            if len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
                raise ValueError(f"sha256 of '{name}' must be 64 lower-case hex digits")
        return self


class CorpusSpec(Strict):
    corpus: str = Field(..., pattern=r"^[a-z0-9][a-z0-9_.-]*$")
    description: str = ""
    domain: Optional[str] = None
    leaning: Optional[Literal["left", "center", "right"]] = None
    provenance: dict = Field(default_factory=dict)
    data: CorpusData


@dataclass
class Corpus:
    """The texts of a corpus after the date window, with what was read and how many were dropped."""

    spec: CorpusSpec
    source: str                      # the spec file, or the data file read as a one-off corpus
    texts: list[str]
    files: list[dict] = field(default_factory=list)   # {"path", "sha256", "bytes"} per file read
    counts: dict = field(default_factory=dict)        # read, empty, outside the date window, kept


register_kind(KIND, CorpusSpec, "polibench.pretrain")


def builtin_corpora() -> dict[str, Path]:
    """Built-in corpus name -> spec file (every file of the built-in tasks whose first key is ``corpus``)."""
    found = {}
    for spec in walk(kinds=[KIND]):
        if isinstance(spec.data, dict) and isinstance(spec.data.get(KIND), str):
            found[spec.data[KIND]] = spec.path
    return found


def parse_spec(path: Path) -> CorpusSpec:
    spec = validate(read_spec_file(path), KIND)
    assert isinstance(spec, CorpusSpec)
    return spec


def resolve_spec(name_or_path: str) -> tuple[CorpusSpec, Path, Path]:
    """``(spec, source, base folder of relative files)`` for a built-in corpus name, a spec YAML file or a data
    file read as a one-off corpus."""
    path = Path(name_or_path).expanduser()
    if path.suffix in (".yaml", ".yml"):
        if not path.is_file():
            raise PolibenchError(f"corpus spec {path} does not exist")
        return parse_spec(path), path, path.resolve().parent
    if path.suffix in SUFFIX_FORMATS and (path.is_file() or path.parent != Path(".")):
        if not path.is_file():
            raise PolibenchError(f"corpus file {path} does not exist")
        spec = CorpusSpec(corpus=_safe_name(path.stem), description=f"texts of {path.name}",
                          data=CorpusData(format=SUFFIX_FORMATS[path.suffix], files=[str(path.resolve())]))  # type: ignore[arg-type]
        return spec, path, path.resolve().parent
    known = builtin_corpora()
    if name_or_path not in known:
        raise PolibenchError(f"unknown corpus '{name_or_path}': give a corpus spec (.yaml), a data file (.txt, "
                             f".jsonl, .parquet) or one of the built-in corpora: {', '.join(known) or 'none'}")
    return parse_spec(known[name_or_path]), known[name_or_path], known[name_or_path].parent


def _safe_name(stem: str) -> str:
    import re

    return re.sub(r"[^a-z0-9_.-]+", "-", stem.lower()).strip("-.") or "corpus"


def parse_date(value, where: str) -> dt.datetime:
    """An ISO date or date-time (``2017-01-20``, ``2017-01-20T10:00:00Z``) or a Unix timestamp, as UTC."""
    if isinstance(value, dt.datetime):
        parsed = value
    elif isinstance(value, dt.date):
        parsed = dt.datetime(value.year, value.month, value.day)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            return dt.datetime.fromtimestamp(float(value), tz=dt.timezone.utc)
        except (OverflowError, OSError, ValueError):
            raise PolibenchError(f"{where}: the Unix timestamp {value!r} is out of range") from None
    elif isinstance(value, str):
        text = value.strip()
        try:
            parsed = dt.datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith("Z") else text)
        except ValueError:
            raise PolibenchError(f"{where}: expected an ISO date (2017-01-20) or a Unix timestamp, "
                                 f"got {value!r}") from None
    else:
        raise PolibenchError(f"{where}: expected an ISO date (2017-01-20) or a Unix timestamp, got {value!r}")
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=dt.timezone.utc)


def locate(name: str, data_dir: Optional[Path], base: Path) -> Optional[Path]:
    """The data file ``name``: absolute, under ``data_dir``, or next to the spec; None when nowhere."""
    path = Path(name).expanduser()
    candidates = [path] if path.is_absolute() else [*([Path(data_dir) / path] if data_dir else []), base / path]
    return next((c for c in candidates if c.is_file()), None)


def _missing_message(spec: CorpusSpec, source: Path, name: str, data_dir: Optional[Path]) -> str:
    where = f"--data-dir {data_dir}" if data_dir else f"{source.parent} (or give --data-dir)"
    obtain = spec.provenance.get("obtain")
    how = f" How to obtain it: {' '.join(str(obtain).split())}" if obtain else ""
    return f"corpus '{spec.corpus}' ({source}): data file '{name}' is not in {where}.{how}"


def check_files(spec: CorpusSpec, source: Path, base: Path, data_dir: Optional[Path]) -> list[tuple[str, Path]]:
    """Every data file found and matching its pinned SHA-256 (checked before any model is loaded)."""
    found = []
    for name in spec.data.files:
        path = locate(name, data_dir, base)
        if path is None:
            raise PolibenchError(_missing_message(spec, source, name, data_dir))
        found.append((name, path))
    return found


def _records(fmt: str, path: Path, text_field: str):
    """``(line or row number, record)`` pairs of one data file; a record is a str (text) or a dict."""
    if fmt == "text":
        with open(path, encoding="utf-8", errors="strict") as handle:
            try:
                for number, line in enumerate(handle, 1):
                    yield number, line.rstrip("\n")
            except UnicodeDecodeError as exc:
                raise PolibenchError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    elif fmt == "jsonl":
        yield from iter_jsonl(path)
    else:
        try:
            import pyarrow.parquet as pq

            table = pq.read_table(path)
        except Exception as exc:  # pyarrow raises several types for unreadable files
            raise PolibenchError(f"{path}: not a readable parquet file ({str(exc).splitlines()[0]})") from None
        for number, record in enumerate(table.to_pylist(), 1):
            yield number, record


def _hf_records(data: CorpusData, data_files: list[str]):
    try:
        from datasets import load_dataset

        dataset = load_dataset(data.dataset, data.config, split=data.split, revision=data.revision,
                               **({"data_files": data_files} if data_files else {}))
    except Exception as exc:  # datasets raises many types (FileNotFoundError, ConnectionError, DatasetNotFound..)
        raise PolibenchError(f"could not load dataset '{data.dataset}' "
                             f"({type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''})") from None
    yield from enumerate(dataset, 1)


def load_corpus(name_or_path: str, data_dir: Optional[Path] = None, before: Optional[str] = None,
                after: Optional[str] = None) -> Corpus:
    """Read a corpus: every text, then the date window ``after <= date < before`` when either is given."""
    spec, source, base = resolve_spec(name_or_path)
    data = spec.data
    low = parse_date(after, "--after") if after else None
    high = parse_date(before, "--before") if before else None
    if (low or high) and not data.date_field:
        raise PolibenchError(f"corpus '{spec.corpus}' ({source}): --before/--after need data.date_field "
                             f"(the field holding each text's date)")
    if low and high and low >= high:
        raise PolibenchError(f"--after {after} must be earlier than --before {before}")
    files = check_files(spec, source, base, data_dir)
    hf_files = [str(path) for _, path in check_files(spec.model_copy(update={"data": data.model_copy(
        update={"files": data.data_files})}), source, base, data_dir)] if data.data_files else []
    record_files = []
    for name, path in files:
        digest = file_sha256(path)
        expected = data.sha256.get(name)
        if expected and expected != digest:
            raise PolibenchError(f"corpus '{spec.corpus}' ({source}): {path} has SHA-256 {digest}, the spec pins "
                                 f"{expected} (a different or damaged copy)")
        record_files.append({"path": str(path.resolve()), "sha256": digest, "bytes": path.stat().st_size})
    sources = [(str(path), _records(data.format, path, data.text_field)) for _, path in files] \
        if data.format != "hf" else [(f"dataset '{data.dataset}'", _hf_records(data, hf_files))]
    texts: list[str] = []
    counts = {"read": 0, "empty": 0, "outside_dates": 0}
    for where, records in sources:
        for number, record in records:
            counts["read"] += 1
            text = record if isinstance(record, str) else _field(record, data.text_field, where, number)
            if not isinstance(text, str):
                raise PolibenchError(f"{where}: {'line' if data.format == 'jsonl' else 'row'} {number}: field "
                                     f"'{data.text_field}' must be a string, got {type(text).__name__}")
            if not text.strip():
                counts["empty"] += 1
                continue
            if low or high:
                assert data.date_field is not None and isinstance(record, dict)
                when = parse_date(_field(record, data.date_field, where, number),
                                  f"{where}: row {number}: field '{data.date_field}'")
                if (low and when < low) or (high and when >= high):
                    counts["outside_dates"] += 1
                    continue
            texts.append(text.strip())
    counts["kept"] = len(texts)
    if not texts:
        raise PolibenchError(f"corpus '{spec.corpus}' ({source}): no texts left to train on ({counts['read']} read, "
                             f"{counts['empty']} empty, {counts['outside_dates']} outside the date window)")
    return Corpus(spec=spec, source=str(source), texts=texts, files=record_files, counts=counts)


def _field(record: dict, name: str, where: str, number: int):
    if name not in record:
        raise PolibenchError(f"{where}: row {number}: no field '{name}' (fields: {', '.join(map(str, record))})")
    return record[name]
