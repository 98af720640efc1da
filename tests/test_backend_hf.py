"""The hf backend on a tiny random Llama saved to disk, and on the embedded GGUF (real weights)."""

import pytest

pytest.importorskip("torch")

from tiny_models import tiny_causal_lm  # noqa: E402

from polibench.errors import BackendError  # noqa: E402
from polibench.models.base import Prompt  # noqa: E402
from polibench.models.hf import HFBackend  # noqa: E402
from polibench.records import ChatMessage, GenerationSettings  # noqa: E402

CHAT = "{% for m in messages %}<s> {{ m['content'] }} </s>{% endfor %}{% if add_generation_prompt %}<s>{% endif %}"
PROMPTS = ["please respond", "the freer the market the freer the people your response", "i agree"]


@pytest.fixture(scope="module")
def plain_dir(tmp_path_factory):
    return tiny_causal_lm(tmp_path_factory.mktemp("plain"))


@pytest.fixture(scope="module")
def chat_dir(tmp_path_factory):
    return tiny_causal_lm(tmp_path_factory.mktemp("chat"), chat_template=CHAT)


def prompts(seed0=0):
    return [Prompt(text=t, seed=seed0 + i) for i, t in enumerate(PROMPTS)]


def test_greedy_batched_equals_one_at_a_time(plain_dir):
    """Left padding must not change what each prompt generates."""
    greedy = GenerationSettings(samples=1, max_new_tokens=6, temperature=0)
    batched = HFBackend(str(plain_dir), device="cpu", batch_size=3).generate(prompts(), greedy)
    single = HFBackend(str(plain_dir), device="cpu", batch_size=1).generate(prompts(), greedy)
    assert [c.text for c in batched] == [c.text for c in single]
    assert all(c.usage.completion_tokens is not None and c.usage.completion_tokens <= 6 for c in batched)
    assert [c.usage.prompt_tokens for c in batched] == [2, 10, 2]


def test_sampling_reproducible_for_same_seeds(plain_dir):
    backend = HFBackend(str(plain_dir), device="cpu", batch_size=2)
    settings = GenerationSettings(max_new_tokens=8, temperature=1.0)
    first = [c.text for c in backend.generate(prompts(), settings)]
    again = [c.text for c in backend.generate(prompts(), settings)]
    other = [c.text for c in backend.generate(prompts(seed0=100), settings)]
    assert first == again
    assert first != other


def test_chat_template_used_only_when_present(plain_dir, chat_dir):
    msg = (ChatMessage(role="user", content="i agree"),)
    chat = HFBackend(str(chat_dir), device="cpu")
    plain = HFBackend(str(plain_dir), device="cpu")
    assert chat.render(Prompt(text="i agree", seed=0, messages=msg)) == "<s> i agree </s><s>"
    assert plain.render(Prompt(text="i agree", seed=0, messages=msg)) == "i agree"
    system = (ChatMessage(role="system", content="be brief"), *msg)
    assert plain.render(Prompt(text="i agree", seed=0, messages=system)) == "be brief\n\ni agree"


def test_bad_inputs_are_clear_errors(tmp_path):
    with pytest.raises(BackendError, match="GGUF file not found"):
        HFBackend(str(tmp_path / "missing.gguf"))
    with pytest.raises(BackendError, match="dtype"):
        HFBackend(str(tmp_path), dtype="float8")
    with pytest.raises(BackendError, match="could not load"):
        HFBackend(str(tmp_path / "no-such-model-dir"), device="cpu")


@pytest.mark.slow
def test_embedded_gguf_loads_and_generates(embedded_gguf):
    backend = HFBackend(str(embedded_gguf), device="cpu", batch_size=2)
    out = backend.generate([Prompt(text="Say hello.", seed=1,
                                   messages=(ChatMessage(role="user", content="Say hello."),))],
                           GenerationSettings(max_new_tokens=8, temperature=0))
    assert out[0].text.strip() and out[0].usage.completion_tokens <= 8
    assert backend.describe()["gguf_sha256"] and len(backend.describe()["gguf_sha256"]) == 64
