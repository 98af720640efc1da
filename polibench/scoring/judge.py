"""``judge`` scorer: a language model, through any polibench backend, asked for the stance label.

The judge sees one chat turn (:data:`PROMPT`) holding the statement, the response and the allowed labels,
and must answer with one label word. How the label and its confidence are read depends on the backend:

- ``llamacpp`` and ``hf``: no text is generated. The log-probability of each label word as the start of
  the judge's answer (summed over the word's tokens, after the chat template's assistant header) is
  computed directly, the labels are softmax-normalised over those log-probabilities, and the confidence is
  the top label's share. The judge therefore always answers, and the confidence filter is meaningful.
- any other backend (one that only returns text): greedy generation of a few tokens; the first label word
  in the reply is the label with confidence 1.0, and a reply without one is an abstention. The confidence
  filter then keeps every answered example: read its figures at threshold 0.0 only.

Defaults: the embedded SmolLM2-135M GGUF on llamacpp (``model``/``backend`` choose another one, remaining
scorer arguments go to the backend, e.g. ``n_ctx=4096``). A 135M model is a weak judge; see
docs/stance.md for its measured figures.
"""

from __future__ import annotations

import math
import re
from typing import Optional, Sequence

from polibench.scoring.base import LABELS, StanceResult, StanceScorer

PROMPT = (
    "Here is a statement and someone's response to it.\n\n"
    "Statement: {statement}\n"
    "Response: {response}\n\n"
    "Does the response agree with the statement, disagree with it, stay neutral (take no side, or refuse "
    "to give an opinion), or is it unrelated (does not address the statement)? "
    "Answer with one word: {choices}."
)


def choices_text(labels: Sequence[str]) -> str:
    return ", ".join(labels[:-1]) + " or " + labels[-1] if len(labels) > 1 else labels[0]


def first_label(text: str, labels: Sequence[str]) -> Optional[str]:
    """The first label word in a generated reply ("disagree" is not read as "agree")."""
    match = re.search(r"\b(" + "|".join(sorted(labels, key=len, reverse=True)) + r")\b", text or "", re.I)
    return match.group(1).lower() if match else None


def softmax(logprobs: dict[str, float]) -> dict[str, float]:
    top = max(logprobs.values())
    weights = {k: math.exp(v - top) for k, v in logprobs.items()}
    total = sum(weights.values())
    return {k: w / total for k, w in weights.items()}


class _LlamaCppLabelScorer:
    """Label log-probabilities from a llama-cpp-python ``Llama`` (last-token logits after each eval)."""

    def __init__(self, llm):
        import numpy as np

        self.llm, self.np = llm, np
        template = llm.metadata.get("tokenizer.chat_template")
        self.formatter = None
        if template:
            from llama_cpp.llama_chat_format import Jinja2ChatFormatter

            def token_text(token_id: int) -> str:
                return llm.detokenize([token_id], special=True).decode("utf-8", "ignore") if token_id >= 0 else ""

            self.formatter = Jinja2ChatFormatter(template=template, eos_token=token_text(llm.token_eos()),
                                                 bos_token=token_text(llm.token_bos()))

    def render(self, user: str) -> str:
        if self.formatter is None:
            return user + "\nAnswer:"
        return self.formatter(messages=[{"role": "user", "content": user}]).prompt

    def _last_logprobs(self):
        import llama_cpp

        logits = self.np.ctypeslib.as_array(llama_cpp.llama_get_logits_ith(self.llm.ctx, -1),
                                            shape=(self.llm.n_vocab(),)).astype(self.np.float64)
        top = logits.max()
        return logits - top - math.log(self.np.exp(logits - top).sum())

    def label_logprobs(self, user: str, labels: Sequence[str]) -> dict[str, float]:
        llm = self.llm
        prompt = self.render(user)
        prompt_tokens = llm.tokenize(prompt.encode("utf-8"), add_bos=self.formatter is None, special=True)
        llm.reset()
        llm.eval(prompt_tokens)
        first = self._last_logprobs()
        out = {}
        for label in labels:
            full = llm.tokenize((prompt + label).encode("utf-8"), add_bos=self.formatter is None, special=True)
            tokens = full[len(prompt_tokens):] if full[:len(prompt_tokens)] == prompt_tokens else \
                llm.tokenize(label.encode("utf-8"), add_bos=False, special=False)
            total, logprobs = 0.0, first
            for k, token in enumerate(tokens):
                total += float(logprobs[token])
                if k + 1 < len(tokens):
                    llm.n_tokens = len(prompt_tokens) + k  # drop what a previous label appended
                    llm.eval([token])
                    logprobs = self._last_logprobs()
            llm.n_tokens = len(prompt_tokens)
            out[label] = total
        return out


