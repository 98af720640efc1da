"""A disk cache of frozen sentence embeddings for the readers' benchmarks (a helper, not a benchmark).

``CachedEncoder(path, folder)`` embeds like :class:`polibench.scorers.issue_stance.model.Encoder` (mean-pooled,
L2-normalised), but keeps every vector it computed in ``folder/<encoder name>-<max_length>.npz`` keyed by the
text's hash, so comparisons of heads and features encode each text once per encoder.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Optional, Sequence

import numpy as np

from polibench.kit.encoder import mean_pooled


def text_key(text: str) -> str:
    return hashlib.sha1((text or "").encode("utf-8")).hexdigest()


class CachedEncoder:
    """An encoder whose vectors are cached on disk (see the module docstring)."""

    def __init__(self, path: str, folder: Path, name: Optional[str] = None):
        self.path, self.folder = path, Path(folder)
        self.name = name or Path(path).name
        self._store: dict[int, dict[str, np.ndarray]] = {}

    def _file(self, max_length: int) -> Path:
        return self.folder / f"{self.name}-{max_length}.npz"

    def _load(self, max_length: int) -> dict[str, np.ndarray]:
        if max_length not in self._store:
            f = self._file(max_length)
            self._store[max_length] = dict(np.load(f)) if f.is_file() else {}
        return self._store[max_length]

    def save(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        for max_length, store in self._store.items():
            tmp = self._file(max_length).with_suffix(".tmp.npz")
            np.savez(tmp, **store)
            tmp.replace(self._file(max_length))

    def embed(self, texts: Sequence[str], max_length: int = 128, batch_size: int = 32, progress=None,
              save_every: int = 2000) -> np.ndarray:
        store = self._load(max_length)
        missing = list(dict.fromkeys(t for t in texts if text_key(t) not in store))
        for start in range(0, len(missing), save_every):
            chunk = missing[start:start + save_every]
            vectors = mean_pooled(self.path, chunk, max_length=max_length, batch_size=batch_size, who="benchmark",
                                  progress=progress)
            for text, vector in zip(chunk, vectors):
                store[text_key(text)] = vector
            self.save()
        return np.stack([store[text_key(t)] for t in texts]) if len(texts) else np.zeros((0, 1), np.float32)
