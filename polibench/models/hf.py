"""``hf`` backend: transformers causal LMs with batched, left-padded, seeded sampling.

Loads a hub id, a local folder, or a GGUF file (``--model path/to/file.gguf`` or
``--model-args gguf_file=NAME``); transformers de-quantises a GGUF file into float weights when loading
(about 9 s for the embedded model on 2 CPU cores, the file parsed once: :mod:`polibench.models.gguf_once`;
transformers cannot save such a model, so it is not cached).

Reproducibility: transformers draws one random stream per ``generate`` call, so each batch is seeded with
a value derived from the seeds of its prompts. The same command with the same ``--batch-size`` gives the
same responses; a different batch size gives different (equally valid) samples.

``--batch-size auto`` (the default): 8 on CPU; on a GPU, the largest of 64, 32, 16, ... whose forward pass
over 1,024 tokens fits in memory (accelerate's ``find_executable_batch_size``, as lm-eval's ``auto``), found
once when the model is loaded. The size chosen is in ``describe()``, so the cache keys responses by it.

Prompt tokens: a chat template writes its own special tokens; a plain prompt gets the tokenizer's own (BOS
where it declares one), as ``llamacpp`` and ``vllm`` do (:meth:`HFBackend.encoder`). A tokenizer converted from a
GGUF gets llama.cpp's digit splitting where transformers' conversion leaves it out
(:func:`match_llama_cpp_pre_tokenizer`), so ``hf`` and ``llamacpp`` read the same token ids.

Capabilities: ``generate`` and ``score_choices`` (prompts × options batched; each prompt evaluated once).
``close()`` drops the model and empties the CUDA cache when it ran on a GPU.
"""

from __future__ import annotations

import gc
import hashlib
import json
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
from polibench.models.choices import check_options, combine_forms, expand_forms, split_continuation
from polibench.models.gguf_once import gguf_read_once
from polibench.records import Completion, GenerationSettings, Prompt, Usage

DTYPES = {"float32", "float16", "bfloat16", "auto"}
AUTO_BATCH_CPU = 8  # batched CPU generation gains little beyond this (benchmarks/bench_batching.py)
AUTO_BATCH_MAX = 64
AUTO_PROBE_TOKENS = 1024
# 1: no special tokens added to any prompt; 2: a plain prompt gets the tokenizer's own (BOS), as llamacpp and vllm,
# and a GGUF tokenizer splits digits as llama.cpp does
PROMPT_TOKENS = 2


# llama.cpp pre-tokenizers (``tokenizer.ggml.pre``) that split digits one by one before the GPT-2 regex, which
# transformers' GGUF tokenizer conversion leaves out (checked for smollm against llama.cpp on random text)
DIGIT_SPLITTING_PRE = frozenset({"smollm"})


def gguf_pre_tokenizer(path: Path) -> Optional[str]:
    """The GGUF's ``tokenizer.ggml.pre`` (the name of llama.cpp's pre-tokenizer), None when absent."""
    from gguf import GGUFReader

    field = GGUFReader(path).fields.get("tokenizer.ggml.pre")
    return bytes(field.parts[field.data[0]]).decode("utf-8") if field is not None else None


def match_llama_cpp_pre_tokenizer(tokenizer, path: Path) -> None:
    """Make a tokenizer converted from a GGUF split text as llama.cpp does: for :data:`DIGIT_SPLITTING_PRE`,
    digits one by one first (as the original SmolLM2 tokenizer does), so that ``"\n\n1"`` is ``"\n\n", "1"``
    in both backends and not ``"\n", "\n", "1"`` in transformers alone."""
    if gguf_pre_tokenizer(path) not in DIGIT_SPLITTING_PRE:
        return
    from tokenizers import pre_tokenizers

    backend = tokenizer.backend_tokenizer
    backend.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.Digits(individual_digits=True),
                                                     backend.pre_tokenizer])


DEBIAS_RECORD = "debias.json"  # what `polibench debias --method grpo` writes beside the model it saves


