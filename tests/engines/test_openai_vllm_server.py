"""The ``openai`` backend against vLLM's own OpenAI-compatible server (vLLM's CPU build, SmolLM2-135M, on loopback),
the way most GPU users serve a model: chat completions with seeds, the log-probability channel, several base URLs.
The server's answers are checked against the session's offline engine (tests/engines/conftest.py), which reads the
same model with the same sampling."""

from __future__ import annotations

import pytest
from engine_kit import SERVED_NAME, Relay, needs_vllm, short_copy

from polibench.cli.main import main
from polibench.models.openai_api import OpenAIBackend
from polibench.records import ChatMessage, GenerationSettings, Prompt
from polibench.results.files import read_samples

needs_vllm()

SAMPLED = GenerationSettings(max_new_tokens=24, temperature=1.0, top_k=50)
TOKEN_TOLERANCE = 2e-3  # nats between the server's top log-probabilities and the engine's prompt log-probabilities


def chat(text: str, seed: int) -> Prompt:
    return Prompt(text=text, seed=seed, messages=(ChatMessage(role="user", content=text),))


STATEMENTS = ["Taxes on the rich should be raised.", "Nuclear power is the best way to fight climate change.",
              "Immigration enriches a country."]


@pytest.fixture(scope="module")
def relay(vllm_server):
    relay = Relay(vllm_server.port)
    yield relay
    relay.close()


def test_chat_completions_with_seeds_are_the_offline_engines_responses(vllm_server, engine):
    backend = OpenAIBackend(SERVED_NAME, base_url=vllm_server.base_url, concurrency=4)
    prompts = [chat(STATEMENTS[0], 1), chat(STATEMENTS[0], 1), chat(STATEMENTS[0], 2), chat(STATEMENTS[1], 1)]
    texts = [c.text for c in backend.generate(prompts, SAMPLED)]
    assert texts[0] == texts[1] and texts[0] != texts[2] and texts[0] != texts[3]
    # the server frames the chat as the vllm backend does (the template's tokens, no second BOS) and seeds each
    # request the same way: the same responses as the offline engine
    assert texts == [c.text for c in engine.generate(prompts, SAMPLED)]


def test_log_probability_channel_reads_the_engines_next_token_log_probabilities(vllm_server, engine):
    """``top_logprobs=20``: each option's value is OpinionQA's reading of the server's top-20 next tokens; every
    listed token's log-probability is the offline engine's prompt log-probability of that token."""
    import openai

    from polibench.models.choices import logprobs_from_top, option_labels

    backend = OpenAIBackend(SERVED_NAME, base_url=vllm_server.base_url, top_logprobs=20)
    prompt = Prompt(text="Is the following statement true? The Earth orbits the Sun. Answer 1) Yes 2) No 3) Unsure",
                    seed=0, messages=(ChatMessage(role="user", content="Is the following statement true? The Earth "
                                                  "orbits the Sun. Answer 1) Yes 2) No 3) Unsure"),))
    options = ["1) Yes", "2) No", "3) Unsure"]
    (values,) = backend.score_choices([prompt], [options])
    client = openai.OpenAI(api_key="EMPTY", base_url=vllm_server.base_url)
    reply = client.chat.completions.create(**backend.logprob_body(prompt))
    top = {item.token: item.logprob for item in reply.choices[0].logprobs.content[0].top_logprobs}
    assert len(top) == 20
    expected, missing = logprobs_from_top(top, option_labels(options, "openai"))
    assert values == pytest.approx(expected, abs=1e-9) and not all(missing)
    tokens = list(top)[:8]  # the most likely next tokens, each scored by the engine as a one-token option
    assert engine.render(prompt).endswith("\n")  # so each token is read as written (no " X" form added)
    ours = engine.score_choices([prompt], [tokens])[0]
    assert ours == pytest.approx([top[t] for t in tokens], abs=TOKEN_TOLERANCE)


def test_several_base_urls_share_the_requests_and_give_one_servers_responses(vllm_server, relay, tmp_path,
                                                                              monkeypatch, capsys):
    """``--base-url URL1,URL2``: the server and a relay in front of it used as one: both addresses serve requests,
    and the run's samples are those of the single-address run (a response depends on its prompt and seed)."""
    monkeypatch.setenv("POLIBENCH_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("OPENAI_API_KEY", "EMPTY")
    second = f"http://127.0.0.1:{relay.port}/v1"
    task = short_copy(tmp_path / "tasks", "pct.yaml", "pct")  # 24 new tokens a response
    base = ["run", "--backend", "openai", "--model", SERVED_NAME, "--tasks", task, "--include-path",
            str(tmp_path / "tasks"), "--limit", "3", "--samples", "2", "--scorer", "lexical", "--no-progress",
            "--no-cache"]
    assert main(base + ["--base-url", vllm_server.base_url, "--model-args", "timeout=600",
                        "--output", str(tmp_path / "one")]) == 0
    capsys.readouterr()
    assert main(base + ["--base-url", f"{vllm_server.base_url},{second}", "--model-args", "concurrency=2,timeout=600",
                        "--output", str(tmp_path / "two")]) == 0
    err = capsys.readouterr().err
    summary = next(line for line in err.splitlines() if "requests per server" in line)
    counts = [int(part.rsplit("x", 1)[1].split()[0]) for part in summary.split(": ", 2)[-1].split(", ")]
    assert len(counts) == 2 and min(counts) >= 1 and sum(counts) == 6
    one, two = read_samples(tmp_path / "one" / "samples.jsonl"), read_samples(tmp_path / "two" / "samples.jsonl")
    assert [s.response for s in one] == [s.response for s in two]
    assert len({s.response for s in one}) == 6
