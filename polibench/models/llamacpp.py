"""``llamacpp`` backend: llama-cpp-python running a GGUF file (install with ``pip install -e .[llamacpp]``).

Requests run one at a time, each with its own seed, so a response depends only on its prompt and seed;
each response is handed back (and cached) as soon as it exists.
The GGUF's own chat template (from its metadata) frames chat prompts.

Capabilities: ``generate`` and ``score_choices`` (incremental evaluation: the prompt once, then each option
token by token from the last-token logits). ``close()`` closes the ``Llama`` and frees its memory.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Optional

from polibench.errors import BackendError
from polibench.hashing import file_sha256
from polibench.models.base import GENERATE, SCORE_CHOICES, ProgressFn
from polibench.models.choices import check_options, split_continuation
from polibench.models.streaming import ResultFn, StreamingBackend
from polibench.records import Completion, GenerationSettings, Prompt, Usage


def default_threads() -> int:
    """All cores but one: llama.cpp's threads spin-wait on each other, so a busy core that one of them has to
    share slows every token down many times over (seen on 2-core machines running anything else)."""
    return max(1, (os.cpu_count() or 2) - 1)


class LlamaCppBackend(StreamingBackend):
    name = "llamacpp"
    capabilities = frozenset({GENERATE, SCORE_CHOICES})

    @classmethod
    def check_model(cls, model: Optional[str]) -> None:
        if not model or not Path(model).is_file():
            raise BackendError(f"llamacpp: --model must be an existing .gguf file (got '{model}')")

    def __init__(self, model: Optional[str], *, n_ctx: int = 2048, n_threads: Optional[int] = None,
                 n_gpu_layers: int = 0, batch_size: int = 1, chat_format: Optional[str] = None):
        self.check_model(model)
        try:
            from llama_cpp import Llama
        except ImportError:
            raise BackendError("llamacpp backend needs llama-cpp-python: pip install -e '.[llamacpp]'") from None
        # chat_format changes the prompt the model sees, so it is part of the identity (and the cache key)
        super().__init__(model, n_ctx=n_ctx, n_gpu_layers=n_gpu_layers,
                         **({"chat_format": chat_format} if chat_format else {}))
        self.sha256 = file_sha256(Path(model))
        self.llm = Llama(model_path=model, n_ctx=n_ctx, n_threads=n_threads or default_threads(),
                         n_gpu_layers=n_gpu_layers, chat_format=chat_format, verbose=False)
        self._formatter = None

    def describe(self) -> dict:
        return {**super().describe(), "gguf_sha256": self.sha256}

    @staticmethod
    def _sampling(settings: GenerationSettings, seed: int) -> dict:
        if settings.temperature == 0:
            return {"temperature": 0.0, "top_k": 1, "seed": seed}
        return {"temperature": settings.temperature, "top_k": settings.top_k or 0,
                "top_p": settings.top_p or 1.0, "seed": seed}

    def generate_each(self, prompts: list[Prompt], settings: GenerationSettings, on_result: ResultFn) -> None:
        """One prompt at a time, each reported (and so cached) as soon as it is generated."""
        for index, prompt in enumerate(prompts):
            common = dict(max_tokens=settings.max_new_tokens, stop=settings.stop or None,
                          **self._sampling(settings, prompt.seed))
            if prompt.messages:
                reply = self.llm.create_chat_completion(
                    messages=[m.model_dump() for m in prompt.messages], **common)
                text = reply["choices"][0]["message"]["content"] or ""
            else:
                reply = self.llm.create_completion(prompt=prompt.plain_text(), **common)
                text = reply["choices"][0]["text"]
            usage = reply.get("usage") or {}
            on_result(index, Completion(text=text.strip(), finish_reason=reply["choices"][0].get("finish_reason"),
                                        usage=Usage(prompt_tokens=usage.get("prompt_tokens"),
                                                    completion_tokens=usage.get("completion_tokens"))))

    # -- score_choices ---------------------------------------------------------------------------------

    def chat_formatter(self):
        """A formatter for the GGUF's own chat template (None when its metadata has none)."""
        if self._formatter is None:
            template = self.llm.metadata.get("tokenizer.chat_template")
            if not template:
                return None
            from llama_cpp.llama_chat_format import Jinja2ChatFormatter

            def token_text(token_id: int) -> str:
                return self.llm.detokenize([token_id], special=True).decode("utf-8", "ignore") if token_id >= 0 else ""

            self._formatter = Jinja2ChatFormatter(template=template, eos_token=token_text(self.llm.token_eos()),
                                                  bos_token=token_text(self.llm.token_bos()))
        return self._formatter

    def render(self, prompt: Prompt) -> tuple[str, bool]:
        """The text a chat prompt becomes under the GGUF's chat template (ending in the assistant header), or
        the plain text; and whether it was templated (a template writes its own BOS token)."""
        formatter = self.chat_formatter() if prompt.messages else None
        if formatter is None:
            return prompt.plain_text(), False
        return formatter(messages=[m.model_dump() for m in prompt.messages]).prompt, True

    def _last_logprobs(self):
        import llama_cpp
        import numpy as np

        logits = np.ctypeslib.as_array(llama_cpp.llama_get_logits_ith(self.llm.ctx, -1),
                                       shape=(self.llm.n_vocab(),)).astype(np.float64)
        top = logits.max()
        return logits - top - math.log(np.exp(logits - top).sum())

    def score_choices(self, prompts: list[Prompt], options: list[list[str]],
                      progress: Optional[ProgressFn] = None) -> list[list[float]]:
        """The prompt is evaluated once; each option's tokens are then evaluated one by one after it, reading
        the log-softmax of the last-token logits (the context is cut back to the prompt between options)."""
        check_options(prompts, options, self.name)
        llm = self.llm
        scores = []
        for prompt, choices in zip(prompts, options):
            context, templated = self.render(prompt)

            def encode(text: str, templated: bool = templated) -> list[int]:
                return llm.tokenize(text.encode("utf-8"), add_bos=not templated, special=True)

            def encode_option(text: str) -> list[int]:
                return llm.tokenize(text.encode("utf-8"), add_bos=False, special=False)

            context_ids = encode(context)
            llm.reset()
            llm.eval(context_ids)
            first = self._last_logprobs()
            row = []
            for option in choices:
                _, tokens = split_continuation(encode, encode_option, context, option)
                total, logprobs = 0.0, first
                for k, token in enumerate(tokens):
                    total += float(logprobs[token])
                    if k + 1 < len(tokens):
                        llm.n_tokens = len(context_ids) + k  # drop what a previous option appended
                        llm.eval([token])
                        logprobs = self._last_logprobs()
                llm.n_tokens = len(context_ids)
                row.append(total)
            scores.append(row)
            if progress:
                progress(1)
        llm.reset()
        return scores

    def close(self) -> None:
        if getattr(self, "llm", None) is not None:
            if hasattr(self.llm, "close"):
                self.llm.close()
            self.llm = None
            self._formatter = None
        super().close()
