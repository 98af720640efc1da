"""The ``openai`` backend's batch path (``--model-args batch=true``): uncached requests as one batch job.

The requests the generation stage hands over (the response cache has already removed those it holds) are
written as one JSONL file, uploaded (``POST /files``, purpose ``batch``), and submitted as a batch (``POST
/batches``); the batch is polled every ``poll_interval`` seconds (its status and counts are printed as they
change) and, once finished, its output and error files are downloaded. Each line's ``custom_id`` is a hash of
the same things as the response cache's key: the model identity and the request as sent (settings, prompt,
seed); the results are mapped back by it, and requests that are the same (same prompt and seed) are sent once.

Resuming without paying twice: as soon as the batch exists, a record of it (its id and ``custom_id`` list) is
written atomically to ``$POLIBENCH_CACHE/openai-batches/``: first with a fresh submission id (also sent in the
batch's metadata) before the batch is created, then with the batch id. A killed process, or a rerun, finds the
record of any pending batch that covers requests it needs, and polls that batch instead of submitting a new
one; a record without a batch id (killed while submitting, or a lost answer to the create request) is matched
to its batch by listing the batches (``GET /batches``) and looking for the submission id. The record is
removed once its results (successes into the cache, failures handled) are delivered.

Failed requests (an error line, a non-200 status, a line missing from an expired or cancelled batch) are
never dropped or retried silently: ``batch_retry=batch`` sends them in a new batch, ``batch_retry=live``
through the live API (at live prices), and ``batch_retry=ask`` (the default) asks on a terminal, and stops
with a message naming both flags elsewhere (the successes are already cached). A status that retrying cannot
fix (400, 401, 404 ...), or a batch refused as a whole (status ``failed``), stops the run with the server's
message.

Cost: with user-given prices in USD per million tokens (``price_input``/``price_output`` at live prices,
``batch_price_input``/``batch_price_output`` at batch prices; none are built in), one line gives the batch's
cost from its token usage and, where both are given, the saving against the live price.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
import time
import uuid
from collections import Counter
from typing import Callable, Optional, Protocol

from polibench.errors import BackendError
from polibench.kit.files import atomic_write_text
from polibench.kit.jsonl import iter_jsonl
from polibench.models.openai_http import classify, run_async
from polibench.models.retry import RetryPolicy, retryable_status
from polibench.paths import cache_dir
from polibench.records import Completion, GenerationSettings, Prompt, Usage

RETRY_CHOICES = ("ask", "batch", "live")
FINISHED = ("completed", "failed", "expired", "cancelled")
PRICE_ARGS = ("price_input", "price_output", "batch_price_input", "batch_price_output")
MAX_BATCH = 50_000  # requests per batch (OpenAI's limit): the generation stage hands over at most this many
RECORDS = "openai-batches"


def canonical(value) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def custom_id(identity: dict, body: dict) -> str:
    """``pb-`` and a SHA-256 over the model identity and the request body (what the cache key covers)."""
    return "pb-" + hashlib.sha256(canonical({"model": identity, "body": body}).encode()).hexdigest()[:48]


def completion_from_body(body: dict, endpoint: str) -> Completion:
    """A completion from a batch output line's response body (a chat or text completion as JSON)."""
    choice = body["choices"][0]
    text = choice["message"]["content"] if endpoint == "chat" else choice["text"]
    if not isinstance(text, str):
        raise ValueError("the completion has no text")
    usage = body.get("usage") or {}
    return Completion(text=text.strip(), finish_reason=choice.get("finish_reason"),
                      usage=Usage(prompt_tokens=usage.get("prompt_tokens"),
                                  completion_tokens=usage.get("completion_tokens")))


def check_batch_args(retry: str, poll_interval: float, prices: dict, several_servers: bool) -> None:
    if retry not in RETRY_CHOICES:
        raise BackendError(f"openai: batch_retry must be one of {list(RETRY_CHOICES)} (got '{retry}')")
    if poll_interval <= 0:
        raise BackendError(f"openai: poll_interval must be > 0 seconds (got {poll_interval})")
    for name, value in prices.items():
        if value is not None and (not isinstance(value, (int, float)) or isinstance(value, bool) or value < 0):
            raise BackendError(f"openai: {name} must be a price in USD per million tokens, >= 0 (got '{value}')")
    if several_servers:
        raise BackendError("openai: batch=true sends one batch to one server: give one base_url")