def debias_warnings(model: str) -> tuple[str, ...]:
    """The warning a local model folder carries in its ``debias.json``: a model fine-tuned with
    ``--allow-same-judge`` names the judge that guided it, so a run graded by that judge says so."""
    path = Path(model).expanduser() / DEBIAS_RECORD
    try:
        record = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    except (OSError, ValueError):
        return ()
    if not isinstance(record, dict) or not record.get("same_judge"):
        return ()
    guide = record.get("guidance_judge") or {}
    return (f"this model was fine-tuned by `polibench debias --method {record.get('method')}` with "
            f"--allow-same-judge, guided by the judge '{guide.get('scorer')}' {guide.get('args') or ''} that "
            f"its evaluation judge also was: a run graded by that judge grades the method with the judge it "
            f"optimised ({path})",)


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
        self.warnings = debias_warnings(model)
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
        with gguf_read_once():  # a GGUF is parsed once, not once per from_pretrained call and once here
            try:
                tokenizer = AutoTokenizer.from_pretrained(source, **kwargs)
                lm = AutoModelForCausalLM.from_pretrained(source, dtype=torch_dtype, **kwargs)
            except OSError as exc:
                raise BackendError(f"hf: could not load model '{self.model}': {exc}".splitlines()[0]) from None
            if gguf_file:
                match_llama_cpp_pre_tokenizer(tokenizer, Path(source) / gguf_file)
        tokenizer.padding_side = "left"
        if tokenizer.pad_token is None:
            tokenizer.pad_token = tokenizer.eos_token
        lm.to(self.device).eval()
        return tokenizer, lm

    def cache_identity(self) -> dict:
        # PROMPT_TOKENS: responses cached before plain prompts got their BOS were made from other tokens
        return {**super().cache_identity(), "prompt_tokens": PROMPT_TOKENS}

    def describe(self) -> dict:
        info = super().describe()
        info.update(device=self.device, batch_size=self.batch_size, dtype=self.loaded_dtype)
        if self.gguf_sha256:
            info["gguf_sha256"] = self.gguf_sha256
        return info

    def has_chat_template(self) -> bool:
        return bool(getattr(self.tokenizer, "chat_template", None))

    def templated(self, prompt: Prompt) -> bool:
        """Whether ``prompt`` is framed by the chat template (a chat prompt and a tokenizer with a template)."""
        return bool(prompt.messages) and bool(getattr(self.tokenizer, "chat_template", None))

    def render(self, prompt: Prompt) -> str:
        """Chat template when the tokenizer has one and the variant wants chat framing, else plain text."""
        if self.templated(prompt):
            messages = [m.model_dump() for m in prompt.messages]
            return self.tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
        return prompt.plain_text()

    def encoder(self, prompt: Prompt):
        """How the rendered ``prompt`` becomes token ids, with BOS where ``llamacpp`` and ``vllm`` put it: a chat
        template writes its own special tokens (nothing is added); a plain prompt gets the tokenizer's own
        (``add_special_tokens=True``: BOS for a tokenizer that declares one), as llama.cpp's ``add_bos`` and
        vLLM's text prompts do."""
        special = not self.templated(prompt)

        def encode(text: str) -> list[int]:
            return list(self.tokenizer(text, add_special_tokens=special)["input_ids"])

        return encode

    def prompt_ids(self, prompt: Prompt) -> list[int]:
        """The token ids the model reads for ``prompt`` (:meth:`render`, then :meth:`encoder`)."""
        return self.encoder(prompt)(self.render(prompt))

    def _sampling_kwargs(self, settings: GenerationSettings) -> dict:
        if settings.temperature == 0:
            return {"do_sample": False}
        return {"do_sample": True, "temperature": settings.temperature,
                "top_k": settings.top_k or 0, "top_p": settings.top_p or 1.0}

    def generate(self, prompts: list[Prompt], settings: GenerationSettings,
                 progress: Optional[ProgressFn] = None) -> list[Completion]:
        import torch

        ids = [self.prompt_ids(p) for p in prompts]
        # Longest first keeps padding low inside each batch; results go back in the caller's order.
        order = sorted(range(len(prompts)), key=lambda i: (-len(ids[i]), i))
        results: list[Optional[Completion]] = [None] * len(prompts)
        for start in range(0, len(order), self.batch_size):
            batch = order[start:start + self.batch_size]
            results_batch = self._generate_batch([ids[i] for i in batch], [prompts[i].seed for i in batch],
                                                 settings, torch)
            for i, completion in zip(batch, results_batch):
                results[i] = completion
            if progress:
                progress(len(batch))
        return results  # type: ignore[return-value]

    def _generate_batch(self, ids, seeds, settings, torch) -> list[Completion]:
        encoded = self.tokenizer.pad({"input_ids": ids}, return_tensors="pt", padding=True)
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
        """Log-probability of each option after the rendered prompt (see :meth:`render`), summed over its tokens,
        each option's surface forms combined (:func:`~polibench.models.choices.option_forms`).

        ``batch_size`` prompts at a time, prompts × options together: the prompts are evaluated once, left-padded
        in one forward pass; their key/value cache is then repeated for each option form, and every form's tokens
        are evaluated in a second pass over the whole batch (no prompt is evaluated twice)."""
        check_options(prompts, options, self.name)
        requests = [self._choice_request(prompt, choices) for prompt, choices in zip(prompts, options)]
        scores: list[Optional[list[float]]] = [None] * len(prompts)
        order = sorted(range(len(prompts)), key=lambda i: (-len(requests[i][0]), i))
        for start in range(0, len(order), self.batch_size):
            batch = order[start:start + self.batch_size]
            flat = self._score_batch([requests[i][0] for i in batch], [requests[i][1] for i in batch])
            for i, values in zip(batch, flat):
                scores[i] = combine_forms(values, requests[i][2])
            if progress:
                progress(len(batch))
        return scores  # type: ignore[return-value]

    def _choice_request(self, prompt: Prompt, choices: list[str]) -> tuple[list[int], list[list[int]], list[int]]:
        """(context ids, the token ids of every surface form of every option, forms per option)."""
        context = self.render(prompt)
        encode = self.encoder(prompt)

        def encode_option(text: str) -> list[int]:
            return list(self.tokenizer(text, add_special_tokens=False)["input_ids"])

        forms, counts = expand_forms(context, choices)
        context_ids = encode(context)
        if not context_ids:
            raise BackendError("hf: score_choices needs a non-empty prompt")
        continuations = [split_continuation(encode, encode_option, context, form)[1] for form in forms]
        if not all(continuations):
            raise BackendError(f"hf: an answer option has no tokens (options: {choices})")
        return context_ids, continuations, counts

    @property
    def _cache_argument(self) -> str:
        """The name under which the model's forward takes a KV cache (transformers 5 renamed it ``cache``)."""
        import inspect

        return "cache" if "cache" in inspect.signature(self.lm.forward).parameters else "past_key_values"

    def _score_batch(self, contexts: list[list[int]], continuations: list[list[list[int]]]) -> list[list[float]]:
        """Per context, the summed log-probability of each of its continuations (two forward passes)."""
        import torch

        pad = self.tokenizer.pad_token_id if self.tokenizer.pad_token_id is not None else 0
        width = max(len(c) for c in contexts)
        ids = torch.tensor([[pad] * (width - len(c)) + c for c in contexts], device=self.device)
        mask = torch.tensor([[0] * (width - len(c)) + [1] * len(c) for c in contexts], device=self.device)
        with torch.no_grad():
            out = self.lm(input_ids=ids, attention_mask=mask, position_ids=(mask.cumsum(-1) - 1).clamp(min=0),
                          use_cache=True, logits_to_keep=1)
            first = torch.log_softmax(out.logits[:, -1].float(), dim=-1)  # the next token after each context
            rows = [(b, tokens) for b, conts in enumerate(continuations) for tokens in conts]
            totals = [float(first[b, tokens[0]]) for b, tokens in rows]
            rest = max(len(tokens) for _, tokens in rows) - 1  # tokens fed in the second pass: all but the last
            if rest > 0:
                owner = torch.tensor([b for b, _ in rows], device=self.device)
                cache = getattr(out, "cache", None) or out.past_key_values
                cache.reorder_cache(owner)  # each context's keys and values, once per continuation
                gaps = [rest + 1 - len(tokens) for _, tokens in rows]  # right padding of each continuation
                feed = torch.tensor([tokens[:-1] + [pad] * gap for (_, tokens), gap in zip(rows, gaps)],
                                    device=self.device)
                feed_mask = torch.tensor([[1] * (len(tokens) - 1) + [0] * gap for (_, tokens), gap in zip(rows, gaps)],
                                         device=self.device)
                positions = mask.sum(-1)[owner][:, None] + torch.arange(rest, device=self.device)[None, :]
                logits = self.lm(input_ids=feed, attention_mask=torch.cat([mask[owner], feed_mask], dim=1),
                                 position_ids=positions, use_cache=True, **{self._cache_argument: cache}).logits
                logprobs = torch.log_softmax(logits.float(), dim=-1)
                for r, (_, tokens) in enumerate(rows):
                    if len(tokens) > 1:
                        targets = torch.tensor(tokens[1:], device=logprobs.device)
                        totals[r] += float(logprobs[r, :len(tokens) - 1].gather(1, targets[:, None]).sum())
        out_rows, at = [], 0
        for conts in continuations:
            out_rows.append(totals[at:at + len(conts)])
            at += len(conts)
        return out_rows

    def close(self) -> None:
        if getattr(self, "lm", None) is not None:
            self.lm = None
            gc.collect()
            if str(self.device).startswith("cuda"):
                import torch

                torch.cuda.empty_cache()
        super().close()

