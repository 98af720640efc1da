"""The run files shipped beside an entry: gzipped copies of samples.jsonl and results.json.

Hashes are of the uncompressed bytes, so an entry's ``samples.sha256`` equals ``sha256sum samples.jsonl``
of the run it came from. The gzip copies are written reproducibly (no timestamp, no file name inside).
"""

from __future__ import annotations

import gzip
import hashlib
from pathlib import Path

from polibench.errors import PolibenchError
from polibench.kit.files import atomic_path
from polibench.leaderboard.schema import Artifact


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def gzip_copy(source: Path, target: Path) -> Artifact:
    """Write ``source`` gzipped to ``target`` (atomically) and describe it."""
    return gzip_bytes(source.read_bytes(), target)


def gzip_bytes(data: bytes, target: Path) -> Artifact:
    """Write ``data`` gzipped to ``target`` (atomically) and describe it."""
    with atomic_path(target) as tmp, open(tmp, "wb") as raw, \
            gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as gz:
        gz.write(data)
    return Artifact(file=target.name, sha256=sha256_bytes(data), bytes=len(data))


def read_artifact(entries_dir: Path, artifact: Artifact) -> bytes:
    """The uncompressed bytes of a shipped file, after checking them against the entry's hash."""
    path = entries_dir / artifact.file
    try:
        with gzip.open(path, "rb") as handle:
            data = handle.read()
    except (OSError, EOFError) as exc:
        raise PolibenchError(f"{path}: cannot read the gzipped file ({exc})") from None
    digest = sha256_bytes(data)
    if digest != artifact.sha256:
        raise PolibenchError(f"{path}: SHA-256 {digest[:16]}... does not match the entry's "
                             f"{artifact.sha256[:16]}... (the shipped file was changed)")
    return data
