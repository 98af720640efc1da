"""Task specs: the YAML schema and the loader that builds a registry of tasks.

``DEFAULT_TASKS``: the tasks ``polibench run`` evaluates when no ``--tasks`` is given (comma-separated names)."""

DEFAULT_TASKS = "pct"