class _HFLabelScorer:
    """Label log-probabilities from a transformers causal LM held by the ``hf`` backend."""

    def __init__(self, backend):
        self.backend = backend

    def label_logprobs(self, user: str, labels: Sequence[str]) -> dict[str, float]:
        import torch

        from polibench.models.base import Prompt
        from polibench.records import ChatMessage

        tokenizer, lm = self.backend.tokenizer, self.backend.lm
        prompt = self.backend.render(Prompt(text=user, seed=0, messages=(ChatMessage(role="user", content=user),)))
        prompt_ids = tokenizer(prompt, add_special_tokens=False)["input_ids"]
        out = {}
        for label in labels:
            ids = tokenizer(prompt + label, add_special_tokens=False)["input_ids"]
            if ids[:len(prompt_ids)] != prompt_ids:
                ids = prompt_ids + tokenizer(label, add_special_tokens=False)["input_ids"]
            with torch.no_grad():
                logits = lm(torch.tensor([ids], device=lm.device)).logits[0].float()
            logprobs = torch.log_softmax(logits[len(prompt_ids) - 1:-1], dim=-1)
            targets = torch.tensor(ids[len(prompt_ids):], device=logprobs.device)
            out[label] = float(logprobs.gather(1, targets[:, None]).sum())
        return out


class JudgeScorer(StanceScorer):
    name = "judge"

    def __init__(self, labels: Sequence[str] = LABELS, *, model: Optional[str] = None, backend: Optional[str] = None,
                 prompt: str = PROMPT, max_new_tokens: int = 8, **model_args):
        super().__init__(labels, model=model, backend=backend, model_args=dict(model_args))
        self.model_name, self.backend_name, self.prompt = model, backend, prompt
        self.max_new_tokens, self.model_args = int(max_new_tokens), model_args
        self._backend = None
        self._label_scorer = None

    def _setup(self):
        if self._backend is None:
            from polibench.models.registry import create_backend
            from polibench.models.select import choose

            backend_name, model, embedded = choose(self.model_name, self.backend_name)
            self._backend = create_backend(backend_name, model, dict(self.model_args))
            self.options.update(backend=backend_name, model=self._backend.describe().get("model"),
                                embedded=embedded)
            if hasattr(self._backend, "llm") and type(self._backend.llm).__module__.startswith("llama_cpp"):
                self._label_scorer = _LlamaCppLabelScorer(self._backend.llm)
                self.options["confidence"] = "label log-probabilities"
            elif hasattr(self._backend, "lm") and hasattr(self._backend, "tokenizer"):
                self._label_scorer = _HFLabelScorer(self._backend)
                self.options["confidence"] = "label log-probabilities"
            else:
                self.options["confidence"] = "none (generated text; 1.0 when a label is named)"
        return self._backend

    def user_turn(self, statement: str, response: str) -> str:
        return self.prompt.format(statement=statement.strip(), response=(response or "").strip(),
                                  choices=choices_text(list(self.labels)))

    def score(self, statements: Sequence[str], responses: Sequence[str], progress=None) -> list[StanceResult]:
        backend = self._setup()
        turns = [self.user_turn(s, r) for s, r in zip(statements, responses)]
        if self._label_scorer is not None:
            results = []
            for turn in turns:
                probs = softmax(self._label_scorer.label_logprobs(turn, self.labels))
                top = max(probs, key=probs.get)
                results.append(StanceResult(top, probs[top], probs))
                if progress:
                    progress(1)
            return results
        return self._score_by_generation(backend, turns, progress)

    def _score_by_generation(self, backend, turns: list[str], progress) -> list[StanceResult]:
        from polibench.models.base import Prompt
        from polibench.records import ChatMessage, GenerationSettings

        settings = GenerationSettings(samples=1, max_new_tokens=self.max_new_tokens, temperature=0.0)
        prompts = [Prompt(text=t, seed=0, messages=(ChatMessage(role="user", content=t),)) for t in turns]
        results = []
        for completion in backend.generate(prompts, settings, progress=progress):
            label = first_label(completion.text, self.labels)
            results.append(StanceResult(label, 1.0 if label else 0.0, {label: 1.0} if label else {}))
        return results

    def close(self) -> None:
        if self._backend is not None:
            self._backend.close()
