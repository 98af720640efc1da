"""Atomic writers: a file is either its old content or its new content, never half-written.

A file written here gets the mode any other file the user creates gets (``0666`` less the umask), not the
``0600`` of a temporary file, so a colleague who can read the rest of a run folder can read its results and
report too. A folder that cannot be written is one :class:`~polibench.errors.PolibenchError` naming it
(:func:`check_writable`, :func:`atomic_write_bytes`), never a traceback."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from pathlib import Path
from typing import Callable, Iterator, TypeVar

from polibench.errors import PolibenchError

T = TypeVar("T")


def umask() -> int:
    """The process's umask (read from /proc where it is there, so that it is never changed, even briefly)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def file_mode() -> int:
    """The mode of a new file: ``0666`` less the umask (``0644`` under the usual ``022``)."""
    return 0o666 & ~umask()


def not_writable(folder: Path, exc: OSError) -> PolibenchError:
    """The one-line error for a folder polibench cannot write into."""
    return PolibenchError(f"{folder}: cannot write here ({exc.strerror or exc}); nothing was written. Choose a "
                          "folder you can write to, or make this one writable")


def check_writable(folder: Path) -> None:
    """Raise :class:`PolibenchError` unless a file can be created in ``folder`` (tried and removed at once): the
    check a command makes before any work whose result it could not save."""
    folder = Path(folder)
    try:
        handle, tmp = tempfile.mkstemp(dir=folder, prefix=".polibench-write-check-", suffix=".tmp")
    except OSError as exc:
        raise not_writable(folder, exc) from None
    os.close(handle)
    Path(tmp).unlink(missing_ok=True)


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to a uniquely named sibling temporary file (so concurrent writers never share one),
    flush it to disk, then rename it over ``path``; the file gets :func:`file_mode`."""
    path = Path(path)
    try:
        handle, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise not_writable(path.parent, exc) from None
    try:
        os.fchmod(handle, file_mode())
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
