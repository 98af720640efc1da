"""Atomic writers: a file or a folder is either its old content or its new content, never half-written.

Every write that must not be seen half-done goes through here: :func:`atomic_path` (a file written by any
means: a stream, ``savefig``, a download), :func:`atomic_write_bytes` / :func:`atomic_write_text` (a file's
whole content at once) and :func:`staged_folder` / :func:`publish_folder` (a folder filled and then swapped in).
Temporary names are unique (``.NAME.<random>.tmp`` for a file, ``.NAME.tmp-<random>`` for a folder), so
concurrent writers never share one, and a write that raises removes its temporary file or folder. A temporary
file is created with the mode ``open()`` would give (``0o666`` less the umask), so the published file has the
same mode as any other file the process writes.
A folder that cannot be written is one :class:`~polibench.errors.PolibenchError` naming it
(:func:`check_writable`, :func:`atomic_path`), never a traceback.
"""

from __future__ import annotations

import contextlib
import os
import secrets
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


def _fresh_file(path: Path) -> Path:
    """A new empty file beside ``path`` under a name no other writer has (``O_EXCL``), with the default mode."""
    while True:
        tmp = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
        try:
            os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        except FileExistsError:
            continue
        except OSError as exc:
            raise not_writable(path.parent, exc) from None
        return tmp


@contextlib.contextmanager
def atomic_path(path: Path) -> Iterator[Path]:
    """A uniquely named temporary sibling of ``path`` (an empty file) for the block to write by any means; when
    the block ends it is flushed to disk and renamed over ``path``; when the block raises it is removed."""
    path = Path(path)
    tmp = _fresh_file(path)
    try:
        yield tmp
        handle = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(handle)
        finally:
            os.close(handle)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through :func:`atomic_path`."""
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` as UTF-8, atomically (see :func:`atomic_path`)."""
    atomic_write_bytes(path, text.encode("utf-8"))


def _holder_prefix(folder: Path) -> str:
    return f".{folder.name}.tmp-"


@contextlib.contextmanager
def staged_folder(folder: Path) -> Iterator[Path]:
    """An empty temporary folder for the block to fill; when the block ends it replaces ``folder`` (an existing
    ``folder`` is moved aside first and removed after, or put back if the swap fails); when the block raises it
    is removed and ``folder`` is left as it was.

    The temporary folder is ``new`` inside a uniquely named holder beside ``folder`` (``.NAME.tmp-<random>``), so
    it is made with the default mode, and :func:`remove_stale` can find what a killed process left."""
    folder = Path(folder)
    folder.parent.mkdir(parents=True, exist_ok=True)
    holder = Path(tempfile.mkdtemp(prefix=_holder_prefix(folder), dir=folder.parent))
    try:
        new, old = holder / "new", holder / "old"
        new.mkdir()
        yield new
        if os.path.lexists(folder):
            os.replace(folder, old)
        try:
            os.replace(new, folder)
        except BaseException:
            if os.path.lexists(old):
                os.replace(old, folder)
            raise
    finally:
        shutil.rmtree(holder, ignore_errors=True)


def remove_stale(folder: Path) -> None:
    """Remove the temporary folders a killed process left beside ``folder`` (call it only while no other process
    can be staging ``folder``: under the lock of :func:`cached_or_made`)."""
    folder = Path(folder)
    for stale in folder.parent.glob(_holder_prefix(folder) + "*"):
        shutil.rmtree(stale, ignore_errors=True)


def publish_folder(folder: Path, write: Callable[[Path], None]) -> None:
    """``write(tmp)`` makes a folder at ``tmp`` (a unique path that does not exist yet, as a model's ``save`` expects)
    and fills it; it then replaces ``folder`` (:func:`staged_folder`): a reader never sees a half-written model folder
    (the trained-at-first-use models use it under their lock), and a ``write`` that raises leaves nothing behind."""
    with staged_folder(folder) as tmp:
        tmp.rmdir()
        write(tmp)


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
    lock beside the folder, so concurrent processes train once; one that waited loads what the first one made.
    Before ``make`` runs, the temporary folders a killed maker left beside ``folder`` are removed."""
    folder = Path(folder)
    if (folder / marker).is_file():
        return load(folder)
    folder.parent.mkdir(parents=True, exist_ok=True)
    with file_lock(folder.parent / f".{folder.name}.lock"):
        if (folder / marker).is_file():  # another process finished it while this one waited
            return load(folder)
        remove_stale(folder)
        return make(folder)
