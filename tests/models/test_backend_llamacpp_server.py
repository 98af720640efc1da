"""The ``openai`` backend against llama-cpp-python's real OpenAI-compatible server on loopback."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("openai")
sys.path.insert(0, str(Path(__file__).parent.parent))
from llama_server import llama_server, server_available  # noqa: E402

from polibench.cli.main import main  # noqa: E402
from polibench.results.files import read_samples  # noqa: E402

pytestmark = [pytest.mark.slow,  # a real model behind a real server: ~20 s on two busy cores
              pytest.mark.skipif(not server_available(), reason="needs pip install 'llama-cpp-python[server]'")]

TINY_TASK = """\
task: pct-tiny
instrument: pct
variant_set: feng-main
generation: {samples: 2, max_new_tokens: 6, temperature: 0.8, top_k: 40, seed: 3}
scoring: {scorer: lexical, threshold: 0.9, labels: [agree, disagree]}
metrics: [coverage]
"""


def test_small_task_through_the_local_llama_cpp_server(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("POLIBENCH_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)  # a local server needs none
    (tmp_path / "tasks").mkdir()
    (tmp_path / "tasks" / "tiny.yaml").write_text(TINY_TASK)
    with llama_server() as base_url:
        argv = ["run", "--base-url", base_url, "--model", "smollm2", "--include-path", str(tmp_path / "tasks"),
                "--tasks", "pct-tiny", "--limit", "1", "--no-progress", "--concurrency", "2"]
        assert main(argv + ["--output", str(tmp_path / "a")]) == 0
        assert "2 new" in capsys.readouterr().err
        assert main(argv + ["--output", str(tmp_path / "b")]) == 0
        assert "2 reused, 0 new" in capsys.readouterr().err
    first = read_samples(tmp_path / "a" / "samples.jsonl")
    assert len(first) == 2 and first[0].seed != first[1].seed
    for s in first:
        assert s.response.strip() and s.finish_reason in ("length", "stop")
        assert 0 < s.usage.completion_tokens <= 6 and s.usage.prompt_tokens > 10
    assert [s.response for s in read_samples(tmp_path / "b" / "samples.jsonl")] == [s.response for s in first]
