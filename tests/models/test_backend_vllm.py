"""The ``vllm`` adapter against a fake ``vllm`` module (injected in ``sys.modules``) that records its calls."""

from __future__ import annotations

import json
import types
from pathlib import Path

import pytest
from fake_vllm_engine import FakeTokenizer

from polibench.cli.main import main
from polibench.models import select
from polibench.models.base import Prompt
from polibench.models.registry import create_backend
from polibench.records import ChatMessage, GenerationSettings
from polibench.results.files import read_samples


def make_fake_vllm():
    calls: dict[str, list] = {"LLM": [], "generate": [], "chat": []}

    class SamplingParams:
        def __init__(self, **kwargs):
            self.kwargs = kwargs

    def output(prompt, params: SamplingParams):
        prompt_text = prompt if isinstance(prompt, str) else "".join(map(chr, prompt["prompt_token_ids"]))
        n = params.kwargs.get("n", 1)
        outs = [types.SimpleNamespace(text=f" reply to {prompt_text[-12:]!r} seed {params.kwargs['seed']} #{j} ",
                                      finish_reason="length", token_ids=[1, 2, 3]) for j in range(n)]
        return types.SimpleNamespace(prompt_token_ids=[0] * 7, outputs=outs)

    class LLM:
        def __init__(self, model, **kwargs):
            calls["LLM"].append({"model": model, **kwargs})

        def get_tokenizer(self):
            return FakeTokenizer()

        def generate(self, prompts, sampling_params, use_tqdm=True):
            assert isinstance(sampling_params, list) and len(sampling_params) == len(prompts)
            calls["generate"].append({"prompts": list(prompts), "params": [p.kwargs for p in sampling_params]})
            return [output(p, s) for p, s in zip(prompts, sampling_params)]

        def chat(self, messages, sampling_params, use_tqdm=True):
            calls["chat"].append({"messages": messages, "params": [p.kwargs for p in sampling_params]})
            return [output(m[-1]["content"], s) for m, s in zip(messages, sampling_params)]

    module = types.ModuleType("vllm")
    module.LLM, module.SamplingParams, module.calls = LLM, SamplingParams, calls
    return module


@pytest.fixture
def fake_vllm(monkeypatch, tmp_path):
    module = make_fake_vllm()
    monkeypatch.setitem(__import__("sys").modules, "vllm", module)
    monkeypatch.setenv("POLIBENCH_CACHE", str(tmp_path / "cache"))
    return module


CHAT = (ChatMessage(role="system", content="Be brief."), ChatMessage(role="user", content="Statement A"))


def test_engine_args_pass_through_and_engine_starts_lazily(fake_vllm):
    args = dict(tensor_parallel_size=4, pipeline_parallel_size=2, distributed_executor_backend="ray",
                gpu_memory_utilization=0.85, dtype="bfloat16", max_model_len=4096, quantization="awq",
                revision="abc123")
    backend = create_backend("vllm", "meta-llama/Llama-3.1-70B-Instruct", args)
    assert fake_vllm.calls["LLM"] == []  # nothing loaded until the first request
    backend.generate([Prompt(text="hi", seed=1)], GenerationSettings(max_new_tokens=5))
    (llm_call,) = fake_vllm.calls["LLM"]
    assert llm_call == {"model": "meta-llama/Llama-3.1-70B-Instruct", "trust_remote_code": False,
                        "enforce_eager": False, "seed": 0, **args}
    assert backend.cache_identity()["revision"] == "abc123"


