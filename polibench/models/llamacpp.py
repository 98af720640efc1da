"""``llamacpp`` backend: llama-cpp-python running a GGUF file (install with ``pip install -e .[llamacpp]``).

Requests run one at a time, each with its own seed, so a response depends only on its prompt and seed;
each response is handed back (and cached) as soon as it exists.
The GGUF's own chat template (from its metadata) frames chat prompts.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

from polibench.errors import BackendError
from polibench.hashing import file_sha256
from polibench.models.base import Completion, Prompt
from polibench.models.streaming import ResultFn, StreamingBackend
from polibench.records import GenerationSettings, Usage


def default_threads() -> int:
    """All cores but one: llama.cpp's threads spin-wait on each other, so a busy core that one of them has to
    share slows every token down many times over (seen on 2-core machines running anything else)."""
    return max(1, (os.cpu_count() or 2) - 1)


class LlamaCppBackend(StreamingBackend):
    name = "llamacpp"

    def __init__(self, model: Optional[str], *, n_ctx: int = 2048, n_threads: Optional[int] = None,
                 n_gpu_layers: int = 0, batch_size: int = 1, chat_format: Optional[str] = None):
        if not model or not Path(model).is_file():
            raise BackendError(f"llamacpp: --model must be an existing .gguf file (got '{model}')")
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

    def close(self) -> None:
        self.llm.close() if hasattr(self.llm, "close") else None
