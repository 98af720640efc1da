"""Several sequences decoded together in one llama.cpp context (the ``llamacpp`` backend's batched path).

llama.cpp keeps one KV cache for many sequences (``n_seq_max``); each decoding step evaluates the next token
of every unfinished sequence in one ``llama_decode`` call, so the weights are read once per step for all of
them instead of once per sequence. Prompts that are the same text (the samples of one statement) are
evaluated once and their KV cells copied to the other sequences.

What a seed means is kept: every sequence has its own sampler chain, seeded with its prompt's seed and built
as llama-cpp-python builds it for ``create_completion`` (top-k, top-p, min-p 0.05, temperature, then a draw),
so a sequence's tokens depend only on its prompt, its seed and the logits. Every sequence's prompt is
evaluated afresh (no reuse of a previous request's prefix), so a response does not depend on which request
came before it, as it does in llama-cpp-python's one-at-a-time path.

:meth:`BatchDecoder.score` uses the same context for ``score_choices``: a prompt evaluated once, its answer
options evaluated as parallel sequences that share its KV cells.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence

from polibench.errors import BackendError

MIN_P = 0.05  # llama-cpp-python's create_completion default, kept so a seed means what it meant before


@dataclass
class DecodeSequence:
    """One sequence being decoded: its prompt tokens, sampler and what it has produced."""

    index: int
    prompt: list[int]
    seed: int
    max_tokens: int
    tokens: list[int] = field(default_factory=list)
    finish_reason: Optional[str] = None
    logits_at: int = -1  # row of the last decode's logits that belongs to this sequence
    sampler: object = None


def sampler_chain(llama_cpp, temperature: float, top_k: int, top_p: float, seed: int):
    """The sampler chain llama-cpp-python's ``_init_sampler`` builds for these settings (no-op stages left
    out: repetition penalty 1.0 and typical-p 1.0 change nothing)."""
    chain = llama_cpp.llama_sampler_chain_init(llama_cpp.llama_sampler_chain_default_params())
    if temperature == 0:
        llama_cpp.llama_sampler_chain_add(chain, llama_cpp.llama_sampler_init_greedy())
        return chain
    for stage in (llama_cpp.llama_sampler_init_top_k(top_k), llama_cpp.llama_sampler_init_top_p(top_p, 1),
                  llama_cpp.llama_sampler_init_min_p(MIN_P, 1), llama_cpp.llama_sampler_init_temp(temperature),
                  llama_cpp.llama_sampler_init_dist(seed & 0xFFFFFFFF)):
        llama_cpp.llama_sampler_chain_add(chain, stage)
    return chain


class BatchDecoder:
    """A second llama.cpp context on an already loaded model, sized for ``n_seq`` sequences of ``n_ctx_seq``
    tokens each; :meth:`decode` runs one group of sequences to completion."""

    def __init__(self, llm, n_seq: int, n_ctx_seq: int, n_threads: int):
        import llama_cpp

        n_ctx_seq = -(-n_ctx_seq // 256) * 256  # llama.cpp pads contexts to 256 cells
        self.lib, self.llm, self.n_seq, self.n_ctx_seq = llama_cpp, llm, n_seq, n_ctx_seq
        # the loaded Llama's own settings (attention kernel, KV types, ...), so that one sequence decodes
        # exactly as llama-cpp-python's own context would; only the sizes change
        params = llama_cpp.llama_context_params.from_buffer_copy(llm.context_params)
        params.n_ctx = n_seq * n_ctx_seq
        params.n_batch = max(512, n_seq)
        params.n_ubatch = max(512, n_seq)
        params.n_seq_max = n_seq
        params.kv_unified = False  # one KV stream per sequence: attention reads only its own cells
        params.n_threads = params.n_threads_batch = n_threads
        self.ctx = llama_cpp.llama_init_from_model(llm.model, params)
        if not self.ctx:
            raise BackendError(f"llamacpp: could not create a context for {n_seq} sequences of {n_ctx_seq} tokens")
        self.vocab = llama_cpp.llama_model_get_vocab(llm.model)
        self.n_vocab = llm.n_vocab()
        self.batch = llama_cpp.llama_batch_init(params.n_batch, 0, n_seq)
        self.capacity = params.n_batch

    # -- a llama_batch filled from Python ---------------------------------------------------------------

    def _fill(self, entries: Sequence[tuple[int, int, Sequence[int], bool]]) -> None:
        """entries: (token, position, sequence ids, wants logits)."""
        batch = self.batch
        for i, (token, pos, seq_ids, logits) in enumerate(entries):
            batch.token[i] = token
            batch.pos[i] = pos
            batch.n_seq_id[i] = len(seq_ids)
            for k, seq in enumerate(seq_ids):
                batch.seq_id[i][k] = seq
            batch.logits[i] = logits
        batch.n_tokens = len(entries)
        status = self.lib.llama_decode(self.ctx, batch)
        if status != 0:
            raise BackendError(f"llamacpp: llama_decode failed with status {status} (context too small?)")

    def _prefill(self, sequences: list[DecodeSequence]) -> None:
        """Each distinct prompt evaluated once, in chunks that fit the batch; its KV cells copied to every
        sequence with the same prompt; each sequence's logits row noted."""
        memory = self.lib.llama_get_memory(self.ctx)
        groups: dict[tuple[int, ...], list[int]] = {}
        for slot, seq in enumerate(sequences):
            groups.setdefault(tuple(seq.prompt), []).append(slot)
        for prompt, slots in groups.items():
            owner = slots[0]
            for start in range(0, len(prompt), self.capacity):
                chunk = prompt[start:start + self.capacity]
                last = start + len(chunk) == len(prompt)
                self._fill([(token, start + k, (owner,), last and k == len(chunk) - 1)
                            for k, token in enumerate(chunk)])
            for slot in slots[1:]:
                self.lib.llama_memory_seq_cp(memory, owner, slot, -1, -1)
            # the logits of the owner's last prompt token serve every sequence of this prompt: sample each
            # now, before the next prompt's decode overwrites them
            for slot in slots:
                self._sample(sequences[slot], -1)

    def _sample(self, seq: DecodeSequence, row: int) -> None:
        token = self.lib.llama_sampler_sample(seq.sampler, self.ctx, row)
        if self.lib.llama_vocab_is_eog(self.vocab, token):
            seq.finish_reason = "stop"
            return
        seq.tokens.append(token)
        if len(seq.tokens) >= seq.max_tokens:
            seq.finish_reason = "length"

    @staticmethod
    def _goes_on(seq: DecodeSequence, stop_check: Callable[[DecodeSequence], bool],
                 on_done: Callable[[DecodeSequence], None]) -> bool:
        """After a token was sampled: whether ``seq`` continues; a sequence that ended (EOS, length, or a stop
        string found now) is handed to ``on_done`` at once."""
        if seq.finish_reason is None and stop_check(seq):
            seq.finish_reason = "stop"
        if seq.finish_reason is None:
            return True
        on_done(seq)
        return False

    def decode(self, sequences: list[DecodeSequence], temperature: float, top_k: int, top_p: float,
               stop_check: Callable[[DecodeSequence], bool], on_done: Callable[[DecodeSequence], None]) -> None:
        """Decode ``sequences`` (at most ``n_seq``) until each ends (EOS, ``max_tokens`` or a stop string
        found by ``stop_check``), calling ``on_done`` for each as soon as it ends."""
        if len(sequences) > self.n_seq:
            raise ValueError(f"{len(sequences)} sequences for a decoder of {self.n_seq}")
        self.lib.llama_memory_clear(self.lib.llama_get_memory(self.ctx), True)
        for seq in sequences:
            seq.sampler = sampler_chain(self.lib, temperature, top_k, top_p, seq.seed)
        try:
            self._prefill(sequences)
            active = [slot for slot, seq in enumerate(sequences) if self._goes_on(seq, stop_check, on_done)]
            while active:
                self._fill([(sequences[slot].tokens[-1], len(sequences[slot].prompt) + len(sequences[slot].tokens) - 1,
                             (slot,), True) for slot in active])
                for row, slot in enumerate(active):
                    self._sample(sequences[slot], row)
                active = [slot for slot in active if self._goes_on(sequences[slot], stop_check, on_done)]
        finally:
            for seq in sequences:
                if seq.sampler is not None:
                    self.lib.llama_sampler_free(seq.sampler)
                    seq.sampler = None

    # -- log-probabilities of given continuations (score_choices) ----------------------------------------

    def _logprob(self, row: int, token: int) -> float:
        """``log softmax(logits of batch row)[token]``."""
        import numpy as np

        logits = np.ctypeslib.as_array(self.lib.llama_get_logits_ith(self.ctx, row),
                                       shape=(self.n_vocab,)).astype(np.float64)
        top = logits.max()
        return float(logits[token] - top - np.log(np.exp(logits - top).sum()))

    def score(self, prompt: Sequence[int], continuations: Sequence[Sequence[int]]) -> list[float]:
        """The summed log-probability of each continuation (at most ``n_seq``, none empty) after ``prompt``.

        The prompt is evaluated once, in sequence 0; its KV cells are copied to one sequence per continuation,
        and the continuations' tokens (all but each one's last, whose probability the token before gives) are
        evaluated side by side in one ``llama_decode`` call (more when they exceed the batch)."""
        if len(continuations) > self.n_seq:
            raise ValueError(f"{len(continuations)} continuations for a decoder of {self.n_seq} sequences")
        memory = self.lib.llama_get_memory(self.ctx)
        self.lib.llama_memory_clear(memory, True)
        for start in range(0, len(prompt), self.capacity):
            chunk = prompt[start:start + self.capacity]
            last = start + len(chunk) == len(prompt)
            self._fill([(token, start + k, (0,), last and k == len(chunk) - 1) for k, token in enumerate(chunk)])
        totals = [self._logprob(-1, tokens[0]) for tokens in continuations]
        for slot in range(1, len(continuations)):
            self.lib.llama_memory_seq_cp(memory, 0, slot, -1, -1)
        # (token, position, sequence) of every fed token, and (continuation, the token it predicts)
        entries = [((token, len(prompt) + k, (slot,), True), (slot, tokens[k + 1]))
                   for slot, tokens in enumerate(continuations) for k, token in enumerate(tokens[:-1])]
        for start in range(0, len(entries), self.capacity):
            chunk = entries[start:start + self.capacity]
            self._fill([entry for entry, _ in chunk])
            for row, (_, (slot, target)) in enumerate(chunk):
                totals[slot] += self._logprob(row, target)
        return totals

    def close(self) -> None:
        if getattr(self, "ctx", None):
            self.lib.llama_batch_free(self.batch)
            self.lib.llama_free(self.ctx)
            self.ctx = None
