"""``hf`` backend: transformers causal LMs with batched, left-padded, seeded sampling.

Loads a hub id, a local folder, or a GGUF file (``--model path/to/file.gguf`` or
``--model-args gguf_file=NAME``); transformers de-quantises a GGUF file into float weights when loading
(tens of seconds for the embedded model; transformers cannot save such a model, so it is not cached).

Reproducibility: transformers draws one random stream per ``generate`` call, so each batch is seeded with
a value derived from the seeds of its prompts. The same command with the same ``--batch-size`` gives the
same responses; a different batch size gives different (equally valid) samples.

``--batch-size auto`` (the default): 8 on CPU; on a GPU, the largest of 64, 32, 16, ... whose forward pass
over 1,024 tokens fits in memory (accelerate's ``find_executable_batch_size``, as lm-eval's ``auto``), found
once when the model is loaded. The size chosen is in ``describe()``, so the cache keys responses by it.

Capabilities: ``generate`` and ``score_choices`` (one forward pass per option). ``close()`` drops the model
and empties the CUDA cache when it ran on a GPU.
"""

from __future__ import annotations

import gc
import hashlib
from pathlib import Path
from typing import Optional

from polibench.devices import pick_device
from polibench.errors import BackendError
from polibench.hashing import file_sha256
from polibench.models.base import (
    GENERATE,
    SCORE_CHOICES,
    ModelBackend,
    ProgressFn,
    check_local_model,
    cut_at_stop,
    parse_batch_size,
)
from polibench.models.choices import check_options, split_continuation
from polibench.records import Completion, GenerationSettings, Prompt, Usage

DTYPES = {"float32", "float16", "bfloat16", "auto"}
AUTO_BATCH_CPU = 8  # batched CPU generation gains little beyond this (benchmarks/bench_batching.py)
AUTO_BATCH_MAX = 64
AUTO_PROBE_TOKENS = 1024


