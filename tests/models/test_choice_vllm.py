"""The log-probability channel through ``vllm``'s prompt logprobs, against a fake ``vllm`` module whose
log-probabilities are a known function of the token ids (the real engine needs a GPU)."""

from __future__ import annotations

import math
import sys
import types

import pytest

from polibench.cli.main import main
from polibench.results.files import read_samples


def token_logprob(previous: int, token: int) -> float:
    return -((previous * 31 + token) % 97) / 10 - 0.05


class CharTokenizer:
    """One id per character; the special token 1 in front when asked."""

    chat_template = "{% for m in messages %}...{% endfor %}"

    def __call__(self, text, add_special_tokens=True):
        return {"input_ids": ([1] if add_special_tokens else []) + [ord(c) for c in text]}

    def apply_chat_template(self, messages, tokenize=False, add_generation_prompt=True):
        return "".join(f"<|{m['role']}|>{m['content']}" for m in messages) + "<|assistant|>"


@pytest.fixture
def fake_vllm(monkeypatch, tmp_path):
    calls: list = []

    class SamplingParams:
        def __init__(self, **kwargs):
            self.kwargs = kwargs

    class LLM:
        def __init__(self, model, **kwargs):
            pass

        def get_tokenizer(self):
            return CharTokenizer()

        def generate(self, requests, params, use_tqdm=True):
            calls.append((requests, params.kwargs))
            outputs = []
            for request in requests:
                ids = request["prompt_token_ids"]
                positions = [None] + [{ids[k]: types.SimpleNamespace(logprob=token_logprob(ids[k - 1], ids[k]))}
                                      for k in range(1, len(ids))]
                outputs.append(types.SimpleNamespace(prompt_logprobs=positions, outputs=[]))
            return outputs

    module = types.ModuleType("vllm")
    module.LLM, module.SamplingParams = LLM, SamplingParams
    monkeypatch.setitem(sys.modules, "vllm", module)
    monkeypatch.setenv("POLIBENCH_CACHE", str(tmp_path / "cache"))
    return calls


def test_rottger_logprob_through_vllm_prompt_logprobs(fake_vllm, tmp_path):
    out = tmp_path / "run"
    assert main(["run", "--backend", "vllm", "--model", "org/m", "--tasks", "rottger-logprob", "--limit", "1",
                 "--output", str(out), "--no-progress"]) == 0
    assert all(params == {"max_tokens": 1, "temperature": 0.0, "prompt_logprobs": 1, "detokenize": False}
               for _, params in fake_vllm)
    samples = read_samples(out / "samples.jsonl")
    assert len(samples) == 10
    for sample in samples:
        # the header ends without whitespace, so each option is read as " X" and as "X", the two added
        context = f"<|user|>{sample.prompt}<|assistant|>"
        for option, value in zip(sample.options, sample.option_logprobs):
            forms = []
            for form in (" " + option, option):
                ids = [ord(c) for c in context + form]
                forms.append(sum(token_logprob(ids[k - 1], ids[k]) for k in range(len(context), len(ids))))
            assert value == pytest.approx(math.log(math.exp(forms[0]) + math.exp(forms[1])), abs=1e-9)
    assert main(["score", str(out), "--check"]) == 0
