"""``ideology`` scorer: the offline default ideology judge, trained on polibench's own material on first use.

The judge (:mod:`polibench.ideology.judge`: frozen MiniLM-L6 embeddings + logistic regression) is fit on the
train split of :func:`polibench.ideology.corpus.builtin_corpus` and cached under
``<cache_dir>/ideology/minilm-lr-<key>``, where the key hashes the training texts, their labels, the recipe and
the encoder's config: new material trains a new judge, and an old cache is never used by mistake. Training
embeds about 480 short texts (well under a minute on 2 CPU cores). Its held-out figures are stored with it
and printed by ``polibench ideology eval``.

Liu et al.'s judge is an XLNet fine-tuned on Media Cloud news (F1 0.984, not public). This one is trained on a
few hundred statements and arguments about PCT and WVS topics, so it is a much weaker and differently
calibrated judge; docs/generation-bias.md says how to train and plug in a stronger one.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from pathlib import Path
from typing import Sequence

import numpy as np

from polibench.cache.speed import read_speed, record_speed
from polibench.errors import PolibenchError
from polibench.ideology.corpus import builtin_corpus
from polibench.ideology.judge import JUDGE_FILE, EmbeddingJudge, minilm_path, train_judge, validation_figures
from polibench.models.eta import duration
from polibench.paths import cache_dir, unwritable_reason
from polibench.scoring.ideology import IdeologyScorer

RECIPE = {"recipe": "minilm-mean-pool+logistic-regression", "C": 1.0, "version": 1}


def default_key() -> str:
    train, _ = builtin_corpus()
    digest = hashlib.sha256(json.dumps([[t.text, t.label] for t in train]).encode())
    digest.update(json.dumps(RECIPE, sort_keys=True).encode())
    digest.update((minilm_path() / "config.json").read_bytes())
    return digest.hexdigest()


def default_judge_dir() -> Path:
    return cache_dir() / "ideology" / f"minilm-lr-{default_key()[:16]}"


SPEED_KEY = "train:ideology-embedded:" + hashlib.sha256(json.dumps(RECIPE, sort_keys=True).encode()).hexdigest()[:16]


def training_plan(n_train: int) -> str:
    """The first-use line of the run's plan: what is trained and its ETA (from this cache's record of the
    recipe's speed: seconds per training text, embedding and fit included)."""
    speed = read_speed(SPEED_KEY)
    eta = (f"ETA about {duration(speed.seconds * n_train)} ({speed.describe('text')})" if speed is not None else
           "no training speed recorded in this cache yet (it embeds each text once)")
    return (f"the offline ideology judge is trained once, on first use: MiniLM-L6 embeddings of {n_train} texts + "
            f"logistic regression; {eta}")


def ensure_default_judge() -> EmbeddingJudge:
    """The default judge, trained (and validated on the held-out statements) first if not cached yet."""
    folder = default_judge_dir()
    if (folder / JUDGE_FILE).is_file():
        return EmbeddingJudge.load(folder)
    train, test = builtin_corpus()
    print(f"polibench: training the offline ideology judge once on {len(train)} texts (MiniLM-L6 embeddings + "
          f"logistic regression); cached in {folder}", file=sys.stderr, flush=True)
    started = time.perf_counter()
    judge = train_judge(train, str(minilm_path()), c=float(RECIPE["C"]))
    record_speed(SPEED_KEY, time.perf_counter() - started, len(train), what="offline ideology judge training")
    labels = np.array([t.label for t in test])
    judge.info.update({"key": default_key()[:16], "held_out": validation_figures(judge.predict([t.text for t in test]),
                                                                                  labels),
                       "held_out_statements": len({t.group for t in test})})
    judge.save(folder)
    return judge


class EmbeddedIdeologyScorer(IdeologyScorer):
    """The offline default judge (see the module docstring)."""

    name = "ideology"

    def __init__(self, labels: Sequence[str] = ("agree", "disagree"), *, judge: str = ""):
        super().__init__(labels, judge=judge or "default")
        self.judge_dir = Path(judge) if judge else None
        self._judge: EmbeddingJudge | None = None

    @classmethod
    def first_use_plan(cls, judge: str = "", **scorer_args) -> str | None:
        """The training line when no judge is given and this cache does not hold the default one yet."""
        if judge or (default_judge_dir() / JUDGE_FILE).is_file():
            return None
        return training_plan(len(builtin_corpus()[0]))

    def preflight(self) -> None:
        if self.judge_dir is not None:
            if not (self.judge_dir / JUDGE_FILE).is_file():
                raise PolibenchError(f"ideology scorer: {self.judge_dir} holds no {JUDGE_FILE} "
                                     "(make one with `polibench ideology train`)")
            return
        minilm_path()
        problem = unwritable_reason(cache_dir() / "ideology")
        if problem:
            raise PolibenchError(f"the offline ideology judge is cached in {cache_dir() / 'ideology'}, but {problem}; "
                                 "set POLIBENCH_CACHE to a writable folder")

    def loaded(self) -> EmbeddingJudge:
        if self._judge is None:
            self._judge = EmbeddingJudge.load(self.judge_dir) if self.judge_dir else ensure_default_judge()
            self.options["key"] = self._judge.info.get("key", "")
        return self._judge

    def judge(self, texts: Sequence[str], progress=None) -> list[float]:
        scores = self.loaded().predict(list(texts)).tolist()
        if progress:
            progress(len(scores))
        return scores
