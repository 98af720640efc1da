"""`judge` scorer: label log-probabilities through ``score_choices`` on llamacpp (embedded SmolLM2) and hf
(tiny local LM), the text fallback for generate-only backends, all through the backend contract."""

import math

import numpy as np
import pytest
import torch
from tiny_scorers import tiny_causal_lm

from polibench.models.mock import MockBackend
from polibench.scorers.stance.data import load_examples
from polibench.scorers.stance.llm_judge import JudgeScorer, choices_text, first_label, softmax

FOUR = ("agree", "disagree", "neutral", "unrelated")


def test_helpers():
    assert first_label("I would say: Disagree.", FOUR) == "disagree"
    assert first_label("agreement? no: neutral", FOUR) == "neutral"
    assert first_label("no idea", FOUR) is None
    assert choices_text(["agree", "disagree", "neutral"]) == "agree, disagree or neutral"
    probs = softmax({"agree": math.log(3), "disagree": math.log(1)})
    assert probs == pytest.approx({"agree": 0.75, "disagree": 0.25})


def test_text_only_backend_reads_the_first_label_word():
    scorer = JudgeScorer(FOUR)
    backend = MockBackend("judge", responses=["Disagree, clearly.", "I cannot tell."], order="script")
    scorer.use_backend(backend)
    results = scorer.score(["Taxes should rise."] * 2, ["No way.", "Hmm."])
    assert [(r.label, r.confidence) for r in results] == [("disagree", 1.0), (None, 0.0)]
    assert scorer.describe()["confidence"].startswith("none")
    sent = backend.calls[0][0]
    assert "Statement: Taxes should rise." in sent.text and "agree, disagree, neutral or unrelated" in sent.text
    assert sent.messages[0].role == "user"
    scorer.close()
    assert backend.closed


def test_score_choices_backend_gives_softmaxed_label_probabilities():
    scorer = JudgeScorer(FOUR)
    backend = MockBackend("judge", score_choices=True)
    scorer.use_backend(backend)
    (result,) = scorer.score(["Taxes should rise."], ["Absolutely not."])
    assert backend.calls == []  # nothing generated
    (prompts, options), = backend.choice_calls
    assert options == [list(FOUR)]
    expected = softmax({label: backend.choice_logprob(prompts[0], label) for label in FOUR})
    assert result.probs == pytest.approx(expected) and result.label == max(expected, key=expected.get)
    assert result.confidence == pytest.approx(max(expected.values()))
    preferring = JudgeScorer(FOUR)
    preferring.use_backend(MockBackend("judge", score_choices=True, prefer="neutral"))
    assert preferring.score(["s"], ["r"])[0].label == "neutral"


@pytest.fixture(scope="module")
def llamacpp_judge():
    pytest.importorskip("llama_cpp")
    scorer = JudgeScorer(FOUR, n_ctx=1024, n_threads=1)
    yield scorer
    scorer.close()


def reference_logprobs(model_path, prompt, label):
    """log P(first token of any label | prompt) and log P(label | prompt), from a separate Llama that keeps
    the logits of every position of one evaluation of ``prompt + label``."""
    from llama_cpp import Llama

    llm = Llama(model_path=model_path, n_ctx=1024, n_threads=1, logits_all=True, verbose=False)
    prompt_tokens = llm.tokenize(prompt.encode(), add_bos=False, special=True)
    tokens = llm.tokenize((prompt + label).encode(), add_bos=False, special=True)
    llm.eval(tokens)
    scores = np.asarray(llm.scores[:len(tokens)], dtype=np.float64)
    top = scores.max(1, keepdims=True)
    logprobs = scores - top - np.log(np.exp(scores - top).sum(1, keepdims=True))
    whole = sum(logprobs[i - 1, tokens[i]] for i in range(len(prompt_tokens), len(tokens)))
    return logprobs[len(prompt_tokens) - 1], whole


@pytest.mark.slow
def test_llamacpp_judge_on_gold_examples(llamacpp_judge):
    examples = load_examples("gold:test")[:2]
    results = llamacpp_judge.score([e.statement for e in examples], [e.response for e in examples])
    assert llamacpp_judge.describe()["confidence"] == "label log-probabilities"
    for r in results:
        assert r.label in FOUR and set(r.probs) == set(FOUR)
        assert sum(r.probs.values()) == pytest.approx(1.0)
        assert r.confidence == max(r.probs.values())
    # the incremental log-probabilities match a full-logits computation ("disagree" is two tokens here)
    turn = llamacpp_judge.user_turn(examples[0].statement, examples[0].response)
    backend = llamacpp_judge._backend
    judge_prompt = llamacpp_judge.judge_prompt(turn)
    ours = dict(zip(FOUR, backend.score_choices([judge_prompt], [list(FOUR)])[0]))
    prompt, templated = backend.render(judge_prompt)
    assert templated and prompt.endswith("<|im_start|>assistant\n")
    llm = backend.llm
    assert len(llm.tokenize(b"disagree", add_bos=False)) == 2
    first, disagree = reference_logprobs(llamacpp_judge._backend.model, prompt, "disagree")
    assert ours["disagree"] == pytest.approx(disagree, abs=1e-3)
    agree_token = llm.tokenize(b"agree", add_bos=False)
    assert len(agree_token) == 1 and ours["agree"] == pytest.approx(first[agree_token[0]], abs=1e-3)


def test_hf_judge_label_logprobs(tmp_path):
    folder = tiny_causal_lm(tmp_path / "lm", seed=2)
    scorer = JudgeScorer(("agree", "disagree"), backend="hf", model=str(folder), device="cpu", dtype="float32")
    result = scorer.score(["Taxes should be higher."], ["I agree with this statement."])[0]
    assert scorer.describe()["confidence"] == "label log-probabilities"
    backend = scorer._backend
    turn = scorer.user_turn("Taxes should be higher.", "I agree with this statement.")
    expected = {}
    for label in ("agree", "disagree"):
        prompt = backend.tokenizer.apply_chat_template([{"role": "user", "content": turn}], tokenize=False,
                                                       add_generation_prompt=True)
        prompt_ids = backend.tokenizer(prompt, add_special_tokens=False)["input_ids"]
        ids = backend.tokenizer(prompt + label, add_special_tokens=False)["input_ids"]
        with torch.no_grad():
            logits = backend.lm(torch.tensor([ids])).logits[0]
        logprobs = torch.log_softmax(logits.double(), -1)
        expected[label] = sum(float(logprobs[i - 1, ids[i]]) for i in range(len(prompt_ids), len(ids)))
    assert result.probs == pytest.approx(softmax(expected), abs=1e-4)
    assert result.label == max(expected, key=expected.get)
