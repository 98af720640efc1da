"""The hf backend on a tiny random Llama saved to disk, and on the embedded GGUF (real weights)."""

import math

import pytest

pytest.importorskip("torch")

from tiny_models import tiny_causal_lm  # noqa: E402

from polibench.errors import BackendError  # noqa: E402
from polibench.models.base import Prompt  # noqa: E402
from polibench.models.choices import option_forms  # noqa: E402
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


def manual_logprob(backend, context: str, option: str) -> float:
    """The option's log-probability from one plain forward pass over context + option, in float64."""
    import torch

    context_ids = backend.tokenizer(context, add_special_tokens=False)["input_ids"]
    ids = backend.tokenizer(context + option, add_special_tokens=False)["input_ids"]
    assert ids[:len(context_ids)] == context_ids and len(ids) > len(context_ids)
    with torch.no_grad():
        logits = backend.lm(torch.tensor([ids])).logits[0].double()
    logprobs = torch.log_softmax(logits, dim=-1)
    return sum(float(logprobs[i - 1, ids[i]]) for i in range(len(context_ids), len(ids)))


def test_score_choices_matches_a_manual_forward_pass(plain_dir, chat_dir):
    plain = HFBackend(str(plain_dir), device="cpu", dtype="float32")
    assert plain.supports("score_choices")
    prompt = Prompt(text="the freer the market the", seed=0)
    options = [" freer", " people", " freer the people", " table"]  # " table" is not in the vocabulary: <unk>
    (scores,) = plain.score_choices([prompt], [options])
    for option, ours in zip(options, scores):
        assert ours == pytest.approx(manual_logprob(plain, prompt.text, option), abs=1e-4)
    # a longer option is the sum of its tokens' log-probabilities, each one a proper probability
    assert scores[2] < scores[0] < 0
    # one token options over the whole vocabulary form a distribution
    vocab = [w for w in plain.tokenizer.get_vocab() if not w.startswith("<")]
    (all_words,) = plain.score_choices([prompt], [[" " + w for w in vocab]])
    unk = manual_logprob(plain, prompt.text, " <unk>")
    assert sum(math.exp(x) for x in all_words) + math.exp(unk) == pytest.approx(
        1.0 - sum(math.exp(manual_logprob(plain, prompt.text, t)) for t in (" <s>", " </s>", " <pad>")), abs=1e-4)

    chat = HFBackend(str(chat_dir), device="cpu", dtype="float32")
    message = Prompt(text="i agree", seed=0, messages=(ChatMessage(role="user", content="i agree"),))
    (chat_scores,) = chat.score_choices([message], [["agree", "disagree"]])
    header = "<s> i agree </s><s>"  # the template with its assistant header: options continue after it
    # the header ends without whitespace: each option read as " X" and "X", added (here both are the same
    # tokens for this word-level tokenizer, so the sum is twice the probability)
    expected = [math.log(sum(math.exp(manual_logprob(chat, header, f)) for f in option_forms(header, o)))
                for o in ("agree", "disagree")]
    assert option_forms(header, "agree") == [" agree", "agree"]
    assert chat_scores == pytest.approx(expected, abs=1e-4)


def test_close_drops_the_model_but_keeps_the_description(plain_dir):
    with HFBackend(str(plain_dir), device="cpu") as backend:
        described = backend.describe()
    assert backend.closed and backend.lm is None
    assert backend.describe() == described
    backend.close()  # twice is fine
