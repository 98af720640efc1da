"""``llamacpp`` backend: llama-cpp-python running a GGUF file (install with ``pip install -e .[llamacpp]``).

Generation decodes up to ``batch_size`` sequences together (:mod:`polibench.models.llamacpp_batch`): the
samples of one statement share one evaluation of their prompt, and each sequence samples with its own seed.
Each response is handed back (and cached) as soon as its sequence ends. The GGUF's own chat template (from
its metadata) frames chat prompts.

What decides a response (so what the cache and the leaderboard key it by, see :meth:`describe`): the GGUF's
SHA-256, the prompt, the seed, the batch size, :data:`DECODER_REVISION`, llama-cpp-python's version and the
CPU features the llama.cpp build uses (``llama_print_system_info``). docs/records.md says what is
bit-identical and when.

Capabilities: ``generate`` and ``score_choices`` (the prompt evaluated once, its options as parallel sequences
sharing its KV cells, in the batch decoder's context). ``close()`` closes the ``Llama`` and frees its memory.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

from polibench.errors import BackendError
from polibench.hashing import file_sha256
from polibench.models.base import GENERATE, SCORE_CHOICES, ProgressFn, cut_at_stop, parse_batch_size
from polibench.models.choices import check_options, combine_forms, expand_forms, split_continuation
from polibench.models.llamacpp_batch import BatchDecoder, DecodeSequence
from polibench.models.streaming import ResultFn, StreamingBackend
from polibench.records import Completion, GenerationSettings, Prompt, Usage

# 1: one request at a time through llama-cpp-python's create_completion (which reused the previous
#    request's prompt prefix, so a response depended on the request before it);
# 2: the batched decoder, every prompt evaluated afresh.
# Bump it whenever a change to this backend changes the responses for the same prompt and seed.
DECODER_REVISION = 2
AUTO_BATCH = 16  # sequences decoded together with --batch-size auto (CPU: most of the gain, see docs/backends.md)


def default_threads(load: Optional[float] = None) -> int:
    """Every core this process may use, or one when the machine is already busy: a load average (``load``, else
    the last minute's) at least the number of cores. llama.cpp's threads spin-wait on each other, and on a busy
    machine a descheduled thread stalls the others: the embedded model's quick look made no progress in 12
    minutes with two threads at a load average of 22 on 2 cores (docs/backends.md). Responses do not depend on
    the thread count (docs/records.md); ``--model-args n_threads=N`` chooses."""
    try:
        cores = max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # macOS, Windows
        cores = max(1, os.cpu_count() or 1)
    if load is None:
        try:
            load = os.getloadavg()[0]
        except (AttributeError, OSError):  # Windows
            load = 0.0
    return 1 if cores > 1 and load >= cores else cores


def llama_cpp_version() -> str:
    import llama_cpp

    return str(getattr(llama_cpp, "__version__", "unknown"))


def build_features() -> str:
    """The CPU features this llama.cpp build computes with (``AVX2 = 1 | FMA = 1 | ...``): a build compiled
    for another CPU (``GGML_NATIVE``) or with other flags can give other responses."""
    import llama_cpp

    info = llama_cpp.llama_print_system_info().decode("utf-8", "replace")
    parts = (part.split(":")[-1].strip() for part in info.split("|"))
    return " | ".join(part for part in parts if part.endswith("= 1"))


def named_chat_formatter(name: str):
    """llama-cpp-python's chat formatter registered as ``name`` (``chatml``, ``llama-2``, ...): the
    function its chat-completion handler wraps."""
    from llama_cpp.llama_chat_format import (
        LlamaChatCompletionHandlerNotFoundException,
        LlamaChatCompletionHandlerRegistry,
    )

    try:
        handler = LlamaChatCompletionHandlerRegistry().get_chat_completion_handler_by_name(name)
    except LlamaChatCompletionHandlerNotFoundException:
        handler = None
    cells = dict(zip(getattr(handler, "__code__", None).co_freevars, handler.__closure__ or ())) if handler else {}
    if "chat_formatter" not in cells:
        raise BackendError(f"llamacpp: chat_format '{name}' is not a chat format of llama-cpp-python")
    return cells["chat_formatter"].cell_contents


class LlamaCppBackend(StreamingBackend):
    name = "llamacpp"
    capabilities = frozenset({GENERATE, SCORE_CHOICES})

    @classmethod
    def check_model(cls, model: Optional[str]) -> None:
        if not model or not Path(model).is_file():
            raise BackendError(f"llamacpp: --model must be an existing .gguf file (got '{model}')")

    def __init__(self, model: Optional[str], *, n_ctx: int = 2048, n_threads: Optional[int] = None,
                 n_gpu_layers: int = 0, batch_size: int | str = "auto", chat_format: Optional[str] = None):
        self.check_model(model)
        try:
            from llama_cpp import Llama
        except ImportError:
            raise BackendError("llamacpp backend needs llama-cpp-python: pip install -e '.[llamacpp]'") from None
        # chat_format changes the prompt the model sees, so it is part of the identity (and the cache key)
        super().__init__(model, n_ctx=n_ctx, n_gpu_layers=n_gpu_layers,
                         **({"chat_format": chat_format} if chat_format else {}))
        self.batch_size = parse_batch_size(batch_size, self.name) or AUTO_BATCH
        self.chunk_size = max(type(self).chunk_size, self.batch_size)
        self.n_ctx, self.n_threads = n_ctx, n_threads or default_threads()
        self.sha256 = file_sha256(Path(model))
        self.llm = Llama(model_path=model, n_ctx=n_ctx, n_threads=self.n_threads,
                         n_gpu_layers=n_gpu_layers, chat_format=chat_format, verbose=False)
        self._formatter = None
        self.chat_format = chat_format
        self._decoder: Optional[BatchDecoder] = None

    def describe(self) -> dict:
        return {**super().describe(), "gguf_sha256": self.sha256, "batch_size": self.batch_size,
                "decoder_revision": DECODER_REVISION, "llama_cpp_python": llama_cpp_version(),
                "build": build_features()}

    def _decoder_for(self, n_ctx_seq: int) -> BatchDecoder:
        """The batch decoder, (re)made when the sequences need more context than it holds."""
        if self._decoder is None or self._decoder.n_ctx_seq < n_ctx_seq:
            if self._decoder is not None:
                self._decoder.close()
            self._decoder = BatchDecoder(self.llm, self.batch_size, n_ctx_seq, self.n_threads)
        return self._decoder

    def generate_each(self, prompts: list[Prompt], settings: GenerationSettings, on_result: ResultFn) -> None:
        """``batch_size`` prompts at a time, in the order given (the samples of a statement are adjacent, so
        they share one prompt evaluation); each completion is reported as soon as its sequence ends."""
        llm = self.llm
        sequences, stops = [], [stop for stop in settings.stop if stop]
        for index, prompt in enumerate(prompts):
            text, templated, chat_stops = self.render_with_stops(prompt)
            stops += [stop for stop in chat_stops if stop not in stops]
            tokens = llm.tokenize(text.encode("utf-8"), add_bos=not templated, special=True)
            sequences.append(DecodeSequence(index=index, prompt=tokens, seed=prompt.seed,
                                            max_tokens=settings.max_new_tokens))
        if not sequences:
            return
        longest = max(len(seq.prompt) for seq in sequences) + settings.max_new_tokens
        if longest > self.n_ctx:
            raise BackendError(f"llamacpp: a prompt of {longest - settings.max_new_tokens} tokens plus "
                               f"{settings.max_new_tokens} new tokens does not fit n_ctx={self.n_ctx}; "
                               "raise it with --model-args n_ctx=...")
        decoder = self._decoder_for(min(self.n_ctx, longest))

        def text_of(seq: DecodeSequence) -> str:
            return llm.detokenize(seq.tokens, prev_tokens=seq.prompt).decode("utf-8", "ignore")

        def stop_check(seq: DecodeSequence) -> bool:
            return bool(stops) and cut_at_stop(text_of(seq), stops)[1]

        def done(seq: DecodeSequence) -> None:
            text, _ = cut_at_stop(text_of(seq), stops)
            on_result(seq.index, Completion(text=text.strip(), finish_reason=seq.finish_reason,
                                            usage=Usage(prompt_tokens=len(seq.prompt),
                                                        completion_tokens=len(seq.tokens))))

        top_k = settings.top_k or 0
        top_p = settings.top_p or 1.0
        for start in range(0, len(sequences), self.batch_size):
            decoder.decode(sequences[start:start + self.batch_size], settings.temperature, top_k, top_p,
                           stop_check, done)

    # -- score_choices ---------------------------------------------------------------------------------

    def chat_formatter(self):
        """The formatter for ``chat_format`` when one was given, else for the GGUF's own chat template (None
        when its metadata has none)."""
        if self._formatter is None:
            if self.chat_format:
                self._formatter = named_chat_formatter(self.chat_format)
                return self._formatter
            template = self.llm.metadata.get("tokenizer.chat_template")
            if not template:
                return None
            from llama_cpp.llama_chat_format import Jinja2ChatFormatter

            def token_text(token_id: int) -> str:
                return self.llm.detokenize([token_id], special=True).decode("utf-8", "ignore") if token_id >= 0 else ""

            self._formatter = Jinja2ChatFormatter(template=template, eos_token=token_text(self.llm.token_eos()),
                                                  bos_token=token_text(self.llm.token_bos()))
        return self._formatter

    def has_chat_template(self) -> bool:
        """A ``chat_format`` was given or the GGUF carries a chat template."""
        return self.chat_formatter() is not None

    def render(self, prompt: Prompt) -> tuple[str, bool]:
        """The text a chat prompt becomes under the chat template (ending in the assistant header), or the
        plain text; and whether it was templated (a template writes its own BOS token)."""
        text, templated, _ = self.render_with_stops(prompt)
        return text, templated

    def encoder(self, prompt: Prompt):
        """How the rendered ``prompt`` becomes token ids: a chat template writes its own special tokens; a plain
        prompt gets BOS where the GGUF declares it (``tokenizer.ggml.add_bos_token``)."""
        templated = self.render(prompt)[1]

        def encode(text: str) -> list[int]:
            return self.llm.tokenize(text.encode("utf-8"), add_bos=not templated, special=True)

        return encode

    def prompt_ids(self, prompt: Prompt) -> list[int]:
        """The token ids the model reads for ``prompt`` (:meth:`render`, then :meth:`encoder`)."""
        return self.encoder(prompt)(self.render(prompt)[0])

    def render_with_stops(self, prompt: Prompt) -> tuple[str, bool, list[str]]:
        """:meth:`render`, plus the stop strings the chat format declares (its end-of-turn marker)."""
        formatter = self.chat_formatter() if prompt.messages else None
        if formatter is None:
            return prompt.plain_text(), False, []
        result = formatter(messages=[m.model_dump() for m in prompt.messages])
        stops = [result.stop] if isinstance(result.stop, str) else list(result.stop or [])
        templated = bool(getattr(result, "added_special", False)) or not self.chat_format
        return result.prompt, templated, [stop for stop in stops if stop]

    def score_choices(self, prompts: list[Prompt], options: list[list[str]],
                      progress: Optional[ProgressFn] = None) -> list[list[float]]:
        """Per prompt, the prompt is evaluated once and the surface forms of its options
        (:func:`~polibench.models.choices.option_forms`) as parallel sequences sharing its KV cells
        (:meth:`BatchDecoder.score <polibench.models.llamacpp_batch.BatchDecoder.score>`); each option's
        forms are combined by logsumexp."""
        check_options(prompts, options, self.name)
        llm = self.llm
        scores = []
        for prompt, choices in zip(prompts, options):
            context = self.render(prompt)[0]
            encode = self.encoder(prompt)

            def encode_option(text: str) -> list[int]:
                return llm.tokenize(text.encode("utf-8"), add_bos=False, special=False)

            forms, counts = expand_forms(context, choices)
            context_ids = encode(context)
            continuations = [split_continuation(encode, encode_option, context, form)[1] for form in forms]
            if not context_ids or not all(continuations):
                raise BackendError(f"llamacpp: score_choices needs a non-empty prompt and options (got {choices})")
            longest = len(context_ids) + max(len(tokens) for tokens in continuations)
            if longest > self.n_ctx:
                raise BackendError(f"llamacpp: a prompt and option of {longest} tokens do not fit n_ctx={self.n_ctx}; "
                                   "raise it with --model-args n_ctx=...")
            decoder = self._decoder_for(longest)
            values: list[float] = []
            for start in range(0, len(continuations), decoder.n_seq):
                values += decoder.score(context_ids, continuations[start:start + decoder.n_seq])
            scores.append(combine_forms(values, counts))
            if progress:
                progress(1)
        return scores

    def close(self) -> None:
        if getattr(self, "_decoder", None) is not None:
            self._decoder.close()
            self._decoder = None
        if getattr(self, "llm", None) is not None:
            if hasattr(self.llm, "close"):
                self.llm.close()
            self.llm = None
            self._formatter = None
        super().close()
