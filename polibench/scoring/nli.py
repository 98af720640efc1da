"""``nli`` scorer: zero-shot stance with an NLI model through transformers' zero-shot pipeline.

As Feng et al. 2023: the input is ``statement + " " + response`` and the candidate labels are the stance
words (``agree``, ``disagree``), each turned into a hypothesis with ``hypothesis_template``; the label
probabilities are the softmax over the candidates' entailment scores, and the confidence is the top
probability. Default model ``facebook/bart-large-mnli`` (downloaded from the Hugging Face hub on first use);
any local folder with an NLI head (labels containing entailment/contradiction) works.
"""

from __future__ import annotations

from typing import Sequence

from polibench.errors import PolibenchError
from polibench.scoring.base import StanceResult, StanceScorer


class NLIScorer(StanceScorer):
    name = "nli"

    def __init__(self, labels: Sequence[str] = ("agree", "disagree"), *, model: str = "facebook/bart-large-mnli",
                 hypothesis_template: str = "This example is {}.", batch_size: int = 8, device: str = "auto"):
        super().__init__(labels, model=model, hypothesis_template=hypothesis_template)
        self.model_name, self.template, self.batch_size = model, hypothesis_template, batch_size
        self.device = device
        self._pipe = None

    def _pipeline(self):
        if self._pipe is None:
            from transformers import pipeline

            from polibench.models.hf import pick_device

            try:
                self._pipe = pipeline("zero-shot-classification", model=self.model_name,
                                      device=pick_device(self.device))
            except OSError as exc:
                raise PolibenchError(f"nli scorer: could not load '{self.model_name}' ({str(exc).splitlines()[0]}). "
                                     "Offline? Pass a local folder with scorer_args model=PATH, or use "
                                     "--scorer lexical.") from None
        return self._pipe

    def score(self, statements: Sequence[str], responses: Sequence[str], progress=None) -> list[StanceResult]:
        pipe = self._pipeline()
        results: list[StanceResult] = []
        texts = [f"{s} {r}" for s, r in zip(statements, responses)]
        for start in range(0, len(texts), self.batch_size):
            batch = texts[start:start + self.batch_size]
            outputs = pipe(batch, candidate_labels=list(self.labels), hypothesis_template=self.template,
                           multi_label=False)
            if isinstance(outputs, dict):
                outputs = [outputs]
            for out in outputs:
                probs = {label: float(p) for label, p in zip(out["labels"], out["scores"])}
                label = max(probs, key=probs.get)
                results.append(StanceResult(label, probs[label], probs))
            if progress:
                progress(len(batch))
        return results
