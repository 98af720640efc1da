"""The ``lm-eval`` bridge: a model registered into lm-eval's registry here, and lm-eval's own ``hf`` model."""

from __future__ import annotations

import random

import pytest
from tiny_models import tiny_gpt2_lm

pytest.importorskip("lm_eval")

import lm_eval.models  # noqa: E402,F401 - register lm-eval's own models before ours
from lm_eval.api.model import LM  # noqa: E402
from lm_eval.api.registry import register_model  # noqa: E402

from polibench.cli.main import main  # noqa: E402
from polibench.models.base import Prompt  # noqa: E402
from polibench.models.registry import create_backend  # noqa: E402
from polibench.records import ChatMessage, GenerationSettings  # noqa: E402
from polibench.results.files import read_samples  # noqa: E402

SEEN: dict[str, list] = {"init": [], "requests": []}


@register_model("polibench-test-echo")
class EchoLM(LM):
    """Answers from Python's global RNG, so the bridge's per-request seeding decides the text."""

    def __init__(self, greeting: str = "hello", **kwargs):
        super().__init__()
        SEEN["init"].append({"greeting": greeting, **kwargs})
        self.greeting = greeting

    def apply_chat_template(self, chat_history, add_generation_prompt=True):
        return "".join(f"[{m['role']}] {m['content']} " for m in chat_history) + "[assistant]"

    def generate_until(self, requests, disable_tqdm: bool = False):
        out = []
        for request in requests:
            context, gen_kwargs = request.args
            SEEN["requests"].append((context, gen_kwargs))
            out.append(f" I agree, {self.greeting} {random.randint(0, 10**9)} ")
        return out

    def loglikelihood(self, requests):
        raise NotImplementedError

    def loglikelihood_rolling(self, requests):
        raise NotImplementedError


@pytest.fixture(autouse=True)
def _own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("POLIBENCH_CACHE", str(tmp_path / "cache"))
    SEEN["init"].clear()
    SEEN["requests"].clear()


def expected_text(greeting: str, seed: int) -> str:
    random.seed(seed)
    return f"I agree, {greeting} {random.randint(0, 10**9)}"


def test_registered_model_gets_args_gen_kwargs_chat_template_and_seeds(tmp_path):
    out = tmp_path / "run"
    assert main(["run", "--backend", "lm-eval", "--model-args", "model=polibench-test-echo,greeting=hey",
                 "--tasks", "pct", "--limit", "2", "--samples", "2", "--scorer", "lexical", "--output", str(out),
                 "--no-progress"]) == 0
    assert SEEN["init"] == [{"greeting": "hey"}]
    samples = read_samples(out / "samples.jsonl")
    assert [s.response for s in samples] == [expected_text("hey", s.seed) for s in samples]
    context, gen_kwargs = SEEN["requests"][0]
    assert context.startswith("[user] Please respond to the following statement:")
    assert gen_kwargs == {"until": [], "max_gen_toks": 100, "do_sample": True, "temperature": 1.0, "top_k": 50}
    assert all(s.stance.label == "agree" for s in samples)
    # A re-run builds no model and makes no call.
    assert main(["run", "--backend", "lm-eval", "--model-args", "model=polibench-test-echo,greeting=hey",
                 "--tasks", "pct", "--limit", "2", "--samples", "2", "--scorer", "lexical",
                 "--output", str(tmp_path / "again"), "--no-progress"]) == 0
    assert len(SEEN["init"]) == 1 and len(SEEN["requests"]) == 4


def test_unknown_lm_eval_model_and_missing_name_exit_2(capsys):
    assert main(["run", "--backend", "lm-eval", "--model-args", "model=no-such-model", "--tasks", "pct",
                 "--scorer", "lexical"]) == 2
    err = capsys.readouterr().err
    assert "no model named 'no-such-model'" in err and "hf" in err
    assert main(["run", "--backend", "lm-eval", "--tasks", "pct", "--scorer", "lexical"]) == 2
    assert "model=hf" in capsys.readouterr().err


def test_lm_eval_hf_model_on_a_tiny_local_causal_lm(tmp_path):
    pytest.importorskip("torch")
    folder = tiny_gpt2_lm(tmp_path / "tiny-gpt2")
    backend = create_backend("lm-eval", str(folder), {"model": "hf", "device": "cpu", "batch_size": 1})
    assert backend.lm_args["pretrained"] == str(folder)
    prompts = [Prompt(text="please respond to the following statement : i agree", seed=s) for s in (1, 2, 1)]
    settings = GenerationSettings(max_new_tokens=5, temperature=1.0, top_k=5)
    texts = [c.text for c in backend.generate(prompts, settings)]
    assert texts[0] == texts[2] and all(isinstance(t, str) for t in texts)  # same seed, same response
    assert all(len(t.split()) <= 5 for t in texts)
    chat = Prompt(text="x", seed=1, messages=(ChatMessage(role="user", content="i agree"),))
    assert backend.context(chat) == chat.plain_text()  # no chat template in this tokenizer: plain text
