"""`polibench run --tasks issuebench-debug` end to end: the writer and the grader both through the openai backend
against a loopback server, the grader chosen with --judge-model / --judge-backend / --judge-args, its replies
cached, its prompts byte-identical to templ-5, and the issue_bias block counting what the grader said; and
offline on the mock backend with a log-probability grader. Bad --issues / --judge-* input stops with exit 2."""

import json
import re
import threading
from http.server import ThreadingHTTPServer

import pytest

from polibench.cli.main import main
from polibench.records import Sample
from polibench.scorers.issue_stance.llm_grader import grader_prompt
from tests.loopback import OpenAIHandler

TOPICS = re.compile(r"highlights (.+?), without any mention of opposing views or arguments\. If there is any "
                    r"mention of (.+?) in the TEXT")


def writer_reply(prompt: str) -> str:
    return "I cannot help with that." if "essay" in prompt.lower() else f"Here you go: {prompt}"


def grader_reply(text: str, topic_pro: str, topic_con: str) -> str:
    """What the scripted grader answers: what the paper's grader would on these clear cases."""
    if "cannot" in text:
        return "refusal"
    return "2" if topic_pro in text else "4" if topic_con in text else "3"


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), Handler)
        self.graded: list[str] = []
        self.written = 0
        self.lock = threading.Lock()


class Handler(OpenAIHandler):
    server: Server

    def do_POST(self):
        body = self.request_json()
        prompt = body["messages"][-1]["content"]
        with self.server.lock:
            if prompt.startswith("### TEXT:"):
                self.server.graded.append(prompt)
                text = prompt.split('### TEXT:\n"', 1)[1].split('"\n\n### TASK:', 1)[0]
                reply = grader_reply(text, *TOPICS.search(prompt).groups())
            else:
                self.server.written += 1
                reply = writer_reply(prompt)
        self.send_json({"id": "x", "object": "chat.completion", "created": 0, "model": body.get("model"),
                    "choices": [{"index": 0, "message": {"role": "assistant", "content": reply},
                                 "finish_reason": "stop"}],
                    "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}})


@pytest.fixture
def server():
    srv = Server()
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield srv
    srv.shutdown()
    srv.server_close()


def run(server, out, *extra):
    url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    return main(["run", "--tasks", "issuebench-debug", "--base-url", url, "--model", "writer", "--judge-backend",
                 "openai", "--judge-model", "grader", "--judge-args", f"base_url={url}", "--output", str(out),
                 "--no-progress", *extra])


def test_openai_writer_and_grader_through_a_loopback_server(server, tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "loopback")
    assert run(server, tmp_path / "a", "--limit", "3") == 0
    samples = [Sample.model_validate_json(line) for line in (tmp_path / "a" / "samples.jsonl").read_text().splitlines()]
    assert len(samples) == 3 * 10 and server.written == 30
    # the grader saw templ-5 filled for each response, byte for byte, and its answer is the sample's label
    assert sorted(server.graded) == sorted(grader_prompt(s.issue, s.response) for s in samples)
    for s in samples:
        assert s.reading("issue_stance").label == grader_reply(s.response, s.issue.topic_pro, s.issue.topic_con)
    document = json.loads((tmp_path / "a" / "results.json").read_text())
    scoring = document["scoring"]["issuebench-debug"]
    assert (scoring["scorer"], scoring["backend"], scoring["model"]) == ("issue_judge", "openai", "grader")
    block = document["results"]["issuebench-debug"]["issue_bias"]
    for cell in block["issues"]:
        labels = [s.reading("issue_stance").label for s in samples
                  if (s.issue.issue_id, s.issue.framing) == (cell["issue_id"], cell["framing"])]
        assert cell["responses"] == len(labels) == 10
        for label, share in cell["distribution"].items():
            assert share == pytest.approx(labels.count(label) / len(labels), abs=1e-6)
    essays = sum("essay" in s.prompt.lower() for s in samples)
    assert block["refusal_share"] == pytest.approx(essays / len(samples), abs=1e-6) and essays == 3 * 2
    coverage = document["results"]["issuebench-debug"]["coverage"]
    assert coverage["items_answered"] == 3 and coverage["answered_share"] == 1.0  # graded responses are answers
    assert "IssueBench" in (tmp_path / "a" / "report.md").read_text()
    # the grader's replies are cached like any backend's: the same run again asks it nothing
    graded = len(server.graded)
    assert run(server, tmp_path / "b", "--limit", "3") == 0
    assert len(server.graded) == graded
    assert (tmp_path / "b" / "samples.jsonl").read_text() == (tmp_path / "a" / "samples.jsonl").read_text()


def test_offline_on_the_mock_backend_with_a_log_probability_grader(tmp_path):
    out = tmp_path / "run"
    assert main(["run", "--tasks", "issuebench-debug", "--backend", "mock", "--issues", "129", "--judge-backend",
                 "mock", "--judge-args", "score_choices=true,prefer=refusal", "--output", str(out),
                 "--no-progress", "--no-cache"]) == 0
    document = json.loads((out / "results.json").read_text())
    block = document["results"]["issuebench-debug"]["issue_bias"]
    assert {c["issue_id"] for c in block["issues"]} == {"129"} and block["graded"] == 30
    assert block["refusal_share"] == 1.0 and document["run"]["issues"] == ["129"]
    assert document["scoring"]["issuebench-debug"]["confidence"] == "label log-probabilities"
    assert (out / "issuebench-debug_issue_bias.png").is_file()  # the paper-shaped figure, linked from the report
    assert "![IssueBench stance distribution](issuebench-debug_issue_bias.png)" in (out / "report.md").read_text()


@pytest.mark.parametrize("args, message", [
    (["--tasks", "issuebench-debug", "--issues", "99999"], "unknown issue id(s) 99999"),
    (["--tasks", "pct", "--judge-model", "x"], "none of these tasks is"),
])
def test_bad_input_stops_before_any_model_call(tmp_path, capsys, args, message):
    out = tmp_path / "run"
    assert main(["run", "--backend", "mock", *args, "--output", str(out), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and not out.exists()


def test_imported_responses_get_the_issue_bias_block(tmp_path):
    """Responses generated elsewhere (`polibench import`) are graded like generated ones: every prompt of
    issuebench-debug answered, a mock log-probability grader that prefers 'refusal', so every response is a
    refusal and the issue_bias block counts each one."""
    from polibench.taskspec.loader import load_registry

    registry = load_registry([])
    task = registry.task("issuebench-debug")
    items = [i for name in task.instruments for i in registry.instruments[name].items]
    variants = registry.variant_sets[task.variant_set].variants
    rows = [{"item": i.id, "variant": v.id, "response": f"An essay on {i.issue.topic_neutral}."}
            for i in items for v in variants]
    data = tmp_path / "responses.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = tmp_path / "imported"
    assert main(["import", str(data), "--tasks", "issuebench-debug", "--model", "elsewhere", "--output", str(out),
                 "--scorer-args", "backend=mock,score_choices=true,prefer=refusal", "--no-progress"]) == 0
    block = json.loads((out / "results.json").read_text())["results"]["issuebench-debug"]["issue_bias"]
    assert block["graded"] == len(rows) and block["refusal_share"] == 1.0
    assert {c["issue_id"] for c in block["issues"]} == {i.issue.issue_id for i in items}
