"""User-facing errors: one clear message and exit code 2, never a traceback."""

from __future__ import annotations


class PolibenchError(Exception):
    """A problem the user can fix (bad YAML, bad flag, missing model). The CLI prints it and exits 2."""

    exit_code = 2


class SpecError(PolibenchError):
    """A task, instrument or variant file does not match the schema."""

    def __init__(self, path: str, field: str, expected: str):
        self.path, self.field, self.expected = path, field, expected
        super().__init__(f"{path}: field '{field}': {expected}")


class BackendError(PolibenchError):
    """A model backend cannot be created or used as asked."""