class BatchBackend(Protocol):
    """What the batch path uses of the backend it serves (:class:`polibench.models.openai_api.OpenAIBackend`):
    its settings, its request bodies, and its live path for ``batch_retry=live``."""

    endpoint: str
    base_url: Optional[str]
    timeout: float
    policy: RetryPolicy
    prices: dict[str, Optional[float]]
    batch_retry: str
    batch_poll_interval: float
    _api_key: str
    _url: str

    def cache_identity(self) -> dict: ...

    def request_body(self, prompt: Prompt, settings: GenerationSettings) -> dict: ...

    def _safe(self, message: str) -> str: ...

    async def _run_requests(self, count: int, request, on_result) -> None: ...

    async def _request(self, client, prompt: Prompt, settings: GenerationSettings) -> Completion: ...


class BatchRun:
    """One ``generate_each`` call on the batch path: resume or submit, poll, download, deliver, retry."""

    def __init__(self, backend: BatchBackend, prompts: list[Prompt], settings: GenerationSettings,
                 on_result: Callable[[int, Completion], None]):
        import openai

        self.backend, self.settings, self.on_result = backend, settings, on_result
        self.identity = backend.cache_identity()
        self.owner = hashlib.sha256(canonical(self.identity).encode()).hexdigest()[:16]
        self.folder = cache_dir() / RECORDS
        self.prompts = prompts
        self.bodies: dict[str, dict] = {}
        self.indices: dict[str, list[int]] = {}
        for index, prompt in enumerate(prompts):
            body = backend.request_body(prompt, settings)
            body.update(body.pop("extra_body", {}))  # the SDK's extra fields are plain fields in a batch line
            cid = custom_id(self.identity, body)
            self.bodies[cid] = body
            self.indices.setdefault(cid, []).append(index)
        self.client = openai.OpenAI(api_key=backend._api_key, base_url=backend._url, timeout=backend.timeout,
                                    max_retries=0)
        self.rng = random.Random(len(prompts))
        self.tokens = [0, 0]  # input, output of the responses delivered from batches

    # -- the whole call ------------------------------------------------------------------------------

    def run(self) -> None:
        pending = set(self.bodies)
        failed: dict[str, str] = {}
        try:
            for record in self.records():
                if pending & set(record["custom_ids"]) and self.adopt(record):
                    print(f"polibench: openai batch: resuming batch {record['batch_id']} (submitted before; "
                          "not submitted again)", file=sys.stderr)
                    failed.update(self.finish(record, pending))
            rounds = 0
            while pending:
                todo = sorted(pending - set(failed))
                if todo:
                    failed.update(self.finish(self.submit(todo), pending))
                    continue
                rounds += 1
                if rounds > self.backend.policy.max_retries:
                    raise BackendError(f"openai batch: {len(failed)} requests still failed after {rounds} batches "
                                       f"(max_retries={self.backend.policy.max_retries}): {describe(failed)}")
                how = self.retry_choice(failed)
                retry, failed = sorted(failed), {}
                self.forget_failures(retry)
                if how == "live":
                    self.live(retry, pending)
                # else: the next turn submits them in a new batch
        finally:
            self.client.close()
        self.cost_line()

    # -- records -------------------------------------------------------------------------------------

    def records(self) -> list[dict]:
        found = []
        for path in sorted(self.folder.glob("*.json")) if self.folder.is_dir() else []:
            try:
                record = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            if record.get("owner") == self.owner:
                found.append(record)
        return found

    def save(self, record: dict) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        atomic_write_text(self.folder / f"{record['submission']}.json", json.dumps(record))

    def drop(self, record: dict) -> None:
        (self.folder / f"{record['submission']}.json").unlink(missing_ok=True)

    def adopt(self, record: dict) -> bool:
        """A record written just before submitting has no batch id when the process died before the server's
        answer: the batch, if it was created, is found by the submission id in its metadata; else the record
        goes (its requests are submitted again, nothing having been paid)."""
        if record.get("batch_id"):
            return True
        batch = self.find(record["submission"])
        if batch is None:
            self.drop(record)
            return False
        record["batch_id"] = batch.id
        self.save(record)
        return True

    def find(self, submission: str):
        page = self.call(lambda: self.client.batches.list(limit=100), "list the batches")
        return next((b for b in page.data if (b.metadata or {}).get("polibench_submission") == submission), None)

    def forget_failures(self, ids: list[str]) -> None:
        """Failures being retried now leave their records (a record with nothing left to deliver goes)."""
        retried = set(ids)
        for record in self.records():
            if record.get("failed"):
                record["failed"] = {k: v for k, v in record["failed"].items() if k not in retried}
                self.save(record) if record["failed"] else self.drop(record)

    # -- one batch -----------------------------------------------------------------------------------

    def submit(self, ids: list[str]) -> dict:
        url = "/v1/chat/completions" if self.backend.endpoint == "chat" else "/v1/completions"
        lines = "".join(canonical({"custom_id": cid, "method": "POST", "url": url, "body": self.bodies[cid]}) + "\n"
                        for cid in ids)
        record = {"submission": uuid.uuid4().hex, "batch_id": None, "owner": self.owner, "custom_ids": ids,
                  "done": False, "failed": {}, "created": time.time(), "base_url": self.backend.base_url}
        self.save(record)  # before the batch exists: a kill from here on is resumed through the submission id
        upload = self.call(lambda: self.client.files.create(file=("polibench-batch.jsonl", lines.encode()),
                                                            purpose="batch"), "upload the batch file")
        metadata = {"polibench_owner": self.owner, "polibench_submission": record["submission"]}

        def create():
            try:
                return self.client.batches.create(input_file_id=upload.id, endpoint=url, completion_window="24h",
                                                  metadata=metadata)
            except Exception:
                # the server may have created it and the answer been lost: never create a second one
                found = self.find(record["submission"])
                if found is None:
                    raise
                return found

        batch = self.call(create, "create the batch")
        record["batch_id"] = batch.id
        self.save(record)
        print(f"polibench: openai batch: submitted {len(ids)} requests as batch {batch.id} (record in "
              f"{self.folder}; a rerun resumes it)", file=sys.stderr)
        return record

    def finish(self, record: dict, pending: set[str]) -> dict[str, str]:
        """Poll until the batch is finished, deliver its successes still pending; returns its failures still
        pending (custom_id -> reason). The record is removed when nothing of it is left to handle."""
        if not record["done"]:
            batch = self.poll(record["batch_id"])
            if batch.status == "failed":  # the batch as a whole was refused (e.g. its file did not validate)
                self.drop(record)
                errors = "; ".join(str(getattr(e, "message", e)) for e in (getattr(batch.errors, "data", None) or []))
                raise BackendError(self.backend._safe(f"openai batch {batch.id} failed as a whole: "
                                                      f"{errors or 'no reason given'}"))
            results, failures = self.download(batch, record["custom_ids"])
            for cid, completion in results.items():
                if cid in pending:
                    self.deliver(cid, completion)
                    pending.discard(cid)
            record.update(done=True, failed=failures)
            self.save(record) if failures else self.drop(record)
        return {cid: why for cid, why in record["failed"].items() if cid in pending}

    def deliver(self, cid: str, completion: Completion) -> None:
        if completion.usage is not None:
            self.tokens[0] += completion.usage.prompt_tokens or 0
            self.tokens[1] += completion.usage.completion_tokens or 0
        for index in self.indices[cid]:
            self.on_result(index, completion)

    def poll(self, batch_id: str):
        shown = None
        while True:
            batch = self.call(lambda: self.client.batches.retrieve(batch_id), f"poll batch {batch_id}")
            counts = batch.request_counts
            line = (f"polibench: openai batch {batch_id}: {batch.status}"
                    + (f", {counts.completed}/{counts.total} done, {counts.failed} failed" if counts else ""))
            if line != shown:
                print(line, file=sys.stderr, flush=True)
                shown = line
            if batch.status in FINISHED:
                return batch
            time.sleep(self.backend.batch_poll_interval)

    def download(self, batch, ids: list[str]) -> tuple[dict[str, Completion], dict[str, str]]:
        results: dict[str, Completion] = {}
        failures: dict[str, str] = {}
        wanted = set(ids)
        for file_id in (batch.output_file_id, batch.error_file_id):
            if not file_id:
                continue
            text = self.call(lambda f=file_id: self.client.files.content(f).text, f"download file {file_id}")
            for _, item in iter_jsonl(text.encode("utf-8"), f"openai batch {batch.id}, file {file_id}"):
                cid = item.get("custom_id")
                if cid not in wanted:
                    continue
                response = item.get("response") or {}
                status = response.get("status_code")
                if item.get("error") or status != 200:
                    error = item.get("error") or (response.get("body") or {}).get("error") or {}
                    message = error.get("message") or error.get("code") or "failed"
                    failures[cid] = f"http_{status}: {message}" if status else f"error: {message}"
                    if status and not retryable_status(int(status)):
                        raise BackendError(self.backend._safe(f"openai batch {batch.id}: a request was refused "
                                                              f"(HTTP {status}: {message}); retrying cannot fix it"))
                    continue
                try:
                    results[cid] = completion_from_body(response.get("body") or {}, self.backend.endpoint)
                except (KeyError, IndexError, TypeError, ValueError) as exc:
                    failures[cid] = f"malformed: {type(exc).__name__}"
        for cid in ids:
            if cid not in results and cid not in failures:
                failures[cid] = f"missing from the output (batch {batch.status})"
        for cid in results:
            failures.pop(cid, None)
        return results, failures

    # -- failures ------------------------------------------------------------------------------------

    def retry_choice(self, failed: dict[str, str]) -> str:
        choice = self.backend.batch_retry
        what = f"openai batch: {len(failed)} requests failed ({describe(failed)})"
        if choice == "ask":
            if not sys.stdin.isatty():
                raise BackendError(f"{what}; the other responses are cached. Rerun with --model-args "
                                   "batch_retry=batch (a new batch) or batch_retry=live (live API, live prices)")
            answer = input(f"polibench: {what}. Retry them in a new [b]atch, [l]ive, or [s]top? ").strip().lower()
            choice = {"b": "batch", "batch": "batch", "l": "live", "live": "live"}.get(answer, "stop")
            if choice == "stop":
                raise BackendError(f"{what}; stopped (the other responses are cached)")
        print(f"polibench: {what}; retrying them {'in a new batch' if choice == 'batch' else 'live'} "
              f"(batch_retry={choice})", file=sys.stderr)
        return choice

    def live(self, ids: list[str], pending: set[str]) -> None:
        order = [cid for cid in ids if cid in pending]
        first = [self.prompts[self.indices[cid][0]] for cid in order]

        def done(j: int, completion: Completion) -> None:
            for index in self.indices[order[j]]:
                self.on_result(index, completion)
            pending.discard(order[j])

        run_async(self.backend._run_requests(len(first), lambda c, j: self.backend._request(c, first[j], self.settings),
                                             done))

    # -- plumbing ------------------------------------------------------------------------------------

    def call(self, fn, what: str):
        """``fn()`` retried like a live request (connection errors, 429, 5xx); others stop with one message."""
        attempt = 0
        while True:
            try:
                return fn()
            except Exception as exc:  # noqa: BLE001 - every failure is classified below
                failure = classify(exc)
            if not failure.retryable or attempt >= self.backend.policy.max_retries:
                raise BackendError(self.backend._safe(f"openai batch: could not {what}: {failure.message}"))
            time.sleep(self.backend.policy.delay(attempt, failure.retry_after, self.rng))
            attempt += 1

    def cost_line(self) -> None:
        prices = self.backend.prices
        tokens_in, tokens_out = self.tokens
        if not (tokens_in or tokens_out):
            return

        def cost(prefix: str) -> Optional[float]:
            p_in, p_out = prices.get(f"{prefix}price_input"), prices.get(f"{prefix}price_output")
            if p_in is None or p_out is None:
                return None
            return (tokens_in * p_in + tokens_out * p_out) / 1e6

        batch, live = cost("batch_"), cost("")
        if batch is None and live is None:
            return
        line = f"polibench: openai batch cost: {tokens_in} input + {tokens_out} output tokens"
        if batch is not None:
            line += f"; ${batch:.6f} at the given batch prices"
        if live is not None:
            line += f"; ${live:.6f} at the given live prices"
        if batch is not None and live is not None:
            line += f"; saved ${live - batch:.6f}"
        print(line + " (estimate from the reported token usage)", file=sys.stderr)


def describe(failed: dict[str, str]) -> str:
    kinds = Counter(reason.split(":")[0] for reason in failed.values())
    return ", ".join(f"{kind} x{n}" for kind, n in sorted(kinds.items()))
