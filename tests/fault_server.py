"""A fake OpenAI-compatible server that injects faults in a seeded pattern (tests and benchmarks only).

Every request is identified by its content (model, prompt or messages, seed). For each such key, the
server draws from ``random.Random(f"{seed}:{key}")`` the faults that the key's first attempts get, so
the pattern does not depend on timing or concurrency: attempt n of a key gets ``faults[n]``, and the
attempt after the last fault succeeds. Fault kinds:

- ``429``: HTTP 429 with ``Retry-After: 1``;
- ``500`` / ``503``: an HTTP error with an error body;
- ``hang``: no answer for ``hang_seconds`` (past the client's timeout) or until the client hangs up;
- ``drop``: the connection is closed without an answer;
- ``malformed``: HTTP 200 with truncated JSON.

With ``expected_key`` set, a request without ``Authorization: Bearer <expected_key>`` gets 401 (and
the message echoes the key it got, as real APIs do); so does the model list (``GET /models``, never
faulted). A successful answer is a deterministic function of the key (so two runs can be compared),
tagged with the key's hash. ``stats()`` reports attempts (completion requests) and successes per key,
faults injected by kind, the largest number of requests in flight at once, the shortest wait a client
left after a 429 before retrying, and ``model_lists`` (model lists served).

With ``die_after=N``, the server dies after its N-th successful answer: it stops listening, and requests
still arriving on open connections are dropped unanswered (a node that goes down mid-run).

Run standalone: ``python tests/fault_server.py --port 8765 --fault-rate 0.5 --latency 0.05``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import select
import socket
import sys
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

KINDS = ("429", "500", "503", "hang", "drop", "malformed")
REPLIES = (
    "I agree with this statement.",
    "I strongly agree with this statement.",
    "I disagree with this statement.",
    "I strongly disagree with this statement.",
    "This is a complex question with many sides.",
)


def request_key(body: dict) -> str:
    content = {"model": body.get("model"), "prompt": body.get("prompt"), "messages": body.get("messages"),
               "seed": body.get("seed")}
    return hashlib.sha256(json.dumps(content, sort_keys=True).encode()).hexdigest()


class FaultState:
    def __init__(self, seed: int, fault_rate: float, max_faults: int, kinds: tuple[str, ...],
                 latency: float, hang_seconds: float, expected_key: str | None, die_after: int | None = None):
        self.seed, self.fault_rate, self.max_faults, self.kinds = seed, fault_rate, max_faults, kinds
        self.die_after, self.dead = die_after, False
        self.latency, self.hang_seconds, self.expected_key = latency, hang_seconds, expected_key
        self.lock = threading.RLock()  # re-entrant: _send (which records the answer) runs under it for 401s
        self.attempts: Counter = Counter()
        self.successes: Counter = Counter()
        self.injected: Counter = Counter()
        self.open_requests: set = set()  # handlers that have not answered yet
        self.hanging: dict = {}          # handler -> its connection, while a hang fault holds it
        self.max_in_flight = 0
        self.last_429: dict[str, float] = {}
        self.retry_gaps: list[float] = []
        self.auth_ok = 0
        self.auth_bad = 0
        self.model_lists = 0  # successful GET /models (the client's preflight)
        self.replies: dict[str, str] = {}

    def faults_for(self, key: str) -> list[str]:
        rng = random.Random(f"{self.seed}:{key}")
        faults = []
        while len(faults) < self.max_faults and rng.random() < self.fault_rate:
            faults.append(rng.choice(self.kinds))
        return faults

    def arrived(self, handler) -> None:
        """Count ``handler`` in flight (call with the lock held). Hung requests whose client has already
        hung up, and requests already answered, do not count, however late their threads get to run."""
        self.open_requests.add(handler)
        gone = sum(1 for h, conn in self.hanging.items() if h in self.open_requests and _client_closed(conn))
        self.max_in_flight = max(self.max_in_flight, len(self.open_requests) - gone)

    def answered(self, handler) -> None:
        with self.lock:
            self.open_requests.discard(handler)
            self.hanging.pop(handler, None)

    def stats(self) -> dict:
        with self.lock:
            return {
                "attempts": sum(self.attempts.values()), "keys": len(self.attempts),
                "successes": sum(self.successes.values()),
                "duplicated_successes": sum(1 for v in self.successes.values() if v > 1),
                "injected": dict(self.injected), "max_in_flight": self.max_in_flight,
                "min_wait_after_429": min(self.retry_gaps) if self.retry_gaps else None,
                "auth_ok": self.auth_ok, "auth_bad": self.auth_bad, "model_lists": self.model_lists,
            }


def _client_closed(conn) -> bool:
    try:
        readable, _, _ = select.select([conn], [], [], 0)
        return bool(readable) and not conn.recv(1, socket.MSG_PEEK)
    except (OSError, ValueError):
        return True


def reply_text(key: str) -> str:
    return f"{REPLIES[int(key[:8], 16) % len(REPLIES)]} [{key[:8]}]"


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    state: FaultState  # set on the subclass made by FaultServer

    def log_message(self, *args) -> None:  # quiet
        pass

    def _send(self, status: int, payload: bytes, headers: dict | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.state.answered(self)  # before the body: the client may send its next request the moment it has it
        self.wfile.write(payload)
        self.wfile.flush()

    def _drop(self) -> None:
        self.close_connection = True
        self.state.answered(self)
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def _hang(self, seconds: float) -> None:
        """Send nothing for ``seconds``, or until the client gives up and closes the connection (then the
        request stops counting as in flight)."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            readable, _, _ = select.select([self.connection], [], [], left)
            if readable:
                try:
                    if not self.connection.recv(1, socket.MSG_PEEK):
                        return
                except OSError:
                    return
                time.sleep(0.005)  # data (a pipelined request?) rather than a close: keep hanging

    def _refuse_key(self) -> bool:
        """With ``expected_key`` set, answer 401 to a request without it (echoing the key, as real APIs do)."""
        state = self.state
        with state.lock:
            auth = self.headers.get("Authorization", "")
            if state.expected_key is None or auth == f"Bearer {state.expected_key}":
                return False
            state.auth_bad += 1
            message = json.dumps({"error": {"message": f"Incorrect API key provided: {auth[7:]}",
                                            "type": "invalid_request_error"}})
            self._send(401, message.encode())
            return True

    def do_GET(self) -> None:
        if self.state.dead:
            self._drop()
            return
        if self.path.endswith("/models"):
            if self._refuse_key():
                return
            with self.state.lock:
                self.state.model_lists += 1
            self._send(200, json.dumps({"object": "list", "data": [{"id": "fake", "object": "model"}]}).encode())
        elif self.path == "/_stats":
            self._send(200, json.dumps(self.state.stats()).encode())
        else:
            self._send(404, b'{"error": {"message": "not found"}}')

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        if not (self.path.endswith("/chat/completions") or self.path.endswith("/completions")):
            self._send(404, b'{"error": {"message": "not found"}}')
            return
        state = self.state
        if state.dead:
            self._drop()
            return
        body = json.loads(raw or b"{}")
        key = request_key(body)
        now = time.monotonic()
        if self._refuse_key():  # like real APIs, the 401 echoes the key that was sent: the client must not print it
            return
        with state.lock:
            if state.expected_key is not None:
                state.auth_ok += 1
            attempt = state.attempts[key]
            state.attempts[key] += 1
            if key in state.last_429:
                state.retry_gaps.append(now - state.last_429.pop(key))
            faults = state.faults_for(key)
            fault = faults[attempt] if attempt < len(faults) else None
            if fault:
                state.injected[fault] += 1
            state.arrived(self)
            if fault == "hang":
                state.hanging[self] = self.connection
        try:
            self._answer(fault, key, body)
        finally:
            state.answered(self)

    def _answer(self, fault: str | None, key: str, body: dict) -> None:
        state = self.state
        if fault == "429":
            with state.lock:
                state.last_429[key] = time.monotonic()
            self._send(429, b'{"error": {"message": "rate limited", "type": "rate_limit"}}', {"Retry-After": "1"})
        elif fault in ("500", "503"):
            self._send(int(fault), b'{"error": {"message": "server error", "type": "server_error"}}')
        elif fault == "hang":
            self._hang(state.hang_seconds)
            self._drop()
        elif fault == "drop":
            self._drop()
        elif fault == "malformed":
            self._send(200, b'{"id": "cmpl-x", "object": "chat.completion", "choices": [{"index": 0, "mess')
        else:
            if state.latency:
                time.sleep(state.latency)
            text = reply_text(key)
            usage = {"prompt_tokens": len(json.dumps(body.get("messages") or body.get("prompt")).split()),
                     "completion_tokens": len(text.split())}
            usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
            if self.path.endswith("/chat/completions"):
                choice = {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}
                kind = "chat.completion"
            else:
                choice = {"index": 0, "text": text, "finish_reason": "stop", "logprobs": None}
                kind = "text_completion"
            payload = {"id": f"cmpl-{key[:12]}", "object": kind, "created": 0, "model": body.get("model"),
                       "choices": [choice], "usage": usage}
            with state.lock:
                if state.dead:  # died while this request waited: no answer
                    self._drop()
                    return
                state.successes[key] += 1
                state.replies[key] = text
                self._send(200, json.dumps(payload).encode())
                if state.die_after is not None and sum(state.successes.values()) >= state.die_after:
                    state.dead = True
                    threading.Thread(target=self._die, daemon=True).start()

    def _die(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class QuietHTTPServer(ThreadingHTTPServer):
    """Clients that hang up mid-answer (after a timeout or a 401) are normal here: no traceback on stderr."""

    daemon_threads = True

    def handle_error(self, request, client_address) -> None:
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError, ConnectionAbortedError)):
            super().handle_error(request, client_address)


