"""SQLite store of responses: one row per request key, committed (and fsynced) as soon as it exists.

The database lives at ``$POLIBENCH_CACHE/responses.sqlite`` (default: the platform's user cache folder,
see :func:`polibench.paths.cache_dir`). WAL mode with ``synchronous=FULL`` makes each committed row
survive a crash or SIGKILL; a row is written once and never replaced (the first response for a key wins),
so a resumed run never holds two responses for one request. ``mask_fills`` (the ``mlm`` backend's top fills)
are stored as JSON; a database made before that column existed gets it added on open. The option
log-probabilities of ``score_choices`` requests live in their own table, ``option_scores`` (JSON lists).
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Iterable, Optional

from polibench.cache.keys import canonical, identity_key
from polibench.errors import PolibenchError
from polibench.paths import cache_dir
from polibench.records import Completion, Usage

FILE_NAME = "responses.sqlite"

SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY,
    model_key TEXT NOT NULL,
    text TEXT NOT NULL,
    finish_reason TEXT,
    prompt_tokens INTEGER,
    completion_tokens INTEGER,
    created REAL NOT NULL,
    mask_fills TEXT
);
CREATE TABLE IF NOT EXISTS option_scores (
    key TEXT PRIMARY KEY,
    model_key TEXT NOT NULL,
    scores TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS models (
    model_key TEXT PRIMARY KEY,
    identity TEXT NOT NULL
);
"""


def fills_json(completion: Completion) -> Optional[str]:
    if completion.mask_fills is None:
        return None
    return json.dumps([f.model_dump() for f in completion.mask_fills], ensure_ascii=False)


def default_cache_path() -> Path:
    return cache_dir() / FILE_NAME


class ResponseCache:
    """Look up and store completions by request key (see :func:`polibench.cache.keys.request_key`)."""

    def __init__(self, path: Optional[Path] = None):
        self.path = Path(path) if path else default_cache_path()
        self.hits = 0
        self.writes = 0
        self.lock = threading.Lock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # Backends may report results from a worker thread (an event loop run inside a notebook's loop).
            self.db = sqlite3.connect(self.path, timeout=60, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.executescript(SCHEMA)
            self._add_fills_column()
        except (OSError, sqlite3.Error) as exc:
            raise PolibenchError(f"cannot open the response cache {self.path}: {exc} "
                                 "(set POLIBENCH_CACHE to another folder, or pass --no-cache)") from None

    def _add_fills_column(self) -> None:
        """Databases written before ``mask_fills`` existed get the column (another process may add it first)."""
        if "mask_fills" in {row[1] for row in self.db.execute("PRAGMA table_info(responses)")}:
            return
        try:
            self.db.execute("ALTER TABLE responses ADD COLUMN mask_fills TEXT")
        except sqlite3.OperationalError:
            if "mask_fills" not in {row[1] for row in self.db.execute("PRAGMA table_info(responses)")}:
                raise

    def register_model(self, identity: dict) -> str:
        """Record a model identity (for inspection) and return its key."""
        key = identity_key(identity)
        self.db.execute("INSERT OR IGNORE INTO models (model_key, identity) VALUES (?, ?)", (key, canonical(identity)))
        return key

    def get_many(self, keys: Iterable[str], count_hits: bool = True) -> dict[str, Completion]:
        """The stored completions among ``keys``; ``count_hits=False`` for a look that reuses nothing (the plan)."""
        found: dict[str, Completion] = {}
        wanted = list(dict.fromkeys(keys))
        for start in range(0, len(wanted), 500):
            part = wanted[start:start + 500]
            with self.lock:
                rows = self.db.execute(
                    "SELECT key, text, finish_reason, prompt_tokens, completion_tokens, mask_fills FROM responses "
                    f"WHERE key IN ({','.join('?' * len(part))})", part).fetchall()
            for key, text, finish, p_tok, c_tok, fills in rows:
                found[key] = Completion(text=text, finish_reason=finish,
                                        usage=Usage(prompt_tokens=p_tok, completion_tokens=c_tok),
                                        mask_fills=json.loads(fills) if fills else None)
        if count_hits:
            self.hits += len(found)
        return found

    def put_many(self, model_key: str, items: Iterable[tuple[str, Completion]]) -> None:
        """Store completions in one transaction (committed, hence fsynced, before returning)."""
        self._insert("responses", ("key", "model_key", "text", "finish_reason", "prompt_tokens", "completion_tokens",
                                   "created", "mask_fills"),
                     [(key, model_key, c.text, c.finish_reason, c.usage.prompt_tokens, c.usage.completion_tokens,
                       time.time(), fills_json(c)) for key, c in items])

    def get_scores(self, keys: Iterable[str]) -> dict[str, list[float]]:
        """The option log-probabilities stored under each key that has them (``score_choices`` requests)."""
        found: dict[str, list[float]] = {}
        wanted = list(dict.fromkeys(keys))
        for start in range(0, len(wanted), 500):
            part = wanted[start:start + 500]
            with self.lock:
                marks = ",".join("?" * len(part))
                rows = self.db.execute(f"SELECT key, scores FROM option_scores WHERE key IN ({marks})", part).fetchall()
            found.update((key, [float(v) for v in json.loads(scores)]) for key, scores in rows)
        self.hits += len(found)
        return found

    def put_scores(self, model_key: str, items: Iterable[tuple[str, list[float]]]) -> None:
        """Store option log-probabilities in one transaction (the first value for a key wins, as for responses)."""
        self._insert("option_scores", ("key", "model_key", "scores", "created"),
                     [(key, model_key, json.dumps([float(v) for v in values]), time.time()) for key, values in items])

    def _insert(self, table: str, columns: tuple[str, ...], rows: list[tuple]) -> None:
        """``rows`` into ``table`` in one transaction, committed (hence fsynced) before returning; a row whose key
        is stored already is left out (the first value for a key wins)."""
        if not rows:
            return
        with self.lock, self.db:
            self.db.execute("BEGIN")
            self.db.executemany(f"INSERT OR IGNORE INTO {table} ({', '.join(columns)}) "
                                f"VALUES ({', '.join('?' * len(columns))})", rows)
            self.writes += len(rows)

    def put(self, model_key: str, key: str, completion: Completion) -> None:
        self.put_many(model_key, [(key, completion)])

    def count(self, model_key: Optional[str] = None) -> int:
        if model_key is None:
            return self.db.execute("SELECT COUNT(*) FROM responses").fetchone()[0]
        return self.db.execute("SELECT COUNT(*) FROM responses WHERE model_key = ?", (model_key,)).fetchone()[0]

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> ResponseCache:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
