"""The stance tests share tests/conftest.py's ``trained_default``: the embedded default stance scorer, trained (or
found in ``$POLIBENCH_CACHE``) once per test session."""
