"""``Strict``: the one pydantic base of polibench's file schemas; an unknown field is an error, not ignored.
``first_error``: where and what, of the first thing a schema refused, for a one-line message; ``validated``: a
document read through its schema, or that one-line message naming the file. ``Number`` and ``WholeNumber``: the
number fields of user files, which refuse a number written as a string."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from polibench.errors import PolibenchError

# Numbers in the files users write (task, instrument, variant YAML): a number written as text ("5") is refused,
# as the schema says, rather than read as one; an integer is a number (5 for 5.0), a boolean is not.
Number = Annotated[float, Field(strict=True)]
WholeNumber = Annotated[int, Field(strict=True)]


class Strict(BaseModel):
    """A schema that refuses fields it does not declare (a typo in a YAML or JSON file is reported)."""

    model_config = ConfigDict(extra="forbid")


def first_error(exc: ValidationError, whole: str) -> tuple[str, str]:
    """``(field, message)`` of the first error: the field's dotted path, or ``whole`` when the error is about the
    whole document."""
    first = exc.errors()[0]
    return ".".join(str(p) for p in first["loc"]) or whole, first["msg"]


Model = TypeVar("Model", bound=BaseModel)


def validated(source: str | Path, model: type[Model], data: Any, whole: str) -> Model:
    """``model`` validated from ``data`` (a parsed file), or one error naming ``source`` and the first field the
    schema refused (``whole`` when the error is about the whole document)."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        field, message = first_error(exc, whole)
        raise PolibenchError(f"{source}: field '{field}': {message}") from None
