"""Atomic writers: a file is either its old content or its new content, never half-written."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from pathlib import Path
from typing import Callable, Iterator, TypeVar

T = TypeVar("T")


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to a uniquely named sibling temporary file (so concurrent writers never share one),
    flush it to disk, then rename it over ``path``."""
    path = Path(path)
    handle, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` as UTF-8, atomically (see :func:`atomic_write_bytes`)."""
    atomic_write_bytes(path, text.encode("utf-8"))


def publish_folder(folder: Path, write: Callable[[Path], None]) -> None:
    """``write(tmp)`` fills a temporary folder beside ``folder``, which then replaces ``folder`` by a rename: a
    reader never sees a half-written model folder (the trained-at-first-use models use it under their lock)."""
    folder = Path(folder)
    tmp = folder.parent / f".{folder.name}.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    write(tmp)
    shutil.rmtree(folder, ignore_errors=True)
    tmp.rename(folder)


@contextlib.contextmanager
def file_lock(path: Path) -> Iterator[None]:
    """An exclusive lock held while the block runs (POSIX ``flock`` on ``path``), so that concurrent processes
    filling one cache entry wait for each other; where there is no ``fcntl`` (Windows) no lock is taken, and
    the caller's rename into place still keeps the cache consistent."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    with open(path, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def cached_or_made(folder: Path, marker: str, load: Callable[[Path], T], make: Callable[[Path], T]) -> T:
    """A model trained at first use and cached in ``folder``: ``load(folder)`` when ``folder/marker`` exists;
    else ``make(folder)``, which must leave ``marker`` in ``folder`` (e.g. through :func:`publish_folder`), under a
    lock beside the folder, so concurrent processes train once; one that waited loads what the first one made."""
    folder = Path(folder)
    if (folder / marker).is_file():
        return load(folder)
    folder.parent.mkdir(parents=True, exist_ok=True)
    with file_lock(folder.parent / f".{folder.name}.lock"):
        if (folder / marker).is_file():  # another process finished it while this one waited
            return load(folder)
        return make(folder)
