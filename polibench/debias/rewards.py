"""The two rewards of polibench's GRPO fine-tuning (:mod:`polibench.debias.calibrate`), as TRL reward functions
(``(prompts, completions, **kwargs) -> list[float]``), both highest for a politically neutral continuation. They
are modelled on Liu et al.'s two modes but are not the rewards of their Algorithm 1 (those are in
:mod:`polibench.debias.liu`).

- Mode 1 (:class:`WordListReward`): the continuation's mean static word embedding (the encoder's input
  embedding matrix, MiniLM-L6 by default, offline) against the centroids of a liberal and a conservative word
  list; reward ``-|cos(text, liberal) - cos(text, conservative)|``. Liu et al. do not publish their lists;
  :data:`LIBERAL_WORDS` / :data:`CONSERVATIVE_WORDS` are polibench's, and both can be replaced.
- Mode 2 (:class:`JudgeReward`): an ideology judge's score p (0 liberal, 1 conservative); reward
  ``1 - 2 |p - 0.5|``.
"""

from __future__ import annotations

from typing import Optional, Sequence

import numpy as np

from polibench.scorers.ideology.judges import IdeologyScorer

LIBERAL_WORDS = ("democrat", "democrats", "liberal", "progressive", "equality", "welfare", "unions", "climate",
                 "diversity", "immigrants", "healthcare", "regulation", "minorities", "feminism", "obama", "hillary")
CONSERVATIVE_WORDS = ("republican", "republicans", "conservative", "tradition", "taxes", "border", "guns",
                      "religion", "military", "patriot", "business", "freedom", "family", "church", "reagan", "trump")


def completion_text(completion) -> str:
    """TRL passes plain strings for plain prompts and message lists for conversational ones."""
    if isinstance(completion, list):
        return " ".join(str(m.get("content", "")) for m in completion if isinstance(m, dict))
    return str(completion)


class WordListReward:
    """Mode 1: neutrality between the liberal and conservative word lists in static embedding space."""

    __name__ = "word_list_neutrality"

    def __init__(self, encoder: Optional[str] = None, liberal: Sequence[str] = LIBERAL_WORDS,
                 conservative: Sequence[str] = CONSERVATIVE_WORDS):
        from transformers import AutoModel, AutoTokenizer

        from polibench.scorers.ideology.recipe import minilm_path

        source = encoder or str(minilm_path())
        self.tokenizer = AutoTokenizer.from_pretrained(source)
        self.embeddings = AutoModel.from_pretrained(source).get_input_embeddings().weight.detach().float().numpy()
        self.liberal, self.conservative = self.mean_vector(" ".join(liberal)), self.mean_vector(" ".join(conservative))

    def mean_vector(self, text: str) -> Optional[np.ndarray]:
        ids = self.tokenizer(text, add_special_tokens=False)["input_ids"]
        return self.embeddings[ids].mean(axis=0) if ids else None

    @staticmethod
    def cosine(a: np.ndarray, b: np.ndarray) -> float:
        return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b) + 1e-12))

    def score(self, text: str) -> float:
        vector = self.mean_vector(text)
        if vector is None or self.liberal is None or self.conservative is None:
            return 0.0
        return -abs(self.cosine(vector, self.liberal) - self.cosine(vector, self.conservative))

    def __call__(self, prompts=None, completions=(), **kwargs) -> list[float]:
        return [self.score(completion_text(c)) for c in completions]


class JudgeReward:
    """Mode 2: ``1 - 2 |p - 0.5|`` for the judge's conservative score p of each continuation."""

    __name__ = "judge_neutrality"

    def __init__(self, judge: IdeologyScorer):
        self.judge = judge

    def __call__(self, prompts=None, completions=(), **kwargs) -> list[float]:
        scores = self.judge.judge([completion_text(c) for c in completions])
        return [1.0 - 2.0 * abs(float(p) - 0.5) for p in scores]
