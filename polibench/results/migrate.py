"""The one function that reads any results.json layout polibench has written: :func:`migrate`.

Layouts:

- version 1 (polibench 0.1, no ``format``/``version`` fields): the same blocks as version 2, as plain JSON,
  except that the Faulborn bias called the social dimension ``cultural``: those keys are renamed.
- version 2: :class:`~polibench.results.document.ResultsDocument` (``format: polibench.results``).

Migration never changes a number: it adds the format fields and validates every block against the types the
metric registry declares. A document that does not fit is one :class:`~polibench.errors.PolibenchError` naming
the file and the first fields that are wrong.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from polibench.errors import PolibenchError
from polibench.results.document import FORMAT, VERSION, ResultsDocument


def migrate(raw: Any, source: str = "results.json") -> ResultsDocument:
    """``raw`` (a parsed results.json of any known layout) as the current :class:`ResultsDocument`."""
    if not isinstance(raw, dict):
        raise PolibenchError(f"{source}: expected a JSON object (a polibench results document), "
                             f"got {type(raw).__name__}")
    document = dict(raw)
    if "format" not in document and "version" not in document:
        document = {"format": FORMAT, "version": VERSION, **document, "results": _renamed(document.get("results"))}
    elif document.get("format") == FORMAT and document.get("version") not in (VERSION,):
        raise PolibenchError(f"{source}: results document version {document.get('version')!r} is not one this "
                             f"polibench reads (it reads 1 and {VERSION}; upgrade polibench)")
    try:
        return ResultsDocument.model_validate(document)
    except ValidationError as exc:
        problems = []
        for error in exc.errors()[:5]:
            field = ".".join(str(p) for p in error["loc"]) or "(document)"
            problems.append(f"field '{field}': {error['msg']}")
        more = f" (and {exc.error_count() - 5} more)" if exc.error_count() > 5 else ""
        raise PolibenchError(f"{source}: not a valid polibench results document: {'; '.join(problems)}{more}") \
            from None


def _renamed(results: Any) -> Any:
    """Version 1 -> 2: ``cultural`` -> ``social`` in every Faulborn bias block (values, ``ci``, ``counted``, and
    the per-instrument / per-prefix / per-form / steerability blocks)."""
    if not isinstance(results, dict):
        return results
    return {task: ({**block, "faulborn_bias": _social(block["faulborn_bias"])}
                   if isinstance(block, dict) and isinstance(block.get("faulborn_bias"), dict) else block)
            for task, block in results.items()}


def _social(tree: Any) -> Any:
    if isinstance(tree, dict):
        return {("social" if key == "cultural" else key): _social(value) for key, value in tree.items()}
    return tree
