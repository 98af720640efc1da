"""The embedded default stance scorer, trained (or found in ``$POLIBENCH_CACHE``) once per test session and
shared by every stance test that needs the real classifier."""

import os
import time

import pytest

import polibench.stance.embedded as default


@pytest.fixture(scope="session")
def trained_default(tmp_path_factory):
    """``(checkpoint, seconds)``: the embedded default, trained (or found) once per test session."""
    cache = os.environ.get("POLIBENCH_CACHE") or str(tmp_path_factory.mktemp("polibench-cache"))
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("POLIBENCH_CACHE", cache)
        started = time.time()
        path = default.ensure_default_checkpoint(show_progress=False)
        yield path, time.time() - started
