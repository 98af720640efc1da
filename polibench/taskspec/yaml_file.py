"""Read one user YAML file safely, turning every way it can be unreadable into a :class:`SpecError`.

Used for task, instrument and variant files (and fairness task files). What is caught, with the line and
column where PyYAML knows them: bytes that are not UTF-8, YAML syntax errors, a key given twice in one
mapping, nesting too deep to parse, files larger than :data:`MAX_BYTES`, and alias bombs (more than
:data:`MAX_ALIASES` ``*alias`` references). :func:`validation_problems` lists every pydantic error of a
file as ``(field path, what was expected)`` pairs.
"""

from __future__ import annotations

import hashlib
import pickle
from pathlib import Path
from typing import Any, Optional

import yaml
from pydantic import ValidationError

from polibench.errors import PolibenchError, SpecError

MAX_BYTES = 16 * 1024 * 1024
MAX_ALIASES = 1000
MAX_SHOWN = 80  # characters of a wrong value quoted back in a message
MERGE_TAG = "tag:yaml.org,2002:merge"
# Parsed files, pickled, by a digest of their bytes: a process that reads the same task files again (every
# command in one test session, a notebook) unpickles them (~2% of the parse time) into a fresh copy, so a caller
# that changes what it got changes no other caller's. Errors are not kept: a bad file is reported every time.
# The same pickles are kept on disk under the cache folder (PARSED_FOLDER), so that every later command (each
# `polibench` process parses the ~130 built-in task files, 1.3 MB of YAML) unpickles instead of parsing.
_PARSED: dict[bytes, bytes] = {}
MAX_PARSED = 512
PARSED_FOLDER = "parsed-yaml-v1"  # keyed by the file's bytes only: bump the version when the parsing rules change


class _UniqueKeys:
    """Constructor mixin: each key once in a mapping (the message names the line of the first one)."""

    def construct_mapping(self, node, deep=False):
        if isinstance(node, yaml.MappingNode):
            first: dict = {}
            for key_node, _ in node.value:
                if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == MERGE_TAG:
                    continue
                key = self.construct_object(key_node)  # type: ignore[attr-defined]
                if key in first:
                    raise yaml.constructor.ConstructorError(
                        None, None, f"each key once in a mapping; '{key}' is also on line {first[key]}",
                        key_node.start_mark)
                first[key] = key_node.start_mark.line + 1
        return super().construct_mapping(node, deep)  # type: ignore[misc]


class _StrictLoader(_UniqueKeys, yaml.SafeLoader):
    """SafeLoader that refuses duplicate keys and too many aliases."""

    def __init__(self, stream):
        super().__init__(stream)
        self._aliases = 0

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            self._aliases += 1
            if self._aliases > MAX_ALIASES:
                raise yaml.composer.ComposerError(None, None, f"more than {MAX_ALIASES} aliases (*name references)",
                                                  self.peek_event().start_mark)
        return super().compose_node(parent, index)


_FastStrictLoader: Any = None
if hasattr(yaml, "CSafeLoader"):  # libyaml: the same constructor and resolver, parsed in C (5-10x faster)
    class _FastStrictLoader(_UniqueKeys, yaml.CSafeLoader):  # type: ignore[no-redef]
        """libyaml's SafeLoader with the duplicate-key check; used only on text with few enough aliases."""


def _load(text: str) -> Any:
    """Parse ``text`` strictly: with libyaml when it is installed and the text has at most MAX_ALIASES aliases
    (counted from libyaml's events), else (and for every text libyaml refuses, so that messages are always the
    pure-Python parser's) with :class:`_StrictLoader`."""
    if _FastStrictLoader is not None:
        try:
            # an alias is written *name: text without a '*' has none, and the event pass (in Python) is skipped
            aliases = 0 if "*" not in text else sum(isinstance(e, yaml.AliasEvent)
                                                    for e in yaml.parse(text, Loader=yaml.CSafeLoader))
            if aliases <= MAX_ALIASES:
                return yaml.load(text, Loader=_FastStrictLoader)  # noqa: S506 - a SafeLoader subclass
        except yaml.YAMLError:
            pass
    return yaml.load(text, Loader=_StrictLoader)  # noqa: S506 - a SafeLoader subclass


def _line_column(mark) -> str:
    return f"line {mark.line + 1}, column {mark.column + 1}"


