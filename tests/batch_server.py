"""A fake OpenAI batch API on loopback: files and batches endpoints, with delays and partial failures (tests only).

``POST /v1/files`` stores an uploaded JSONL file (multipart, as the ``openai`` SDK sends it); ``POST
/v1/batches`` creates a batch from one; ``GET /v1/batches/{id}`` reports ``validating`` for the first third
of ``delay`` seconds, ``in_progress`` (with growing counts) until ``delay``, then ``completed`` with an output
file and, when some requests failed, an error file; ``GET /v1/batches`` lists them; ``GET
/v1/files/{id}/content`` returns a file; ``GET /v1/models`` lists ``fake``; ``POST /v1/chat/completions``
answers live (counted apart). A request's answer is the same as :mod:`fault_server`'s for the same body
(:func:`fault_server.reply_text` of :func:`fault_server.request_key`), so batch and live runs can be compared.

Failures: the first time a request (by key) is in a batch, it fails with probability ``fail_rate`` (seeded by
the key, so the pattern does not depend on timing): half as a 500 response line, half as an ``error`` object.
``stats()`` counts batches created (each one is paid for), the requests in each, polls, and how often each
key was answered successfully in an output file.
"""

from __future__ import annotations

import email.parser
import email.policy
import json
import random
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler

from fault_server import QuietHTTPServer, reply_text, request_key


