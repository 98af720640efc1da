"""``Strict``: the one pydantic base of polibench's file schemas; an unknown field is an error, not ignored."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Strict(BaseModel):
    """A schema that refuses fields it does not declare (a typo in a YAML or JSON file is reported)."""

    model_config = ConfigDict(extra="forbid")