def _yaml_problem(exc: yaml.YAMLError) -> tuple[str, str]:
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    if problem.startswith("each key once"):
        return (_line_column(mark) if mark else "(file)"), problem
    context, context_mark = getattr(exc, "context", None), getattr(exc, "context_mark", None)
    detail = problem
    if context and context_mark is not None and context_mark != mark:
        detail += f" ({context} started at {_line_column(context_mark)})"
    return (_line_column(mark) if mark else "(file)"), f"valid YAML: {detail}"


def _undecodable(data: bytes, exc: UnicodeDecodeError) -> tuple[str, str]:
    start = exc.start
    line = data.count(b"\n", 0, start) + 1
    column = start - (data.rfind(b"\n", 0, start) + 1) + 1
    return f"line {line}, column {column}", (f"UTF-8 text (byte 0x{data[start]:02x} is not valid UTF-8; "
                                             f"save the file as UTF-8)")


def read_yaml(path: Path) -> Any:
    """The parsed content of ``path``; raises :class:`SpecError` (or PolibenchError) naming line and column."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise SpecError(str(path), "(file)", f"a file of at most {MAX_BYTES // (1024 * 1024)} MiB "
                                                 f"(it has {size / (1024 * 1024):.1f} MiB)")
        data = path.read_bytes()
    except OSError as exc:
        raise PolibenchError(f"{path}: cannot read ({exc.strerror or exc})") from None
    try:
        # a UTF-8 byte-order mark at the start (Windows editors write one) is accepted on purpose and dropped, as
        # the YAML spec allows (docs/errors.md); line and column numbers are unchanged by it
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SpecError(str(path), *_undecodable(data, exc)) from None
    key = hashlib.blake2b(data, digest_size=16).digest()
    if key not in _PARSED:
        stored = _read_stored(key)
        if stored is not None:
            _PARSED[key] = stored
    if key in _PARSED:
        return pickle.loads(_PARSED[key])  # noqa: S301 - bytes this process (or one before it) pickled itself
    try:
        parsed = _load(text)
    except yaml.YAMLError as exc:
        raise SpecError(str(path), *_yaml_problem(exc)) from None
    except RecursionError:
        raise SpecError(str(path), "(file)", "YAML nested less deeply (too many levels to parse)") from None
    if len(_PARSED) >= MAX_PARSED:
        _PARSED.clear()
    _PARSED[key] = pickle.dumps(parsed, protocol=pickle.HIGHEST_PROTOCOL)
    _store(key, _PARSED[key])
    return parsed


def _stored_path(key: bytes) -> Optional[Path]:
    """Where the parse of a file with digest ``key`` is kept on disk; None without a usable cache folder."""
    from polibench.paths import cache_dir

    try:
        return cache_dir() / PARSED_FOLDER / f"{key.hex()}.pickle"
    except PolibenchError:  # no usable cache folder: parse every time (the command reports the folder if it needs it)
        return None


def _read_stored(key: bytes) -> Optional[bytes]:
    path = _stored_path(key)
    try:
        return path.read_bytes() if path is not None else None
    except OSError:
        return None


def _store(key: bytes, pickled: bytes) -> None:
    """Keep a parse on disk (atomically; a cache folder that cannot be written is simply not used)."""
    from polibench.kit.files import atomic_write_bytes

    path = _stored_path(key)
    if path is None or path.is_file():
        return
    try:
        path.parent.mkdir(exist_ok=True)
        atomic_write_bytes(path, pickled)
    except (OSError, PolibenchError):
        pass


def field_path(loc: tuple) -> str:
    """``("items", 1, "dimension")`` -> ``items[1].dimension``."""
    parts: list[str] = []
    for part in loc:
        if isinstance(part, int):
            parts.append(f"[{part}]")
        else:
            parts.append(("." if parts else "") + str(part))
    return "".join(parts) or "(top level)"


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN - 3] + "..."


def describe(error: Any) -> str:
    """What one pydantic error expected, in words, with the wrong value quoted (shortened) when it is scalar."""
    kind = error["type"]
    if kind == "extra_forbidden":
        return "unknown key (not part of the schema; check the spelling)"
    if kind == "missing":
        return "required field is missing"
    given = error.get("input")
    text = error["msg"]
    if kind.startswith("value_error"):
        text = text.removeprefix("Value error, ")
    if not isinstance(given, (dict, list)):
        text += f" (got {_shown(given)})"
    return text


def validation_problems(exc: ValidationError) -> list[tuple[str, str]]:
    """Every problem pydantic found, as ``(field path, what was expected)``, in pydantic's order."""
    return [(field_path(e["loc"]), describe(e)) for e in exc.errors()]
