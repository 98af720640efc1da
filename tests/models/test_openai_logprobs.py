"""The ``openai`` backend's log-probability channel: answer options read from the next token's ``top_logprobs``
with OpinionQA's rule for options missing from the list, against llama.cpp's real OpenAI-compatible server on
loopback (the embedded model), and one clear error from a server that returns no log-probabilities."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

pytest.importorskip("openai")

sys.path.insert(0, str(Path(__file__).parent.parent))
from fault_server import FaultServer  # noqa: E402
from llama_server import llama_server, server_available  # noqa: E402

from polibench.cli.main import main  # noqa: E402
from polibench.errors import BackendError  # noqa: E402
from polibench.models.choices import logprobs_from_top, option_label, option_labels  # noqa: E402
from polibench.records import ChatMessage, Prompt  # noqa: E402
from polibench.results.files import read_samples  # noqa: E402

OPTIONS = ["1) Strongly disagree", "2) Disagree", "3) Agree", "4) Strongly agree"]


@pytest.fixture(autouse=True)
def _env(tmp_path, monkeypatch):
    monkeypatch.setenv("POLIBENCH_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    for name in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY",
                 "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)


def test_options_are_picked_by_their_leading_label_and_must_differ():
    assert [option_label(o) for o in OPTIONS] == ["1", "2", "3", "4"]
    assert option_label("A. Yes") == "A" and option_label("  Strongly agree") == "Strongly"
    with pytest.raises(BackendError, match="cannot be told apart"):
        option_labels(["Strongly agree", "Strongly disagree"], "openai")


def test_missing_options_get_opinionqas_share_of_the_unlisted_mass():
    top = {" 1": math.log(0.5), "1": math.log(0.1), "2": math.log(0.2), "Hello": math.log(0.1)}
    values, misses = logprobs_from_top(top, ["1", "2", "3", "4"])
    # "1": its two spellings added (0.5 + 0.1); 3 and 4 share the unlisted mass 1 - 0.9, unless a listed token is
    # less probable than that share
    assert misses == [False, False, True, True]
    assert values == pytest.approx([math.log(0.6), math.log(0.2), math.log(0.05), math.log(0.05)])
    values, _ = logprobs_from_top({"1": math.log(0.97), "2": math.log(0.01)}, ["1", "2", "3"])
    assert values[2] == pytest.approx(math.log(0.01))  # min(smallest listed 0.01, unlisted 0.02 / 1)
    values, _ = logprobs_from_top({"1": math.log(0.6), "2": math.log(0.4)}, ["1", "2", "3"])
    assert values[2] == pytest.approx(math.log(1e-12))  # nothing unlisted: the floor


@pytest.mark.slow
@pytest.mark.skipif(not server_available(), reason="llama-cpp-python[server] not installed")
def test_top_logprobs_from_llama_cpps_server_match_the_llamacpp_backend(tmp_path):
    from polibench.models.llamacpp import LlamaCppBackend
    from polibench.models.openai_api import OpenAIBackend

    question = ("Statement: The rich are too highly taxed.\nAnswer with one option: 1) Strongly disagree "
                "2) Disagree 3) Agree 4) Strongly agree\nAnswer:")
    prompt = Prompt(text=question, seed=3, messages=(ChatMessage(role="user", content=question),))
    with llama_server(extra=("--logits_all", "True")) as base_url:
        api = OpenAIBackend("smollm2", base_url=base_url, top_logprobs=20)
        (from_api,) = api.score_choices([prompt], [OPTIONS])
        code = main(["run", "--backend", "openai", "--model", "smollm2", "--base-url", base_url, "--tasks",
                     "rottger-logprob", "--limit", "1", "--samples", "1", "--output", str(tmp_path / "run"),
                     "--no-progress", "--model-args", "top_logprobs=20"])
    assert code == 0
    assert main(["score", str(tmp_path / "run"), "--check"]) == 0
    samples = read_samples(tmp_path / "run" / "samples.jsonl")
    assert len(samples) == 10 and all(len(s.option_logprobs or []) == 4 for s in samples)

    # the same chat prompt through the llamacpp backend: the log-probability of each label as the first token
    from polibench.models.embedded import embedded_gguf_path

    with LlamaCppBackend(str(embedded_gguf_path()), n_ctx=512, n_threads=1) as local:
        (direct,) = local.score_choices([prompt], [["1", "2", "3", "4"]])
    listed = [i for i, value in enumerate(from_api) if value > math.log(1e-11)]
    assert listed, "no option label among the server's top 20 tokens"
    best = max(range(4), key=lambda i: direct[i])
    assert best in listed and max(range(4), key=lambda i: from_api[i]) == best
    for i in listed:
        assert from_api[i] == pytest.approx(direct[i], abs=0.1)


def test_a_server_without_logprobs_is_one_clear_error_and_no_result(tmp_path, capsys):
    with FaultServer(seed=3) as server:
        args = ["run", "--backend", "openai", "--model", "fake", "--base-url", server.base_url, "--tasks",
                "rottger-logprob", "--limit", "1", "--samples", "1", "--no-progress"]
        # without top_logprobs the backend declares no score_choices: refused before any request
        assert main(args + ["--output", str(tmp_path / "plain")]) == 2
        refused = capsys.readouterr().err
        sent_before = server.stats()["attempts"]
        code = main(args + ["--output", str(tmp_path / "run"), "--model-args", "top_logprobs=20"])
    assert "backend 'openai' cannot score answer options" in refused and "top_logprobs=20" in refused
    assert sent_before == 0
    err = capsys.readouterr().err
    assert code == 2 and err.count("polibench: error:") == 1 and "returned no log-probabilities" in err
    assert "Traceback" not in err and not (tmp_path / "run" / "results.json").exists()
