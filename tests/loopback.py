"""A base for the tests' scripted loopback OpenAI-compatible servers (tests/cli/test_issuebench_run.py,
tests/paired_controls.py): quiet logging, one JSON reply, and the model list at ``GET /v1/models``. A subclass
writes ``do_POST``: it reads the request with :meth:`OpenAIHandler.request_json` and answers with
:meth:`OpenAIHandler.send_json`."""

from __future__ import annotations

import json
from http.server import BaseHTTPRequestHandler


class OpenAIHandler(BaseHTTPRequestHandler):
    model_id = "writer"

    def log_message(self, *args):
        pass

    def send_json(self, payload: dict) -> None:
        body = json.dumps(payload).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def request_json(self) -> dict:
        return json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))

    def do_GET(self):
        self.send_json({"object": "list", "data": [{"id": self.model_id, "object": "model"}]})
