"""``judge`` scorer: a language model, through any polibench backend, asked for the stance label.

The judge sees one chat turn (:data:`PROMPT`) holding the statement, the response and the allowed labels,
and must answer with one label word. The judge uses only the backend contract
(:class:`~polibench.models.base.ModelBackend`); how the label and its confidence are read depends on the
backend's declared capabilities:

- ``score_choices`` (``llamacpp``, ``hf``, ``vllm``): no text is generated. The log-probability of each
  label word as the start of the judge's answer (summed over the word's tokens, after the chat template's
  assistant header) comes from ``backend.score_choices``, the labels are softmax-normalised over those
  log-probabilities, and the confidence is the top label's share. The judge therefore always answers, and
  the confidence filter is meaningful.
- only ``generate`` (any other backend): greedy generation of a few tokens; the first label word in the
  reply is the label with confidence 1.0, and a reply without one is an abstention. The confidence filter
  then keeps every answered example: read its figures at threshold 0.0 only.

Defaults: the embedded SmolLM2-135M GGUF on llamacpp (``model``/``backend`` choose another one, remaining
scorer arguments go to the backend, e.g. ``n_ctx=4096``). A 135M model is a weak judge; see
docs/stance.md for its measured figures.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Callable, Optional, Sequence

from polibench.errors import PolibenchError
from polibench.models.base import SCORE_CHOICES, ModelBackend
from polibench.models.registry import check_backend_args, create_backend
from polibench.models.select import choose
from polibench.records import ChatMessage, GenerationSettings, Prompt
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


class JudgeScorer(StanceScorer):
    name = "judge"

    def __init__(self, labels: Sequence[str] = LABELS, *, model: Optional[str] = None, backend: Optional[str] = None,
                 prompt: str = PROMPT, max_new_tokens: int = 8, **model_args):
        super().__init__(labels, model=model, backend=backend, model_args=dict(model_args))
        self.model_name, self.backend_name, self.prompt = model, backend, prompt
        self.max_new_tokens, self.model_args = int(max_new_tokens), model_args
        self._backend: Optional[ModelBackend] = None

    def use_backend(self, backend: ModelBackend) -> None:
        """Judge with an existing backend instead of creating one from ``model``/``backend`` (the scorer
        then owns it and closes it in :meth:`close`)."""
        self._backend = backend
        self.options.update(backend=backend.name, model=backend.describe().get("model"))
        self.options["confidence"] = "label log-probabilities" if backend.supports(SCORE_CHOICES) else \
            "none (generated text; 1.0 when a label is named)"

    def preflight(self) -> None:
        """The prompt formats, the judge's backend is installed and accepts its arguments, and a model given
        as a file path exists; the judge model itself is not loaded."""
        try:
            self.user_turn("s", "r")
        except (KeyError, IndexError, ValueError) as exc:
            raise PolibenchError(f"judge scorer: prompt may only use {{statement}}, {{response}} and {{choices}} "
                                 f"({type(exc).__name__}: {exc})") from None
        self.check_backend()

    def check_backend(self) -> None:
        """The judge's backend is installed and accepts its arguments, and a model given as a file path exists
        (nothing is loaded)."""
        if self._backend is not None:
            return
        backend_name, model, _ = choose(self.model_name, self.backend_name)
        check_backend_args(backend_name, model, self.model_args, what=f"{self.name} scorer arguments")
        looks_like_path = model and (model.endswith(".gguf") or model.startswith(("/", ".", "~")))
        if looks_like_path and not Path(model).expanduser().exists():
            raise PolibenchError(f"{self.name} scorer: model '{model}' does not exist")

    def _setup(self) -> ModelBackend:
        if self._backend is None:
            backend_name, model, embedded = choose(self.model_name, self.backend_name)
            backend = create_backend(backend_name, model, dict(self.model_args))
            self.options.update(backend=backend_name, model=backend.describe().get("model"), embedded=embedded)
            self.use_backend(backend)
        return self._backend  # type: ignore[return-value]

    def user_turn(self, statement: str, response: str) -> str:
        return self.prompt.format(statement=statement.strip(), response=(response or "").strip(),
                                  choices=choices_text(list(self.labels)))

    @staticmethod
    def judge_prompt(turn: str) -> Prompt:
        return Prompt(text=turn, seed=0, messages=(ChatMessage(role="user", content=turn),))

    def score(self, statements: Sequence[str], responses: Sequence[str], progress=None) -> list[StanceResult]:
        prompts = [self.judge_prompt(self.user_turn(s, r)) for s, r in zip(statements, responses)]
        return self.read_answers(prompts, progress)

    def read_answers(self, prompts: list[Prompt], progress=None, labels: Optional[Sequence[str]] = None,
                     parse: Optional[Callable[[str], Optional[str]]] = None) -> list[StanceResult]:
        """The judge's answer to each prompt, read as the module docstring says: from the log-probabilities of
        ``labels`` (default: the scorer's labels) when the backend scores choices, else by ``parse(reply)``,
        the label a greedy reply names or None (default: the first of the scorer's labels in the reply)."""
        backend = self._setup()
        if backend.supports(SCORE_CHOICES):
            return self._score_by_choices(backend, prompts, progress, labels)
        return self._score_by_generation(backend, prompts, progress, parse)

    def _score_by_choices(self, backend: ModelBackend, prompts: list[Prompt], progress,
                          labels: Optional[Sequence[str]] = None) -> list[StanceResult]:
        """``labels`` (default: the scorer's) softmax-normalised over their log-probabilities as the start of the
        reply; the label is the most probable one, its confidence its share."""
        labels = list(self.labels if labels is None else labels)
        results = []
        for row in backend.score_choices(prompts, [labels] * len(prompts), progress=progress):
            probs = softmax(dict(zip(labels, row)))
            top = max(probs, key=probs.__getitem__)
            results.append(StanceResult(top, probs[top], probs))
        return results

    def _score_by_generation(self, backend: ModelBackend, prompts: list[Prompt], progress,
                             parse: Optional[Callable[[str], Optional[str]]] = None,
                             temperature: float = 0.0) -> list[StanceResult]:
        """A reply of a few tokens per prompt (greedy by default); the label ``parse`` finds in it (default: the
        first of the scorer's labels) with confidence 1.0, or an abstention where it finds none."""
        settings = GenerationSettings(samples=1, max_new_tokens=self.max_new_tokens, temperature=temperature)
        read = parse or (lambda text: first_label(text, self.labels))
        results = []
        for completion in backend.generate(prompts, settings, progress=progress):
            label = read(completion.text)
            results.append(StanceResult(label, 1.0 if label else 0.0, {label: 1.0} if label else {}))
        return results

    def close(self) -> None:
        if self._backend is not None:
            self._backend.close()
