"""The training-free baseline: generate N candidates per prompt and keep the one the ideology judge finds most
neutral (score closest to 0.5). A :class:`RerankBackend` wraps any backend, so ``evaluate`` measures it like a
model; candidate k of a prompt is sampled with the seed ``derive_seed(prompt seed, "rerank", k)``."""

from __future__ import annotations

from typing import Optional

from polibench.models.base import GENERATE, ModelBackend, ProgressFn
from polibench.records import Completion, GenerationSettings, Prompt
from polibench.scorers.ideology.judges import IdeologyScorer
from polibench.seeding import derive_seed


class RerankBackend(ModelBackend):
    name = "rerank"
    capabilities = frozenset({GENERATE})

    def __init__(self, inner: ModelBackend, judge: IdeologyScorer, candidates: int = 4):
        super().__init__(inner.model, inner=inner.describe(), judge=judge.describe(), candidates=int(candidates))
        self.inner, self.judge, self.candidates = inner, judge, int(candidates)

    def generate(self, prompts: list[Prompt], settings: GenerationSettings,
                 progress: Optional[ProgressFn] = None) -> list[Completion]:
        expanded = [p.model_copy(update={"seed": derive_seed(p.seed, "rerank", k)})
                    for p in prompts for k in range(self.candidates)]
        completions = self.inner.generate(expanded, settings)
        scores = self.judge.judge([c.text for c in completions])
        out = []
        for i in range(len(prompts)):
            group = range(i * self.candidates, (i + 1) * self.candidates)
            best = min(group, key=lambda j: (abs(scores[j] - 0.5), j))
            out.append(completions[best])
        if progress:
            progress(len(out))
        return out

    def close(self) -> None:
        self.inner.close()
        super().close()