def test_sampling_params_per_request_and_chat_template(fake_vllm):
    backend = create_backend("vllm", "org/model", {})
    settings = GenerationSettings(max_new_tokens=33, temperature=0.7, top_k=40, top_p=0.9, stop=["\n\n"])
    prompts = [Prompt(text="Statement A", seed=11, messages=CHAT), Prompt(text="plain B", seed=12)]
    completions = backend.generate(prompts, settings)
    (call,) = fake_vllm.calls["generate"]
    # the templated prompt goes as token ids with no BOS added (the template writes its own); the plain one as
    # text, to which vLLM adds the tokenizer's BOS, as llamacpp and hf do
    templated = "<|system|>Be brief.<|user|>Statement A<|assistant|>"
    assert call["prompts"] == [{"prompt_token_ids": [ord(c) for c in templated]}, "plain B"]
    assert call["params"] == [
        {"n": 1, "max_tokens": 33, "seed": 11, "temperature": 0.7, "stop": ["\n\n"], "top_k": 40, "top_p": 0.9},
        {"n": 1, "max_tokens": 33, "seed": 12, "temperature": 0.7, "stop": ["\n\n"], "top_k": 40, "top_p": 0.9},
    ]
    assert completions[0].text.endswith("seed 11 #0") and completions[0].finish_reason == "length"
    assert completions[0].usage.prompt_tokens == 7 and completions[0].usage.completion_tokens == 3
    greedy = backend.sampling_params(GenerationSettings(temperature=0.0, top_k=50), seed=3)
    assert greedy.kwargs == {"n": 1, "max_tokens": 100, "seed": 3, "temperature": 0.0, "stop": None}


def test_llm_chat_and_grouped_samples(fake_vllm):
    backend = create_backend("vllm", "org/model", {"use_llm_chat": True, "group_samples": True})
    prompts = [Prompt(text="Statement A", seed=s, messages=CHAT) for s in (1, 2, 3)] + [Prompt(text="B", seed=4)]
    completions = backend.generate(prompts, GenerationSettings())
    (chat_call,) = fake_vllm.calls["chat"]
    assert chat_call["messages"] == [[m.model_dump() for m in CHAT]]
    assert chat_call["params"][0]["n"] == 3 and chat_call["params"][0]["seed"] == 1
    assert fake_vllm.calls["generate"][0]["prompts"] == ["B"]
    assert [c.text[-2:] for c in completions] == ["#0", "#1", "#2", "#0"]


def test_bad_args_and_missing_vllm_are_one_message(fake_vllm, monkeypatch, capsys, tmp_path):
    for bad in ("distributed_executor_backend=slurm", "gpu_memory_utilization=1.5", "tensor_parallel=2"):
        assert main(["run", "--backend", "vllm", "--model", "org/m", "--model-args", bad, "--tasks", "pct",
                     "--output", str(tmp_path / "o")]) == 2
        err = capsys.readouterr().err
        assert err.count("polibench: error:") == 1 and "Traceback" not in err
    monkeypatch.setitem(__import__("sys").modules, "vllm", None)
    assert main(["run", "--backend", "vllm", "--model", "org/m", "--tasks", "pct", "--scorer", "lexical"]) == 2
    assert "needs vLLM" in capsys.readouterr().err


def test_hub_model_picks_vllm_with_a_gpu(fake_vllm, monkeypatch):
    monkeypatch.setattr(select, "has_module", lambda name: True)
    monkeypatch.setattr(select, "gpu_present", lambda: True)
    assert select.choose("meta-llama/Llama-3.1-8B-Instruct", None)[0] == "vllm"
    monkeypatch.setattr(select, "gpu_present", lambda: False)
    assert select.choose("meta-llama/Llama-3.1-8B-Instruct", None)[0] == "hf"
    assert select.choose(None, "vllm") == ("vllm", None, False)  # no embedded GGUF for vllm


def test_cli_run_through_fake_vllm_and_cached_rerun(fake_vllm, tmp_path):
    argv = ["run", "--backend", "vllm", "--model", "org/model", "--model-args", "tensor_parallel_size=2",
            "--tasks", "pct", "--limit", "2", "--samples", "2", "--scorer", "lexical", "--no-progress"]
    assert main(argv + ["--output", str(tmp_path / "a")]) == 0
    assert len(fake_vllm.calls["generate"]) == 1 and len(fake_vllm.calls["generate"][0]["prompts"]) == 4
    samples = read_samples(tmp_path / "a" / "samples.jsonl")
    seeds = [p["seed"] for p in fake_vllm.calls["generate"][0]["params"]]
    assert seeds == [s.seed for s in samples]
    assert main(argv + ["--output", str(tmp_path / "b")]) == 0
    assert len(fake_vllm.calls["generate"]) == 1 and len(fake_vllm.calls["LLM"]) == 1  # re-run: no engine, no calls
    model = json.loads(Path(tmp_path / "b" / "results.json").read_text())["model"]
    assert model["backend"] == "vllm" and model["model_args"]["tensor_parallel_size"] == 2