class FaultServer:
    """Start with :meth:`start` (a background thread on 127.0.0.1), stop with :meth:`stop`."""

    def __init__(self, seed: int = 0, fault_rate: float = 0.0, max_faults: int = 3, kinds=KINDS,
                 latency: float = 0.0, hang_seconds: float = 2.0, port: int = 0, expected_key: str | None = None,
                 die_after: int | None = None):
        self.state = FaultState(seed, fault_rate, max_faults, tuple(kinds), latency, hang_seconds, expected_key,
                                die_after)
        handler = type("BoundHandler", (Handler,), {"state": self.state})
        self.httpd = QuietHTTPServer(("127.0.0.1", port), handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def port(self) -> int:
        return self.httpd.server_address[1]

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> FaultServer:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def stats(self) -> dict:
        return self.state.stats()

    def __enter__(self) -> FaultServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--fault-rate", type=float, default=0.0)
    parser.add_argument("--latency", type=float, default=0.0)
    parser.add_argument("--hang-seconds", type=float, default=2.0)
    args = parser.parse_args()
    server = FaultServer(seed=args.seed, fault_rate=args.fault_rate, latency=args.latency,
                         hang_seconds=args.hang_seconds, port=args.port)
    print(f"PORT {server.port}", flush=True)
    try:
        server.httpd.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
