"""``openai`` backend: the OpenAI API, or any OpenAI-compatible server via ``--base-url``.

Several servers of one model (``--base-url URL1,URL2`` or ``--model-args 'base_url=URL1|URL2'``) are used as
one: each request goes to the least-loaded server, and a failing one is taken out of rotation with backoff
(:mod:`polibench.models.server_pool`). With ``batch=true``, uncached requests go out as one batch job
(:mod:`polibench.models.openai_batch`).

Works with vLLM's and llama.cpp's servers, Ollama, TGI and other servers that speak the chat
(``endpoint=chat``, default) or completions (``endpoint=completions``) protocol; without ``--base-url``,
``$OPENAI_BASE_URL`` is used when set, else the OpenAI API. Requests run on the
``openai`` SDK's async client with at most ``concurrency`` in flight; failures that may pass (429, 408,
409, 5xx, timeouts, dropped connections, malformed replies) are retried with exponential backoff and
jitter, waiting as long as ``Retry-After`` asks (see :mod:`polibench.models.retry`); other errors (401,
404, 400 ...) stop the run with one message.

The API key is read from the environment (``OPENAI_API_KEY``, or the variable named by
``api_key_env``) and is never stored: not in ``describe()``, the cache key, logs or results. A local
server without keys needs none (a placeholder is sent).

Before the first prompt, :meth:`OpenAIBackend.preflight` sends one free request (``GET /models``) with
the same key, timeout and retry policy: a refused key (401/403) or an endpoint that does not answer is one
message before anything is generated (and billed). A server without ``/models`` (404) or with a reply that
is not a model list passes: its key is then checked by the first real request.

Each completion arrives through ``on_result`` as soon as it exists, so the response cache persists it at
once. Every request carries its sample's seed; servers that honour ``seed`` (vLLM, llama.cpp) then answer
reproducibly. ``top_k`` is not part of the OpenAI API: it is sent (as an extra body field) only to
other servers, or when ``send_top_k=true``.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import socket
import sys
import time
import urllib.request
from collections import Counter
from typing import Optional
from urllib.parse import urlsplit, urlunsplit

from polibench.errors import BackendError
from polibench.models.base import GENERATE, SCORE_CHOICES, Completion, ProgressFn, Prompt
from polibench.models.choices import check_options, logprobs_from_top, option_labels
from polibench.models.openai_batch import MAX_BATCH, BatchRun, check_batch_args
from polibench.models.openai_http import MalformedResponse, classify, run_async
from polibench.models.retry import RetryPolicy
from polibench.models.server_pool import Server, ServerPool
from polibench.models.streaming import ResultFn, StreamingBackend
from polibench.records import GenerationSettings, Usage

OPENAI_URL = "https://api.openai.com/v1"
TOP_LOGPROBS = 20  # the most the OpenAI API returns per token: --model-args top_logprobs=20
ENDPOINTS = ("chat", "completions")
TOKEN_PARAMS = ("max_tokens", "max_completion_tokens")
SEVERAL_SERVERS = "several servers"  # the cache identity's base_url when several are given: not which ones


def split_urls(value) -> list[str]:
    """``base_url`` as one URL, several separated by ``,``, ``|`` or spaces, or a list."""
    items = value if isinstance(value, (list, tuple)) else re.split(r"[,|\s]+", str(value or ""))
    return [str(u).strip() for u in items if str(u).strip()]


def strip_credentials(url: str) -> str:
    """The URL without any ``user:password@`` part (safe to write to results)."""
    parts = urlsplit(url)
    if parts.username or parts.password:
        host = parts.hostname or ""
        netloc = host + (f":{parts.port}" if parts.port else "")
        parts = parts._replace(netloc=netloc)
    return urlunsplit(parts).rstrip("/")


class OpenAIBackend(StreamingBackend):
    name = "openai"
    chunk_size = 256  # requests handed to the async pool at once (the cache still persists each one)

    @classmethod
    def check_settings(cls, model: Optional[str], model_args: dict) -> None:
        """The model is named and an API key is in the environment (unless a local server is given): checked
        before the stance scorers, so a missing key is the first thing reported."""
        if not model:
            raise BackendError("openai: --model must name the model the server serves (e.g. gpt-4o-mini)")
        api_key_env = str(model_args.get("api_key_env", "OPENAI_API_KEY"))
        base_url = model_args.get("base_url") or os.environ.get("OPENAI_BASE_URL")
        if not os.environ.get(api_key_env) and not base_url:
            raise BackendError(f"openai: no API key: export {api_key_env}=... (the key is read from the "
                               "environment only), or pass --base-url for a local server")

    def __init__(self, model: Optional[str], *, base_url: Optional[str] = None, endpoint: str = "chat",
                 api_key_env: str = "OPENAI_API_KEY", concurrency: int = 8, max_retries: int = 8,
                 timeout: float = 60.0, backoff_base: float = 1.0, backoff_max: float = 60.0,
                 send_seed: bool = True, send_top_k: Optional[bool] = None, token_param: str = "max_tokens",
                 api_key: Optional[str] = None, top_logprobs: Optional[int] = None, batch: bool = False,
                 batch_retry: str = "ask", poll_interval: float = 30.0, price_input: Optional[float] = None,
                 price_output: Optional[float] = None, batch_price_input: Optional[float] = None,
                 batch_price_output: Optional[float] = None):
        if api_key is not None:
            raise BackendError(f"openai: never pass the API key on the command line; export {api_key_env} instead")
        if not model:
            raise BackendError("openai: --model must name the model the server serves (e.g. gpt-4o-mini)")
        if endpoint not in ENDPOINTS:
            raise BackendError(f"openai: endpoint must be one of {list(ENDPOINTS)} (got '{endpoint}')")
        if token_param not in TOKEN_PARAMS:
            raise BackendError(f"openai: token_param must be one of {list(TOKEN_PARAMS)} (got '{token_param}')")
        if int(concurrency) < 1 or int(max_retries) < 0 or float(timeout) <= 0:
            raise BackendError("openai: concurrency must be >= 1, max_retries >= 0 and timeout > 0")
        try:
            import openai  # noqa: F401
        except ImportError:
            raise BackendError("the openai backend needs the openai package: pip install -e '.[api]'") from None
        base_url = base_url or os.environ.get("OPENAI_BASE_URL") or None
        self._urls = split_urls(base_url) or [OPENAI_URL]  # may carry credentials: used for requests only
        if len(set(self._urls)) != len(self._urls):
            raise BackendError(f"openai: base_url lists a server twice ({base_url})")
        self.base_url = ",".join(strip_credentials(u) for u in self._urls) if base_url else None
        self._url = self._urls[0]
        key = os.environ.get(api_key_env)
        if not key and not base_url:
            raise BackendError(f"openai: no API key: export {api_key_env}=... (the key is read from the "
                               "environment only), or pass --base-url for a local server")
        self._api_key = key or "EMPTY"
        self.endpoint = endpoint
        self.concurrency = int(concurrency)
        self.timeout = float(timeout)
        self.policy = RetryPolicy(max_retries=int(max_retries), base_delay=float(backoff_base),
                                  max_delay=float(backoff_max))
        self.send_seed = bool(send_seed)
        self.send_top_k = bool(base_url) if send_top_k is None else bool(send_top_k)
        self.token_param = token_param
        if top_logprobs is not None and not 1 <= int(top_logprobs) <= 100:
            raise BackendError(f"openai: top_logprobs must be between 1 and 100 (got {top_logprobs})")
        self.top_logprobs = None if top_logprobs is None else int(top_logprobs)
        # score_choices only when asked for: many providers return no log-probabilities, and a judge scorer
        # would otherwise switch from generated answers to them
        self.capabilities = frozenset({GENERATE, SCORE_CHOICES} if self.top_logprobs else {GENERATE})
        self.batch = bool(batch)
        self.batch_retry, self.batch_poll_interval = str(batch_retry), float(poll_interval)
        self.prices = {"price_input": price_input, "price_output": price_output,
                       "batch_price_input": batch_price_input, "batch_price_output": batch_price_output}
        check_batch_args(self.batch_retry, self.batch_poll_interval, self.prices, self.batch and len(self._urls) > 1)
        if self.batch:
            self.chunk_size = MAX_BATCH  # the run's uncached requests as one batch
        super().__init__(model, base_url=self.base_url, endpoint=endpoint, api_key_env=api_key_env,
                         concurrency=self.concurrency, max_retries=self.policy.max_retries, timeout=self.timeout,
                         send_seed=self.send_seed, send_top_k=self.send_top_k, token_param=token_param,
                         **({"batch": True, "batch_retry": self.batch_retry} if self.batch else {}))
        self.retries: Counter = Counter()
        self.requests_sent = 0
        self.max_in_flight = 0
        self._in_flight = 0
        self._checked = False

    def cache_identity(self) -> dict:
        """What decides a response: the server, the model, the endpoint and what is sent (not the key). With
        several servers (of one model), not which ones: a rerun on other servers of it reuses the cache."""
        server = SEVERAL_SERVERS if len(self._urls) > 1 else (self.base_url or OPENAI_URL)
        return {"backend": self.name, "model": self.model, "base_url": server,
                "endpoint": self.endpoint, "send_seed": self.send_seed, "send_top_k": self.send_top_k}

    # -- reachability ---------------------------------------------------------------------------------

    def check_reachable(self, tries: int = 3) -> list[str]:
        """Fail fast, with one message, when nothing listens at the base URL (skipped behind a proxy). With
        several servers, one that answers is enough (a warning names the others); returns those that answer."""
        reachable, errors = [], []
        for url in self._urls:
            try:
                self._check_one(url, tries)
                reachable.append(url)
            except BackendError as exc:
                errors.append(str(exc))
        if not reachable:
            raise BackendError(errors[0] if len(errors) == 1 else
                               "openai: none of the servers answers: " + "; ".join(errors))
        for error in errors:
            print(f"polibench: warning: {error} (it stays in rotation, with backoff)", file=sys.stderr)
        return reachable

    def _check_one(self, url: str, tries: int) -> None:
        parts = urlsplit(url)
        host, scheme = parts.hostname or "", parts.scheme or "https"
        port = parts.port or (443 if scheme == "https" else 80)
        proxies = urllib.request.getproxies()
        if proxies.get(scheme) and not urllib.request.proxy_bypass(host):
            return
        error: Optional[OSError] = None
        for attempt in range(tries):
            try:
                socket.create_connection((host, port), timeout=min(self.timeout, 10.0)).close()
                return
            except OSError as exc:
                error = exc
                time.sleep(0.2 * (attempt + 1))
        raise BackendError(f"openai: cannot reach {strip_credentials(url)} "
                           f"({getattr(error, 'strerror', None) or error})")

    def _reach_once(self) -> None:
        """:meth:`check_reachable` before the first request, unless the preflight already did it."""
        if not self._checked:
            self.check_reachable()
            self._checked = True

    def preflight(self) -> None:
        """Reachability, then one ``GET /models`` (free; retried like a completion): refuses a bad key or an
        endpoint that does not answer before any prompt is sent. Warns when the listed models do not
        include ``model`` (some proxies list only part of what they serve, so this is not an error)."""
        reachable = self.check_reachable()
        self._checked = True
        for url in reachable:
            self._preflight_one(url)

    def _preflight_one(self, url: str) -> None:
        import openai

        shown = strip_credentials(url)
        rng = random.Random(0)
        attempt = 0
        with openai.OpenAI(api_key=self._api_key, base_url=url, timeout=self.timeout, max_retries=0) as client:
            while True:
                try:
                    served = [getattr(m, "id", None) for m in client.models.list().data]
                    break
                except Exception as exc:  # noqa: BLE001 - every failure is classified below
                    failure = classify(exc)
                if failure.kind in ("http_404", "http_405", "http_501", "malformed"):
                    return  # the server does not list models: the first request will tell
                if not failure.retryable:
                    raise BackendError(self._safe(f"openai: the server refused the preflight request (GET "
                                                  f"{shown}/models), before any prompt was "
                                                  f"sent: {failure.message}"))
                if attempt >= self.policy.max_retries:
                    raise BackendError(self._safe(f"openai: preflight request (GET {shown}"
                                                  f"/models) gave up after {attempt + 1} attempts: {failure.message}"))
                time.sleep(self.policy.delay(attempt, failure.retry_after, rng))
                attempt += 1
        if served and self.model not in served:
            listed = ", ".join(str(m) for m in served[:5]) + (" ..." if len(served) > 5 else "")
            print(f"polibench: warning: openai: the server does not list model '{self.model}' (it lists {listed})",
                  file=sys.stderr)

    # -- generation -----------------------------------------------------------------------------------

    def generate_each(self, prompts: list[Prompt], settings: GenerationSettings, on_result: ResultFn) -> None:
        if not prompts:
            return
        self._reach_once()
        if self.batch:
            BatchRun(self, prompts, settings, on_result).run()
            return
        before = sum(self.retries.values())
        run_async(self._run_all(prompts, settings, on_result))
        retried = sum(self.retries.values()) - before
        if retried:
            kinds = ", ".join(f"{k} x{v}" for k, v in sorted(self.retries.items()))
            print(f"polibench: openai: {retried} retries in this batch (so far: {kinds})", file=sys.stderr)

    async def _run_all(self, prompts: list[Prompt], settings: GenerationSettings, on_result: ResultFn) -> None:
        await self._run_requests(len(prompts), lambda client, i: self._request(client, prompts[i], settings), on_result)

    async def _run_requests(self, count: int, request, on_result) -> None:
        """``request(client, index)`` for every index below ``count``, at most ``concurrency`` in flight, each
        retried by the policy; ``on_result(index, value)`` as each one succeeds."""
        import openai

        servers = [Server(url, strip_credentials(url),
                          openai.AsyncOpenAI(api_key=self._api_key, base_url=url, timeout=self.timeout, max_retries=0))
                   for url in self._urls]
        pool = ServerPool(servers, self.policy, random.Random(count + 1))
        gate = asyncio.Semaphore(self.concurrency)
        rng = random.Random(count)
        tasks = [asyncio.create_task(self._one(pool, gate, rng, i, request, on_result)) for i in range(count)]
        try:
            await asyncio.gather(*tasks)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            for server in servers:
                await server.client.close()
            if len(servers) > 1:
                print(f"polibench: openai: requests per server: {pool.summary()}", file=sys.stderr)

    async def _one(self, pool: ServerPool, gate, rng, index, request, on_result) -> None:
        """One request to the end: sent to the pool's least-loaded server, retried by the policy. With several
        servers, a failed server leaves the rotation for its backoff and the request goes elsewhere at once;
        with one, the request itself waits its backoff."""
        several = len(pool.servers) > 1
        attempt = 0
        while True:
            async with gate:
                server = await pool.acquire()
                self._in_flight += 1
                self.max_in_flight = max(self.max_in_flight, self._in_flight)
                self.requests_sent += 1
                failure = None
                try:
                    value = await request(server.client, index)
                except (asyncio.CancelledError, BackendError):
                    raise
                except Exception as exc:  # noqa: BLE001 - every failure is classified below
                    failure = classify(exc)
                finally:
                    self._in_flight -= 1
                    server_failed = several and failure is not None and failure.retryable
                    pool.release(server, not server_failed, failure.retry_after if failure else None)
            if failure is None:
                on_result(index, value)
                return
            if not failure.retryable:
                raise BackendError(self._safe(f"openai: request failed: {failure.message}"))
            if attempt >= self.policy.max_retries:
                raise BackendError(self._safe(f"openai: gave up after {attempt + 1} attempts "
                                              f"(max_retries={self.policy.max_retries}): {failure.message}"))
            self.retries[failure.kind] += 1
            if not several:
                await asyncio.sleep(self.policy.delay(attempt, failure.retry_after, rng))
            attempt += 1

    # -- score_choices: the next token's top log-probabilities ---------------------------------------------

    def score_choices(self, prompts: list[Prompt], options: list[list[str]],
                      progress: Optional[ProgressFn] = None) -> list[list[float]]:
        """Declared only with ``top_logprobs=N`` (``--model-args top_logprobs=20``). Per prompt, each option's
        log-probability as the first token of the answer, read from the server's ``top_logprobs`` (one request
        of one token at temperature 0 per prompt): an option is picked by its leading label (``"1"`` of ``"1)
        Strongly disagree"``), and labels missing from the top-k list are filled by OpinionQA's rule
        (:func:`polibench.models.choices.logprobs_from_top`). Unlike ``hf`` and ``llamacpp``, which sum the
        log-probability over all of an option's tokens, this is the probability of the option's first token
        only. A server that returns no log-probabilities is one error."""
        if not self.top_logprobs:
            raise self.unsupported(SCORE_CHOICES)
        check_options(prompts, options, self.name)
        labels = [option_labels(opts, self.name) for opts in options]
        if not prompts:
            return []
        self._reach_once()
        results: list[list[float]] = [[] for _ in prompts]

        def done(index: int, values: list[float]) -> None:
            results[index] = values
            if progress is not None:
                progress(1)

        run_async(self._run_requests(len(prompts), lambda client, i: self._top_request(client, prompts[i], labels[i]),
                                     done))
        return results

    def logprob_body(self, prompt: Prompt) -> dict:
        body = self.request_body(prompt, GenerationSettings(samples=1, max_new_tokens=1, temperature=0.0,
                                                            seed=prompt.seed))
        if self.endpoint == "chat":
            body.update(logprobs=True, top_logprobs=self.top_logprobs)
        else:
            body["logprobs"] = self.top_logprobs
        return body

    async def _top_request(self, client, prompt: Prompt, labels: list[str]) -> list[float]:
        body = self.logprob_body(prompt)
        if self.endpoint == "chat":
            choice = first_choice(await client.chat.completions.create(**body))
            content = getattr(getattr(choice, "logprobs", None), "content", None)
            top = ({item.token: item.logprob for item in (content[0].top_logprobs or [])} if content else {})
        else:
            choice = first_choice(await client.completions.create(**body))
            listed = getattr(getattr(choice, "logprobs", None), "top_logprobs", None)
            top = dict(listed[0]) if listed and listed[0] else {}
        if not top:
            raise BackendError(self._safe(
                f"openai: the server at {self.base_url or OPENAI_URL} returned no log-probabilities for model "
                f"'{self.model}' (asked for top_logprobs={self.top_logprobs}); this provider or model does not "
                "offer them, so the log-probability channel cannot run on it (use hf, llamacpp or vllm, or a "
                "server with logprobs: llama.cpp's needs --logits_all)"))
        values, _ = logprobs_from_top(top, labels)
        return values

    def _safe(self, message: str) -> str:
        """Never let the key into a message, even if a server echoes it back."""
        if self._api_key and self._api_key != "EMPTY":
            message = message.replace(self._api_key, "***")
        return message.splitlines()[0] if message else message

    def request_body(self, prompt: Prompt, settings: GenerationSettings) -> dict:
        body: dict = {"model": self.model, self.token_param: settings.max_new_tokens,
                      "temperature": settings.temperature}
        if settings.top_p is not None:
            body["top_p"] = settings.top_p
        if settings.stop:
            body["stop"] = list(settings.stop)[:4]
        if self.send_seed:
            body["seed"] = prompt.seed
        if self.send_top_k and settings.top_k:
            body["extra_body"] = {"top_k": settings.top_k}
        if self.endpoint == "chat":
            body["messages"] = ([m.model_dump() for m in prompt.messages] if prompt.messages
                                else [{"role": "user", "content": prompt.text}])
        else:
            body["prompt"] = prompt.plain_text()
        return body

    async def _request(self, client, prompt: Prompt, settings: GenerationSettings) -> Completion:
        body = self.request_body(prompt, settings)
        if self.endpoint == "chat":
            reply = await client.chat.completions.create(**body)
            choice = first_choice(reply)
            text = choice.message.content
        else:
            reply = await client.completions.create(**body)
            choice = first_choice(reply)
            text = choice.text
        if not isinstance(text, str):
            raise MalformedResponse("the completion has no text")
        usage = getattr(reply, "usage", None)
        return Completion(text=text.strip(), finish_reason=getattr(choice, "finish_reason", None),
                          usage=Usage(prompt_tokens=getattr(usage, "prompt_tokens", None),
                                      completion_tokens=getattr(usage, "completion_tokens", None)))


def first_choice(reply):
    choices = getattr(reply, "choices", None)
    if not choices:
        raise MalformedResponse(f"no choices in the reply ({type(reply).__name__})")
    return choices[0]
