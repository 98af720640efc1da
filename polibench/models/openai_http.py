"""What the ``openai`` backend's live path (:mod:`polibench.models.openai_api`) and its batch path
(:mod:`polibench.models.openai_batch`) share: which failures of the ``openai`` SDK are worth another try
(:func:`classify`, with the wait a server asked for) and running a coroutine from sync code (:func:`run_async`).

It sits below both, so that neither imports the other's module for them (the live path builds a batch run; the
batch path reaches the live path only through the backend it is given).
"""

from __future__ import annotations

import asyncio
import json
import threading
from dataclasses import dataclass
from typing import Optional

from polibench.models.retry import parse_retry_after, retryable_status


class MalformedResponse(Exception):
    """The server answered 200 with something that is not a usable completion."""


@dataclass
class Failure:
    kind: str
    retryable: bool
    message: str
    retry_after: Optional[float] = None


def classify(exc: BaseException) -> Failure:
    """Which failures are worth another try, and how long the server asked us to wait."""
    import openai

    if isinstance(exc, openai.APITimeoutError):
        return Failure("timeout", True, "request timed out")
    if isinstance(exc, openai.APIConnectionError):
        return Failure("connection", True, f"connection error ({exc.__cause__ or exc})")
    if isinstance(exc, openai.APIStatusError):
        status = exc.status_code
        retry_after = parse_retry_after(exc.response.headers if exc.response is not None else None)
        return Failure(f"http_{status}", retryable_status(status), f"HTTP {status}: {exc.message}", retry_after)
    if isinstance(exc, (openai.APIResponseValidationError, MalformedResponse, json.JSONDecodeError,
                        ValueError, KeyError, TypeError, AttributeError)):
        return Failure("malformed", True, f"malformed response ({type(exc).__name__}: {exc})")
    return Failure(type(exc).__name__, False, str(exc))


def run_async(coroutine) -> None:
    """Run a coroutine to the end, also when called from inside a running event loop (notebooks)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        asyncio.run(coroutine)
        return
    error: list[BaseException] = []

    def target() -> None:
        try:
            asyncio.run(coroutine)
        except BaseException as exc:  # noqa: BLE001 - re-raised in the caller's thread
            error.append(exc)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if error:
        raise error[0]
