"""User-facing errors: one clear message and exit code 2, never a traceback."""

from __future__ import annotations


class PolibenchError(Exception):
    """A problem the user can fix (bad YAML, bad flag, missing model). The CLI prints it and exits 2."""

    exit_code = 2


def _where(field: str) -> str:
    """``field 'a.b'`` for a schema field; a place in the file (``line 3, column 7``, ``(file)``) as it is."""
    return field if field.startswith(("line ", "(")) else f"field '{field}'"


class SpecError(PolibenchError):
    """A task, instrument or variant file does not match the schema.

    ``field`` and ``expected`` describe the first problem; ``problems`` holds every ``(field, expected)``
    pair found in the file (a file with several mistakes reports them all in one message).
    """

    def __init__(self, path: str, field: str, expected: str, problems: list[tuple[str, str]] | None = None):
        self.path, self.field, self.expected = path, field, expected
        self.problems = list(problems) if problems else [(field, expected)]
        if len(self.problems) == 1:
            message = f"{path}: {_where(field)}: {expected}"
        else:
            lines = "".join(f"\n  {_where(f)}: {e}" for f, e in self.problems)
            message = f"{path}: {len(self.problems)} problems:{lines}"
        super().__init__(message)

    @classmethod
    def from_problems(cls, path: str, problems: list[tuple[str, str]]) -> SpecError:
        """One error for every problem in a file (``problems`` must not be empty)."""
        field, expected = problems[0]
        return cls(path, field, expected, problems)


class BackendError(PolibenchError):
    """A model backend cannot be created or used as asked."""
