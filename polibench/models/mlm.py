"""``mlm`` backend: Feng et al.'s probe for encoder (masked) language models such as BERT and RoBERTa.

The prompt (task ``pct-mlm``) ends in "I <mask> with this statement."; the ``<mask>`` placeholder is
replaced by the model's own mask token (``[MASK]`` for BERT, ``<mask>`` for RoBERTa), and the model fills
it. The completion's ``mask_fills`` holds the top-k fills with their probabilities
(:class:`~polibench.records.TokenProb`); its text lists them for people reading ``samples.jsonl``
(``agree 0.410, support 0.120, ...``; no program reads it). The ``mask_lexicon`` scorer turns the fills
into agree/disagree with Feng et al.'s lexicons. Runs made before ``mask_fills`` existed carried the fills
as JSON in the response text; reading such a ``samples.jsonl`` fills the field from it (see
:func:`polibench.records.legacy_mask_fills`). k is the task's
``generation.top_k`` (10 in ``pct-mlm``, as the paper), else ``top_k_tokens``. Filling a mask is
deterministic: seeds and temperature do not apply. The model loads on the first request.
"""

from __future__ import annotations

import gc
from typing import Optional

from polibench.devices import pick_device
from polibench.errors import BackendError
from polibench.models.base import ModelBackend, ProgressFn, check_local_model, parse_batch_size
from polibench.models.identity import model_fingerprint
from polibench.records import Completion, GenerationSettings, Prompt, TokenProb, Usage

PLACEHOLDER = "<mask>"
DTYPES = {"float32", "float16", "bfloat16", "auto"}
AUTO_BATCH = 8  # masked-fill batches with --batch-size auto


def fills_text(fills: list[TokenProb]) -> str:
    """The human-readable response of a masked LM: its top fills and their probabilities."""
    return ", ".join(f"{f.token or repr(f.token)} {f.prob:.3f}" for f in fills)


class MaskedLMBackend(ModelBackend):
    name = "mlm"

    @classmethod
    def check_model(cls, model: Optional[str]) -> None:
        check_local_model(cls.name, model)

    def __init__(self, model: Optional[str], *, device: str = "auto", dtype: str = "auto",
                 revision: Optional[str] = None, trust_remote_code: bool = False, batch_size: int | str = "auto",
                 top_k_tokens: int = 10):
        if not model:
            raise BackendError("the mlm backend needs --model (a masked LM: hub id such as bert-base-uncased, "
                               "or a local folder)")
        if dtype not in DTYPES:
            raise BackendError(f"mlm: dtype must be one of {sorted(DTYPES)} (got '{dtype}')")
        if int(top_k_tokens) < 1:
            raise BackendError("mlm: top_k_tokens must be >= 1")
        super().__init__(model, device=device, dtype=dtype, revision=revision, trust_remote_code=trust_remote_code,
                         top_k_tokens=int(top_k_tokens))
        self.batch_size = parse_batch_size(batch_size, self.name) or AUTO_BATCH
        self.top_k_tokens = int(top_k_tokens)
        self._loaded = None

    def cache_identity(self) -> dict:
        args = self.model_args
        identity = {"backend": self.name, "model": self.model, "revision": args["revision"] or "main",
                    "dtype": args["dtype"], "device": args["device"]}
        fingerprint = model_fingerprint(self.model)
        if fingerprint:
            identity["folder_sha256"] = fingerprint
        return identity

    def _load(self):
        if self._loaded is None:
            import torch
            from transformers import AutoModelForMaskedLM, AutoTokenizer

            args = self.model_args
            kwargs = {"revision": args["revision"], "trust_remote_code": args["trust_remote_code"]}
            dtype = "auto" if args["dtype"] == "auto" else getattr(torch, args["dtype"])
            try:
                tokenizer = AutoTokenizer.from_pretrained(self.model, **kwargs)
                lm = AutoModelForMaskedLM.from_pretrained(self.model, dtype=dtype, **kwargs)
            except (OSError, ValueError) as exc:
                raise BackendError(f"mlm: could not load masked LM '{self.model}': {exc}".splitlines()[0]) from None
            if tokenizer.mask_token is None:
                raise BackendError(f"mlm: the tokenizer of '{self.model}' has no mask token (not a masked LM?)")
            device = pick_device(args["device"])
            lm.to(device).eval()
            self._loaded = (tokenizer, lm, device)
        return self._loaded

    def describe(self) -> dict:
        return {**super().describe(), "batch_size": self.batch_size}

    def masked_text(self, prompt: Prompt, mask_token: str) -> str:
        text = prompt.plain_text()
        if text.count(PLACEHOLDER) != 1:
            raise BackendError(f"mlm: each prompt needs exactly one '{PLACEHOLDER}' slot for the model to fill "
                               "(use the pct-mlm task or a variant like tasks/variants/feng_mlm.yaml)")
        return text.replace(PLACEHOLDER, mask_token)

    def generate(self, prompts: list[Prompt], settings: GenerationSettings,
                 progress: Optional[ProgressFn] = None) -> list[Completion]:
        import torch

        tokenizer, lm, device = self._load()
        k = settings.top_k or self.top_k_tokens
        texts = [self.masked_text(p, tokenizer.mask_token) for p in prompts]
        out: list[Completion] = []
        for start in range(0, len(texts), self.batch_size):
            batch = texts[start:start + self.batch_size]
            encoded = tokenizer(batch, return_tensors="pt", padding=True)
            encoded = {name: tensor.to(device) for name, tensor in encoded.items()}
            with torch.no_grad():
                logits = lm(**encoded).logits
            rows, cols = (encoded["input_ids"] == tokenizer.mask_token_id).nonzero(as_tuple=True)
            if len(rows) != len(batch):
                raise BackendError("mlm: the mask token did not survive tokenization in every prompt")
            probs = torch.softmax(logits[rows, cols].float(), dim=-1)
            top = torch.topk(probs, k=min(k, probs.shape[-1]), dim=-1)
            lengths = encoded["attention_mask"].sum(dim=1).tolist()
            for values, ids, n_tokens in zip(top.values.tolist(), top.indices.tolist(), lengths):
                fills = [TokenProb(token=tokenizer.decode([i]).strip(), prob=round(p, 6)) for i, p in zip(ids, values)]
                out.append(Completion(text=fills_text(fills), finish_reason="mask_filled", mask_fills=fills,
                                      usage=Usage(prompt_tokens=int(n_tokens), completion_tokens=1)))
            if progress:
                progress(len(batch))
        return out

    def close(self) -> None:
        if self._loaded is not None:
            device = self._loaded[2]
            self._loaded = None
            gc.collect()
            if str(device).startswith("cuda"):
                import torch

                torch.cuda.empty_cache()
        super().close()
