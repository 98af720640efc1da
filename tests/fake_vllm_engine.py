"""A fake vLLM engine for CPU: the small part of ``vllm.LLM`` polibench's ``vllm`` backend uses (``generate``,
``chat``, ``get_tokenizer``) and a ``SamplingParams`` stand-in, behind an engine factory
(:class:`FakeEngines`, shaped like :class:`polibench.models.vllm.VLLMEngines`).

The text of a response is a function of the prompt, the request's seed and the sample number only, as a real
seeded engine's is meant to be; so any split of the requests over replicas must give the same responses. The
data-parallel tests and ``benchmarks/bench_vllm_dp.py --smoke`` run it inside real Ray actors: a
:class:`FakeEngines` registers the module with Ray's cloudpickle to travel by value, since the actors' workers
do not have tests/ on their path. ``tests/models/test_backend_vllm.py`` uses its tokenizer.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import tempfile
import time
import types

STANCES = ("I strongly agree.", "I agree.", "I disagree.", "I strongly disagree.")


class FakeTokenizer:
    """One id per character, and the special token 1 in front when asked (as a BOS-declaring tokenizer)."""

    chat_template = "{% for m in messages %}...{% endfor %}"

    def __call__(self, text, add_special_tokens=True):
        return {"input_ids": ([1] if add_special_tokens else []) + [ord(c) for c in text]}

    def apply_chat_template(self, messages, tokenize=False, add_generation_prompt=True):
        assert tokenize is False and add_generation_prompt is True
        return "".join(f"<|{m['role']}|>{m['content']}" for m in messages) + "<|assistant|>"


class FakeSamplingParams:
    def __init__(self, **kwargs):
        self.kwargs = kwargs


def fake_text(prompt_text: str, seed: int, sample: int) -> str:
    """The response to ``prompt_text`` with ``seed`` (its ``sample``-th of ``n``): a stance and a digest."""
    digest = hashlib.sha256(f"{seed}\x00{sample}\x00{prompt_text}".encode()).hexdigest()
    return f" {STANCES[int(digest[:8], 16) % len(STANCES)]} ({digest[:12]}) "


class FakeLLM:
    """``delay``: seconds each ``generate`` call takes (a slow engine, to kill a replica mid-share), plus
    ``per_request`` seconds a request; ``log``: a file each call appends its process id and request count to (and
    the engine's start, as 0 requests: an engine started in a process that generated nothing is seen)."""

    def __init__(self, model: str, delay: float = 0.0, per_request: float = 0.0, log: str | None = None,
                 **engine_args):
        self.model, self.delay, self.per_request, self.log = model, delay, per_request, log
        self.engine_args = engine_args
        if self.log:
            with open(self.log, "a", encoding="utf-8") as out:
                out.write(f"{os.getpid()} 0\n")

    def get_tokenizer(self):
        return FakeTokenizer()

    def generate(self, prompts, sampling_params, use_tqdm=True):
        if not isinstance(sampling_params, list):
            sampling_params = [sampling_params] * len(prompts)
        assert len(sampling_params) == len(prompts)
        if self.delay or self.per_request:
            time.sleep(self.delay + self.per_request * len(prompts))
        if self.log:
            with open(self.log, "a", encoding="utf-8") as out:
                out.write(f"{os.getpid()} {len(prompts)}\n")
        return [self._output(p, s) for p, s in zip(prompts, sampling_params)]

    def chat(self, messages, sampling_params, use_tqdm=True):
        return self.generate([m[-1]["content"] for m in messages], sampling_params)

    @staticmethod
    def _output(prompt, params: FakeSamplingParams):
        text = prompt if isinstance(prompt, str) else "".join(map(chr, prompt["prompt_token_ids"]))
        ids = FakeTokenizer()(text, add_special_tokens=False)["input_ids"] if isinstance(prompt, str) \
            else prompt["prompt_token_ids"]
        if params.kwargs.get("prompt_logprobs"):  # score_choices: each position's token, with a made-up logprob
            positions = [None] + [{t: types.SimpleNamespace(logprob=-((t * 31 + k) % 7) / 3)}
                                  for k, t in enumerate(ids) if k > 0]
            return types.SimpleNamespace(prompt_token_ids=ids, prompt_logprobs=positions, outputs=[])
        seed, n, max_tokens = params.kwargs["seed"], params.kwargs.get("n", 1), params.kwargs["max_tokens"]
        outs = [types.SimpleNamespace(text=fake_text(text, seed, j), finish_reason="stop",
                                      token_ids=list(range(min(6, max_tokens)))) for j in range(n)]
        return types.SimpleNamespace(prompt_token_ids=ids, outputs=outs)


class FakeEngines:
    """The engine factory of the fake: a :class:`FakeLLM` per replica, on the CPU."""

    def __init__(self, delay: float = 0.0, per_request: float = 0.0, log: str | None = None):
        self.delay, self.per_request, self.log = delay, per_request, log
        travel_by_value()

    def check(self) -> None:
        return None

    def engine(self, model: str, engine_args: dict) -> FakeLLM:
        return FakeLLM(model, delay=self.delay, per_request=self.per_request, log=self.log, **engine_args)

    def sampling_params(self, **kwargs) -> FakeSamplingParams:
        return FakeSamplingParams(**kwargs)

    def tokenizer(self, model: str, engine_args: dict) -> FakeTokenizer:
        return FakeTokenizer()

    def on_cpu(self) -> bool:
        """The fake engine runs on the CPU: a data-parallel replica asks Ray for CPUs, as on vLLM's CPU build."""
        return True


class PlatformEngines(FakeEngines):
    """The fake engine on the device ``vllm.platforms.current_platform`` names (:meth:`VLLMEngines.on_cpu`, the
    backend's own detection): a test plants a CPU or a GPU platform in the driver's ``sys.modules``."""

    def on_cpu(self) -> bool:
        from polibench.models.vllm import VLLMEngines

        return VLLMEngines.on_cpu(self)  # type: ignore[arg-type]


def start_local_ray(num_cpus: int = 2, num_gpus: int = 0):
    """A local Ray cluster for tests and smoke runs (``num_gpus``: GPUs it declares, which need not exist: Ray counts
    them, a fake engine uses none), its session files in a short folder under /tmp (Ray's
    sockets there must fit in 107 bytes, which a pytest TMPDIR can exceed); returns (ray, the folder)."""
    import ray

    folder = tempfile.mkdtemp(prefix="ray-", dir="/tmp")
    for attempt in (1, 2):  # Ray gives its raylet 30 s to register, which an overloaded machine can miss
        try:
            ray.init(num_cpus=num_cpus, num_gpus=num_gpus, include_dashboard=False, log_to_driver=False,
                     configure_logging=False, _temp_dir=folder)
            return ray, folder
        except Exception as exc:
            ray.shutdown()
            if attempt == 2 or "timed out during startup" not in str(exc):
                shutil.rmtree(folder, ignore_errors=True)
                raise


def stop_local_ray(ray, folder: str) -> None:
    ray.shutdown()
    shutil.rmtree(folder, ignore_errors=True)


def travel_by_value() -> None:
    """Have Ray pickle this module's classes by value: the actors' workers do not have tests/ on their path."""
    try:
        import ray.cloudpickle
    except ImportError:
        return
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
