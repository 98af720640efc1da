"""Shared settings: offline hub, quiet tokenizers, one polibench cache folder per test session, and the skip
policy (docs/testing.md).

``POLIBENCH_CACHE`` is set at import time so that subprocesses inherit it: tests never write to the user's
cache, and the embedded stance classifier is trained at most once per session.

Skip policy: with ``CI=true`` (as .ci/run sets it) a skipped test or module is turned into a failure, unless it
matches an entry of :data:`ALLOWED_SKIPS`. CI installs every dev extra, so a skip there means a test that
silently stopped running. Locally, skips stay skips.
"""

import os
import tempfile

import pytest

os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("POLIBENCH_CACHE", tempfile.mkdtemp(prefix="polibench-test-cache-"))

# (node id prefix, text the skip reason must contain, why CI may skip it). Keep this list short: every entry
# is a test that CI never runs. Mirrored in docs/testing.md.
ALLOWED_SKIPS: tuple[tuple[str, str, str], ...] = (
    ("tests/models/test_backend_vllm", "needs a GPU",
     "the real vLLM engine only runs on a CUDA GPU and CI has none (the fake-vllm adapter tests still run)"),
)


def ci_enforces_skips() -> bool:
    return os.environ.get("CI", "").lower() in ("true", "1", "yes")


def skip_reason(report) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2])
    return str(longrepr)


def skip_is_allowed(nodeid: str, reason: str) -> bool:
    return any(nodeid.startswith(prefix) and needle in reason for prefix, needle, _ in ALLOWED_SKIPS)


FORBIDDEN_SKIPS: list[str] = []  # "node id: reason" of each skip that fails this CI run


def _record_forbidden_skip(report) -> bool:
    """Whether ``report`` is a skip that CI does not allow (and note it for the summary)."""
    if not (ci_enforces_skips() and report.skipped) or hasattr(report, "wasxfail"):
        return False
    reason = skip_reason(report)
    if skip_is_allowed(report.nodeid, reason):
        return False
    FORBIDDEN_SKIPS.append(f"{report.nodeid or '<session>'}: {reason}")
    return True


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if _record_forbidden_skip(report):
        report.outcome = "failed"
        report.longrepr = (f"skipped under CI=true, which counts as a failure: {skip_reason(report)}\n"
                           "CI installs every dev extra, so this test must run there; if it truly cannot, add it "
                           "to ALLOWED_SKIPS in tests/conftest.py and to docs/testing.md, with the reason.")


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    # a module-level pytest.importorskip(...) skips the whole module at collection: recorded here, and the
    # run fails at the end (turning it into a collection error would stop every other test)
    outcome = yield
    _record_forbidden_skip(outcome.get_result())


def pytest_terminal_summary(terminalreporter):
    if FORBIDDEN_SKIPS:
        terminalreporter.section("skips not allowed under CI=true (see docs/testing.md)", red=True)
        for line in FORBIDDEN_SKIPS:
            terminalreporter.line(line)


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session):
    if FORBIDDEN_SKIPS and session.exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED):
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture(scope="session")
def embedded_gguf():
    from polibench.models.embedded import embedded_gguf_path

    return embedded_gguf_path()
