"""The one JSON-lines reader: rows with their line numbers, and one error wording naming the file and line.

Lines are split on ``\\n`` only (never ``str.splitlines()``, which also splits on U+2028 and other separators
that JSON allows raw inside a string), so a row holding such a character is read whole. Blank lines are
skipped; line numbers count every line of the file, blank ones included. A UTF-8 byte-order mark at the very
start of a file is accepted and dropped.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator, Union

from polibench.errors import PolibenchError

Source = Union[Path, str]


def line_error(name: Source, number: int, problem: str) -> PolibenchError:
    """The error for one line of a JSONL file: ``FILE: line N: PROBLEM``."""
    return PolibenchError(f"{name}: line {number}: {problem}")


def field_error(name: Source, number: int, field: str, expected: str) -> PolibenchError:
    """The error for one field of one row: ``FILE: line N: field 'F': EXPECTED``."""
    return line_error(name, number, f"field '{field}': {expected}")


def jsonl_lines(data: bytes, name: Source) -> Iterator[tuple[int, str]]:
    """The non-blank lines of JSONL bytes, decoded, with their 1-based line numbers."""
    for number, raw in enumerate(data.split(b"\n"), 1):
        if not raw.strip():
            continue
        yield number, _decode(raw, name, number)


BOM = b"\xef\xbb\xbf"


def _decode(raw: bytes, name: Source, number: int) -> str:
    """A line as text; a UTF-8 byte-order mark opening the file (line 1) is accepted and dropped, as Windows
    editors write one (docs/errors.md)."""
    if number == 1 and raw.startswith(BOM):
        raw = raw[len(BOM):]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise line_error(name, number, f"expected UTF-8 text (byte 0x{raw[exc.start]:02x} at column "
                                       f"{exc.start + 1} is not valid UTF-8)") from None


def parse_line(line: str, name: Source, number: int, *, objects: bool = True) -> Any:
    """One line's JSON value (a JSON object unless ``objects`` is False), or one clear error."""
    try:
        value = json.loads(line)
    except json.JSONDecodeError as exc:
        raise line_error(name, number, f"not valid JSON ({exc.msg} at column {exc.colno})") from None
    except RecursionError:
        raise line_error(name, number, "not valid JSON (nested too deeply)") from None
    if objects and not isinstance(value, dict):
        raise line_error(name, number, f"expected a JSON object, got {_json_type(value)}")
    return value


def iter_jsonl(source: Union[Source, bytes], name: Source | None = None, *,
               objects: bool = True) -> Iterator[tuple[int, Any]]:
    """``(line number, value)`` for every non-blank line of a JSONL file (streamed) or of its bytes.

    ``name`` is what errors call the source (default: the path). Every value is a JSON object unless
    ``objects`` is False."""
    if isinstance(source, bytes):
        label = name if name is not None else "(data)"
        for number, line in jsonl_lines(source, label):
            yield number, parse_line(line, label, number, objects=objects)
        return
    path = Path(source)
    label = name if name is not None else path
    try:
        handle = open(path, "rb")  # binary lines end at b"\n" only
    except FileNotFoundError:
        raise PolibenchError(f"{label}: no such file") from None
    except OSError as exc:
        raise PolibenchError(f"{label}: cannot be read ({exc.strerror or exc})") from None
    with handle:
        for number, raw in enumerate(handle, 1):
            if raw.strip():
                yield number, parse_line(_decode(raw, label, number), label, number, objects=objects)


def read_jsonl(source: Union[Source, bytes], name: Source | None = None, *,
               objects: bool = True) -> list[tuple[int, Any]]:
    """Every ``(line number, value)`` of a JSONL file or its bytes (see :func:`iter_jsonl`)."""
    return list(iter_jsonl(source, name, objects=objects))


def _json_type(value: Any) -> str:
    return {list: "an array", str: "a string", bool: "a boolean", int: "a number", float: "a number",
            type(None): "null"}.get(type(value), type(value).__name__)
