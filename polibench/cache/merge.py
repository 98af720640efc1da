"""``polibench cache merge``: several response caches (one per machine) combined into one.

Every input is checked first (it exists and is a polibench response cache), so bad input writes nothing. Then
the inputs are copied into the output in the order given, one transaction per input, with the store's own rule:
the first response for a key wins (``INSERT OR IGNORE``; an existing output's entries come first). An entry of
a later input with the same key and another response (text, finish reason, token counts, mask fills; for an
option-scoring request, the scores) is a conflict: it is not copied, and it is counted and shown, because it
means one request got two answers (a backend that is not deterministic across machines, or another build).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from polibench.cache.store import ResponseCache
from polibench.errors import PolibenchError

RESPONSE_COLUMNS = ("key", "model_key", "text", "finish_reason", "prompt_tokens", "completion_tokens", "created",
                    "mask_fills")
RESPONSE_ANSWER = ("text", "finish_reason", "prompt_tokens", "completion_tokens", "mask_fills")
SCORE_COLUMNS = ("key", "model_key", "scores", "created")
EXAMPLES = 3


@dataclass
class Conflict:
    """One key that a later input answers differently: which input, what was kept and what was not."""

    table: str
    key: str
    source: Path
    kept: str
    dropped: str


@dataclass
class CacheMergeReport:
    output: Path
    inputs: list[Path]
    added: dict[str, int] = field(default_factory=lambda: {"responses": 0, "option_scores": 0})
    totals: dict[str, int] = field(default_factory=dict)
    conflicts: int = 0
    examples: list[Conflict] = field(default_factory=list)


def _columns(db: sqlite3.Connection, schema: str, table: str) -> list[str]:
    return [row[1] for row in db.execute(f"PRAGMA {schema}.table_info({table})")]


def check_cache(path: Path) -> None:
    """``path`` is a readable polibench response cache; one error naming it otherwise (nothing is written)."""
    if not path.is_file():
        raise PolibenchError(f"{path}: no such file (a response cache is a responses.sqlite file)")
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            columns = _columns(db, "main", "responses")
        finally:
            db.close()
    except sqlite3.Error as exc:
        raise PolibenchError(f"{path}: not a polibench response cache ({exc})") from None
    missing = [c for c in RESPONSE_COLUMNS if c != "mask_fills" and c not in columns]
    if missing:
        raise PolibenchError(f"{path}: not a polibench response cache (no 'responses' table with the columns "
                             f"{', '.join(RESPONSE_COLUMNS[:-1])}; missing: {', '.join(missing)})")


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _merge_table(db: sqlite3.Connection, table: str, columns: tuple[str, ...], answer: tuple[str, ...],
                 source: Path, report: CacheMergeReport) -> None:
    present = set(_columns(db, "src", table))
    if not present:
        return  # an older cache without this table
    select = ", ".join(f"s.{c}" if c in present else "NULL" for c in columns)
    differs = " OR ".join(f"m.{c} IS NOT {'s.' + c if c in present else 'NULL'}" for c in answer)
    shown = answer[0]
    rows = db.execute(f"SELECT s.key, m.{shown}, {'s.' + shown if shown in present else 'NULL'} FROM src.{table} s "
                      f"JOIN main.{table} m ON m.key = s.key WHERE {differs}").fetchall()
    report.conflicts += len(rows)
    for key, kept, dropped in rows[:max(0, EXAMPLES - len(report.examples))]:
        report.examples.append(Conflict(table, key, source, _short(kept), _short(dropped)))
    db.execute("BEGIN")
    cursor = db.execute(f"INSERT OR IGNORE INTO main.{table} ({', '.join(columns)}) SELECT {select} FROM src.{table} s")
    report.added[table] += max(cursor.rowcount, 0)
    db.execute("COMMIT")


def merge_caches(inputs: list[Path], output: Path) -> CacheMergeReport:
    """Copy every input cache into ``output`` (created if absent), first write wins; see the module docstring."""
    if not inputs:
        raise PolibenchError("cache merge: give the caches to merge")
    out = output.resolve()
    seen: set[Path] = set()
    for path in inputs:
        if path.resolve() == out:
            raise PolibenchError(f"{path}: is also --output; the output's own entries are kept first anyway")
        if path.resolve() in seen:
            raise PolibenchError(f"{path}: given twice")
        seen.add(path.resolve())
        check_cache(path)
    if output.exists():
        check_cache(output)
    ResponseCache(output).close()  # creates the file and its tables (or adds a missing column)
    report = CacheMergeReport(output=output, inputs=list(inputs))
    db = sqlite3.connect(output, timeout=60, isolation_level=None)
    try:
        for path in inputs:
            db.execute("ATTACH DATABASE ? AS src", (str(path),))
            try:
                _merge_table(db, "responses", RESPONSE_COLUMNS, RESPONSE_ANSWER, path, report)
                _merge_table(db, "option_scores", SCORE_COLUMNS, ("scores",), path, report)
                if _columns(db, "src", "models"):
                    db.execute("INSERT OR IGNORE INTO main.models (model_key, identity) "
                               "SELECT model_key, identity FROM src.models")
            finally:
                db.execute("DETACH DATABASE src")
        report.totals = {table: db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
                         for table in ("responses", "option_scores")}
    except sqlite3.Error as exc:
        raise PolibenchError(f"cache merge into {output}: {exc} (the inputs merged before this one are kept)") from None
    finally:
        db.close()
    return report


def report_lines(report: CacheMergeReport) -> list[str]:
    """What ``polibench cache merge`` prints: the totals, then the conflicts with a few examples."""
    lines = [f"merged {len(report.inputs)} cache(s) into {report.output}: {report.added['responses']:,} new responses "
             f"and {report.added['option_scores']:,} new option scores; it now holds "
             f"{report.totals.get('responses', 0):,} responses and {report.totals.get('option_scores', 0):,} option "
             "scores"]
    if report.conflicts:
        lines.append(f"warning: {report.conflicts:,} conflicting entries (same request, another response; the first "
                     "one is kept):")
        for c in report.examples:
            lines.append(f"  {c.table} key {c.key[:16]}: kept {c.kept}, not {c.dropped} from {c.source}")
    else:
        lines.append("no conflicting entries (no request has two different responses)")
    return lines
