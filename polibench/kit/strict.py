"""``Strict``: the one pydantic base of polibench's file schemas; an unknown field is an error, not ignored.
``first_error``: where and what, of the first thing a schema refused, for a one-line message. ``Number`` and
``WholeNumber``: the number fields of user files, which refuse a number written as a string."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, ValidationError

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
