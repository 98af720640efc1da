"""The ``vllm`` adapter against a fake ``vllm`` module (injected in ``sys.modules``) that records its calls: only what
a real engine cannot answer on a machine without a GPU (the engine arguments of tensor and pipeline parallelism and
GPU memory reach ``vllm.LLM``; the backend picked for a hub model when a GPU is there) and what needs no engine (one
message for bad arguments or a missing vLLM). Generation, seeds, the chat template and BOS, stop, grouped samples,
``LLM.chat``, option scores, the cache, resume and ``close()`` run on a real engine in tests/engines/
(``make test-engines``)."""

from __future__ import annotations

import types

import pytest
from fake_vllm_engine import FakeTokenizer

from polibench.cli.main import main
from polibench.models import select
from polibench.models.base import Prompt
from polibench.models.registry import create_backend
from polibench.records import GenerationSettings


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
    # a GPU build (vLLM's CPU build, and what its engines are given there: tests/engines/)
    platforms = types.ModuleType("vllm.platforms")
    platforms.current_platform = types.SimpleNamespace(is_cpu=lambda: False)  # type: ignore[attr-defined]
    monkeypatch.setitem(__import__("sys").modules, "vllm.platforms", platforms)
    monkeypatch.setenv("POLIBENCH_CACHE", str(tmp_path / "cache"))
    return module


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


def test_bad_args_and_missing_vllm_are_one_message(fake_vllm, monkeypatch, capsys, tmp_path):
    for bad in ("distributed_executor_backend=slurm", "gpu_memory_utilization=1.5", "tensor_parallel=2",
                "chunk_size=0"):
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
