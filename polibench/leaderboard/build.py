"""``polibench leaderboard build``: write the static site from the entries folder.

The site is plain files (``index.html``, ``models/<entry>.html``, ``assets/``, ``data.json``, a copy of
the entries with their gzipped samples under ``entries/`` and of the fairness submissions with their packed
predictions under ``fairness/``) that work from ``file://`` or any static host and
make no network request. It is written to a temporary folder and moved into place, so a failed build never
leaves a half-written site. ``polibench leaderboard build`` verifies every entry first (``--no-verify`` skips it
and the site then says so in a banner), so a tampered entry is not published by default.
"""

from __future__ import annotations

import datetime as _dt
import json
import shutil
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Optional

from polibench import __version__
from polibench.errors import PolibenchError
from polibench.kit.files import staged_folder
from polibench.leaderboard.boards import boards
from polibench.leaderboard.fairness_html import fairness_tab, model_fairness
from polibench.leaderboard.fairness_submit import FairnessSubmission, check_submission, load_submissions
from polibench.leaderboard.render import index_page, model_page
from polibench.leaderboard.schema import SCHEMA_VERSION, Entry, entry_paths, load_entry

MARKER = ".polibench-site"
ASSETS = ("style.css", "app.js")


@dataclass
class BuiltSite:
    out: Path
    index: Path
    n_entries: int
    n_fairness: int = 0


def load_entries(entries_dir: Path, verify: bool = False) -> list[Entry]:
    from polibench.leaderboard.verify import check_entry, files_shipped

    entries = []
    for path in entry_paths(entries_dir):
        entry = load_entry(path)
        if verify and files_shipped(entry, entries_dir):  # entries without their files are not failures
            try:
                check_entry(entry, entries_dir)
            except PolibenchError as exc:
                raise PolibenchError(f"{path.name}: verification failed: {exc}") from None
        entries.append(entry)
    ids = [e.entry_id for e in entries]
    if len(set(ids)) != len(ids):
        raise PolibenchError(f"{entries_dir}: two entries share an entry_id")
    return sorted(entries, key=lambda e: (e.model.id.lower(), e.task_set()))


def load_fairness(folder: Optional[Path], verify: bool = False) -> list[FairnessSubmission]:
    """The fairness submissions in ``folder`` (none when it is None or absent)."""
    if folder is None or not folder.exists():
        return []
    submissions = load_submissions(folder)
    if verify:
        for submission in submissions:
            try:
                check_submission(submission, folder)
            except PolibenchError as exc:
                raise PolibenchError(f"{submission.name}.json: verification failed: {exc}") from None
    return submissions


def fairness_of(entry: Entry, submissions: list[FairnessSubmission]) -> list[tuple[FairnessSubmission, str]]:
    """The submissions that evaluated a model named like the entry's model (its id or its last path part)."""
    names = {entry.model.id, entry.model.id.rsplit("/", 1)[-1]}
    return [(s, name) for s in submissions for name in s.models() if name in names]


def data_document(entries: list[Entry], generated: str, fairness: list[FairnessSubmission] = ()) -> dict:
    return {"schema_version": SCHEMA_VERSION, "generated": generated, "polibench_version": __version__,
            "entries": [e.model_dump(mode="json") for e in entries],
            "fairness": [s.model_dump(mode="json") for s in fairness]}


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _check_replaceable(out: Path) -> None:
    """``out`` may be replaced by a built site: it does not exist, is empty, or is a site built before."""
    if out.exists():
        if not out.is_dir():
            raise PolibenchError(f"{out}: exists and is not a folder")
        if any(out.iterdir()) and not (out / MARKER).exists():
            raise PolibenchError(f"{out}: a non-empty folder that is not a polibench site; not replacing it")


def build_site(entries_dir: Path, out: Path, verify: bool = False, fairness_dir: Optional[Path] = None) -> BuiltSite:
    entries = load_entries(entries_dir, verify=verify)
    fairness = load_fairness(fairness_dir, verify=verify)
    generated = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    _check_replaceable(out)
    with staged_folder(out) as tmp:
        _write(tmp / MARKER, "built by polibench leaderboard build; this folder is replaced on every build\n")
        _write(tmp / "index.html", index_page(entries, generated, fairness_tab(fairness, fairness_dir),
                                              verified=verify, entries_dir=entries_dir))
        for name in (name for _, board in boards() if board.entries_tab for name in board.entries_tab.files):
            if (entries_dir.parent / name).is_file():  # what a tab shows from beside the entries, e.g. a licence
                (tmp / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(entries_dir.parent / name, tmp / name)
        for entry in entries:
            _write(tmp / "models" / f"{entry.entry_id}.html",
                   model_page(entry, generated, model_fairness(fairness_of(entry, fairness))))
            for name in (f"{entry.entry_id}.json", entry.samples.file, entry.results.file):
                if (entries_dir / name).is_file():
                    (tmp / "entries").mkdir(exist_ok=True)
                    shutil.copyfile(entries_dir / name, tmp / "entries" / name)
        for submission in fairness:
            (tmp / "fairness").mkdir(exist_ok=True)
            for name in (f"{submission.name}.json", submission.predictions.file):
                if (fairness_dir / name).is_file():
                    shutil.copyfile(fairness_dir / name, tmp / "fairness" / name)
        templates = resources.files("polibench.leaderboard").joinpath("templates")
        for name in ASSETS:
            _write(tmp / "assets" / name, templates.joinpath(name).read_text(encoding="utf-8"))
        _write(tmp / "data.json",
               json.dumps(data_document(entries, generated, fairness), indent=1, ensure_ascii=False) + "\n")
    return BuiltSite(out=out, index=out / "index.html", n_entries=len(entries), n_fairness=len(fairness))
