"""``polibench leaderboard build``: write the static site from the entries folder.

The site is plain files (``index.html``, ``models/<entry>.html``, ``assets/``, ``data.json`` and a copy of
the entries with their gzipped samples under ``entries/``) that work from ``file://`` or any static host and
make no network request. It is written to a temporary folder and moved into place, so a failed build never
leaves a half-written site.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from polibench import __version__
from polibench.errors import PolibenchError
from polibench.leaderboard.render import index_page, model_page
from polibench.leaderboard.schema import SCHEMA_VERSION, Entry, entry_paths, load_entry

MARKER = ".polibench-site"
ASSETS = ("style.css", "app.js")


@dataclass
class BuiltSite:
    out: Path
    index: Path
    n_entries: int


def load_entries(entries_dir: Path, verify: bool = False) -> list[Entry]:
    entries = []
    for path in entry_paths(entries_dir):
        if verify:
            from polibench.leaderboard.verify import FAILED, verify_path

            outcome = verify_path(path)
            if outcome.status == FAILED:
                raise PolibenchError(f"{path.name}: verification failed: {outcome.detail}")
        entries.append(load_entry(path))
    ids = [e.entry_id for e in entries]
    if len(set(ids)) != len(ids):
        raise PolibenchError(f"{entries_dir}: two entries share an entry_id")
    return sorted(entries, key=lambda e: (e.model.id.lower(), e.task_set()))


def data_document(entries: list[Entry], generated: str) -> dict:
    return {"schema_version": SCHEMA_VERSION, "generated": generated, "polibench_version": __version__,
            "entries": [e.model_dump(mode="json") for e in entries]}


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _replace_dir(tmp: Path, out: Path) -> None:
    if out.exists():
        if not out.is_dir():
            raise PolibenchError(f"{out}: exists and is not a folder")
        if any(out.iterdir()) and not (out / MARKER).exists():
            raise PolibenchError(f"{out}: a non-empty folder that is not a polibench site; not replacing it")
        shutil.rmtree(out)
    os.replace(tmp, out)


def build_site(entries_dir: Path, out: Path, verify: bool = False) -> BuiltSite:
    entries = load_entries(entries_dir, verify=verify)
    generated = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}-", dir=out.parent))
    try:
        _write(tmp / MARKER, "built by polibench leaderboard build; this folder is replaced on every build\n")
        _write(tmp / "index.html", index_page(entries, generated))
        for entry in entries:
            _write(tmp / "models" / f"{entry.entry_id}.html", model_page(entry, generated))
            for name in (f"{entry.entry_id}.json", entry.samples.file, entry.results.file):
                if (entries_dir / name).is_file():
                    (tmp / "entries").mkdir(exist_ok=True)
                    shutil.copyfile(entries_dir / name, tmp / "entries" / name)
        templates = resources.files("polibench.leaderboard").joinpath("templates")
        for name in ASSETS:
            _write(tmp / "assets" / name, templates.joinpath(name).read_text(encoding="utf-8"))
        _write(tmp / "data.json", json.dumps(data_document(entries, generated), indent=1, ensure_ascii=False) + "\n")
        tmp.chmod(0o755)
        _replace_dir(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return BuiltSite(out=out, index=out / "index.html", n_entries=len(entries))