class HFBackend(ModelBackend):
    name = "hf"
    capabilities = frozenset({GENERATE, SCORE_CHOICES})

    @classmethod
    def check_model(cls, model: Optional[str]) -> None:
        check_local_model(cls.name, model)

    def __init__(self, model: Optional[str], *, device: str = "auto", dtype: str = "auto",
                 gguf_file: Optional[str] = None, revision: Optional[str] = None,
                 trust_remote_code: bool = False, batch_size: int | str = "auto"):
        if not model:
            raise BackendError("the hf backend needs --model (a hub id, a local folder or a .gguf file)")
        if dtype not in DTYPES:
            raise BackendError(f"hf: dtype must be one of {sorted(DTYPES)} (got '{dtype}')")
        super().__init__(model, device=device, dtype=dtype, gguf_file=gguf_file, revision=revision,
                         trust_remote_code=trust_remote_code)
        requested = parse_batch_size(batch_size, self.name)
        self.device = pick_device(device)
        source, gguf_file = self._resolve_source(model, gguf_file)
        self.gguf_sha256: Optional[str] = None
        if gguf_file:
            self.gguf_sha256 = file_sha256(Path(source) / gguf_file)
        self.tokenizer, self.lm = self._load(source, gguf_file, dtype, revision, trust_remote_code)
        self.loaded_dtype = str(self.lm.dtype)
        self.batch_size = requested or self._auto_batch_size()

    def _auto_batch_size(self) -> int:
        """``--batch-size auto``: see the module docstring."""
        if not str(self.device).startswith("cuda"):
            return AUTO_BATCH_CPU
        import torch
        from accelerate.utils import find_executable_batch_size

        @find_executable_batch_size(starting_batch_size=AUTO_BATCH_MAX)
        def probe(batch_size: int) -> int:
            ids = torch.ones((batch_size, AUTO_PROBE_TOKENS), dtype=torch.long, device=self.device)
            with torch.no_grad():
                self.lm(input_ids=ids)
            return batch_size

        size = probe()
        torch.cuda.empty_cache()
        return size

    @staticmethod
    def _resolve_source(model: str, gguf_file: Optional[str]) -> tuple[str, Optional[str]]:
        path = Path(model)
        if path.suffix == ".gguf":
            if not path.is_file():
                raise BackendError(f"hf: GGUF file not found: {model}")
            return str(path.parent), path.name
        if gguf_file and path.is_dir() and not (path / gguf_file).is_file():
            raise BackendError(f"hf: {gguf_file} not found in {model}")
        return model, gguf_file

    def _load(self, source, gguf_file, dtype, revision, trust_remote_code):
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer

        kwargs = {"revision": revision, "trust_remote_code": trust_remote_code}
        if gguf_file:
            kwargs["gguf_file"] = gguf_file
        torch_dtype = "auto" if dtype == "auto" else getattr(torch, dtype)
        try:
            tokenizer = AutoTokenizer.from_pretrained(source, **kwargs)
            lm = AutoModelForCausalLM.from_pretrained(source, dtype=torch_dtype, **kwargs)
        except OSError as exc:
            raise BackendError(f"hf: could not load model '{self.model}': {exc}".splitlines()[0]) from None
        tokenizer.padding_side = "left"
        if tokenizer.pad_token is None:
            tokenizer.pad_token = tokenizer.eos_token
        lm.to(self.device).eval()
        return tokenizer, lm

    def describe(self) -> dict:
        info = super().describe()
        info.update(device=self.device, batch_size=self.batch_size, dtype=self.loaded_dtype)
        if self.gguf_sha256:
            info["gguf_sha256"] = self.gguf_sha256
        return info

    def render(self, prompt: Prompt) -> str:
        """Chat template when the tokenizer has one and the variant wants chat framing, else plain text."""
        if prompt.messages and getattr(self.tokenizer, "chat_template", None):
            messages = [m.model_dump() for m in prompt.messages]
            return self.tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
        return prompt.plain_text()

    def _sampling_kwargs(self, settings: GenerationSettings) -> dict:
        if settings.temperature == 0:
            return {"do_sample": False}
        return {"do_sample": True, "temperature": settings.temperature,
                "top_k": settings.top_k or 0, "top_p": settings.top_p or 1.0}

    def generate(self, prompts: list[Prompt], settings: GenerationSettings,
                 progress: Optional[ProgressFn] = None) -> list[Completion]:
        import torch

        texts = [self.render(p) for p in prompts]
        # Longest first keeps padding low inside each batch; results go back in the caller's order.
        order = sorted(range(len(prompts)), key=lambda i: (-len(texts[i]), i))
        results: list[Optional[Completion]] = [None] * len(prompts)
        for start in range(0, len(order), self.batch_size):
            batch = order[start:start + self.batch_size]
            results_batch = self._generate_batch([texts[i] for i in batch], [prompts[i].seed for i in batch],
                                                 settings, torch)
            for i, completion in zip(batch, results_batch):
                results[i] = completion
            if progress:
                progress(len(batch))
        return results  # type: ignore[return-value]

    def _generate_batch(self, texts, seeds, settings, torch) -> list[Completion]:
        encoded = self.tokenizer(texts, return_tensors="pt", padding=True, add_special_tokens=False)
        encoded = {k: v.to(self.device) for k, v in encoded.items()}
        torch.manual_seed(int(hashlib.sha256(repr(seeds).encode()).hexdigest()[:8], 16))
        with torch.no_grad():
            output = self.lm.generate(**encoded, max_new_tokens=settings.max_new_tokens,
                                      pad_token_id=self.tokenizer.pad_token_id, **self._sampling_kwargs(settings))
        prompt_len = encoded["input_ids"].shape[1]
        prompt_tokens = encoded["attention_mask"].sum(dim=1).tolist()
        eos_ids = {self.tokenizer.eos_token_id, self.tokenizer.pad_token_id} - {None}
        completions = []
        for row, n_prompt in zip(output[:, prompt_len:].tolist(), prompt_tokens):
            stop_at = next((k for k, tok in enumerate(row) if tok in eos_ids), None)
            tokens = row if stop_at is None else row[:stop_at]
            text = self.tokenizer.decode(tokens, skip_special_tokens=True)
            text, hit_stop = cut_at_stop(text, settings.stop)
            completions.append(Completion(
                text=text.strip(), finish_reason="stop" if (stop_at is not None or hit_stop) else "length",
                usage=Usage(prompt_tokens=int(n_prompt), completion_tokens=len(tokens))))
        return completions

    def score_choices(self, prompts: list[Prompt], options: list[list[str]],
                      progress: Optional[ProgressFn] = None) -> list[list[float]]:
        """Log-probability of each option after the rendered prompt (see :meth:`render`), summed over its tokens."""
        import torch

        check_options(prompts, options, self.name)

        def encode(text: str) -> list[int]:
            return self.tokenizer(text, add_special_tokens=False)["input_ids"]

        scores = []
        for prompt, choices in zip(prompts, options):
            context = self.render(prompt)
            row = []
            for option in choices:
                context_ids, option_ids = split_continuation(encode, encode, context, option)
                if not context_ids:
                    raise BackendError("hf: score_choices needs a non-empty prompt")
                ids = context_ids + option_ids
                with torch.no_grad():
                    logits = self.lm(torch.tensor([ids], device=self.device)).logits[0].float()
                logprobs = torch.log_softmax(logits[len(context_ids) - 1:-1], dim=-1)
                targets = torch.tensor(option_ids, device=logprobs.device, dtype=torch.long)
                row.append(float(logprobs.gather(1, targets[:, None]).sum()))
            scores.append(row)
            if progress:
                progress(1)
        return scores

    def close(self) -> None:
        if getattr(self, "lm", None) is not None:
            self.lm = None
            gc.collect()
            if str(self.device).startswith("cuda"):
                import torch

                torch.cuda.empty_cache()
        super().close()