class BatchState:
    def __init__(self, delay: float, fail_rate: float, seed: int):
        self.delay, self.fail_rate, self.seed = delay, fail_rate, seed
        self.lock = threading.Lock()
        self.files: dict[str, bytes] = {}
        self.batches: dict[str, dict] = {}
        self.batch_sizes: list[int] = []
        self.polls = 0
        self.seen: Counter = Counter()  # key -> batches it was in
        self.answered: Counter = Counter()  # key -> successful output lines
        self.live: Counter = Counter()  # key -> live answers
        self.replies: dict[str, str] = {}

    def stats(self) -> dict:
        with self.lock:
            return {"batches": len(self.batches), "batch_sizes": list(self.batch_sizes), "polls": self.polls,
                    "answered": sum(self.answered.values()), "live": sum(self.live.values()),
                    "answered_twice": sum(1 for n in self.answered.values() if n > 1)}

    def add_file(self, data: bytes, purpose: str) -> dict:
        file_id = f"file-{len(self.files) + 1}"
        self.files[file_id] = data
        return {"id": file_id, "object": "file", "bytes": len(data), "created_at": int(time.time()),
                "filename": "batch.jsonl", "purpose": purpose, "status": "processed"}

    def view(self, batch: dict) -> dict:
        """The batch as the API shows it now; finishes it (writes its files) once ``delay`` has passed."""
        elapsed = time.monotonic() - batch["started"]
        total = len(batch["lines"])
        view = {key: batch[key] for key in ("id", "input_file_id", "endpoint", "completion_window", "created_at")}
        view.update(object="batch", metadata=batch.get("metadata"))
        if elapsed < self.delay / 3:
            view["status"] = "validating"
            view["request_counts"] = {"total": total, "completed": 0, "failed": 0}
        elif elapsed < self.delay:
            view["status"] = "in_progress"
            view["request_counts"] = {"total": total, "completed": int(total * elapsed / self.delay), "failed": 0}
        else:
            if "output_file_id" not in batch:
                self.finish(batch)
            view.update(status="completed", output_file_id=batch["output_file_id"],
                        error_file_id=batch["error_file_id"], request_counts=batch["counts"])
        return view

    def finish(self, batch: dict) -> None:
        out, errors = [], []
        for line in batch["lines"]:
            body = line["body"]
            key = request_key(body)
            rng = random.Random(f"{self.seed}:{key}")
            first_time = self.seen[key] == 1
            if first_time and rng.random() < self.fail_rate:
                if rng.random() < 0.5:
                    errors.append({"id": f"r-{key[:8]}", "custom_id": line["custom_id"], "error": None,
                                   "response": {"status_code": 500, "request_id": "x",
                                                "body": {"error": {"message": "server error"}}}})
                else:
                    errors.append({"id": f"r-{key[:8]}", "custom_id": line["custom_id"], "response": None,
                                   "error": {"code": "server_error", "message": "the model failed"}})
                continue
            text = reply_text(key)
            usage = {"prompt_tokens": len(json.dumps(body.get("messages")).split()),
                     "completion_tokens": len(text.split())}
            reply = {"id": f"cmpl-{key[:12]}", "object": "chat.completion", "created": 0, "model": body["model"],
                     "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                                  "finish_reason": "stop"}], "usage": usage}
            out.append({"id": f"r-{key[:8]}", "custom_id": line["custom_id"], "error": None,
                        "response": {"status_code": 200, "request_id": "x", "body": reply}})
            self.answered[key] += 1
            self.replies[key] = text
        batch["output_file_id"] = self.add_file("".join(json.dumps(o) + "\n" for o in out).encode(),
                                                "batch_output")["id"]
        batch["error_file_id"] = (self.add_file("".join(json.dumps(e) + "\n" for e in errors).encode(),
                                                "batch_output")["id"] if errors else None)
        batch["counts"] = {"total": len(batch["lines"]), "completed": len(out), "failed": len(errors)}


class BatchHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    state: BatchState

    def log_message(self, *args) -> None:
        pass

    def _send(self, payload, status: int = 200, raw: bool = False) -> None:
        data = payload if raw else json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/octet-stream" if raw else "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        state = self.state
        with state.lock:
            if self.path.endswith("/models"):
                self._send({"object": "list", "data": [{"id": "fake", "object": "model"}]})
            elif self.path.split("?")[0] == "/v1/batches":  # newest first, as the API lists them
                views = [state.view(b) for b in reversed(list(state.batches.values()))]
                ends = {"first_id": views[0]["id"], "last_id": views[-1]["id"]} if views else {}
                self._send({"object": "list", "data": views, "has_more": False, **ends})
            elif self.path.startswith("/v1/batches/") and self.path[12:] in state.batches:
                state.polls += 1
                self._send(state.view(state.batches[self.path[12:]]))
            elif self.path.startswith("/v1/files/") and self.path.endswith("/content"):
                self._send(state.files[self.path.split("/")[3]], raw=True)
            else:
                self._send({"error": {"message": "not found"}}, 404)

    def do_POST(self) -> None:
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        state = self.state
        with state.lock:
            if self.path == "/v1/files":
                message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
                    f"Content-Type: {self.headers['Content-Type']}\r\n\r\n".encode() + raw)
                parts = {part.get_param("name", header="content-disposition"): part.get_payload(decode=True)
                         for part in message.iter_parts()}
                self._send(state.add_file(parts["file"], parts["purpose"].decode()))
            elif self.path == "/v1/batches":
                request = json.loads(raw)
                lines = [json.loads(line) for line in state.files[request["input_file_id"]].decode().splitlines()]
                batch_id = f"batch_{len(state.batches) + 1}"
                for line in lines:
                    state.seen[request_key(line["body"])] += 1
                state.batches[batch_id] = {"id": batch_id, "lines": lines, "started": time.monotonic(),
                                           "created_at": int(time.time()), "metadata": request.get("metadata"),
                                           **{k: request[k] for k in ("input_file_id", "endpoint",
                                                                      "completion_window")}}
                state.batch_sizes.append(len(lines))
                self._send(state.view(state.batches[batch_id]))
            elif self.path == "/v1/chat/completions":
                body = json.loads(raw)
                key = request_key(body)
                state.live[key] += 1
                text = state.replies[key] = reply_text(key)
                self._send({"id": "cmpl-live", "object": "chat.completion", "created": 0, "model": body["model"],
                            "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                                         "finish_reason": "stop"}],
                            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}})
            else:
                self._send({"error": {"message": "not found"}}, 404)


class BatchServer:
    def __init__(self, delay: float = 0.5, fail_rate: float = 0.0, seed: int = 0):
        self.state = BatchState(delay, fail_rate, seed)
        handler = type("BoundBatchHandler", (BatchHandler,), {"state": self.state})
        self.httpd = QuietHTTPServer(("127.0.0.1", 0), handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def stats(self) -> dict:
        return self.state.stats()

    def __enter__(self) -> BatchServer:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
