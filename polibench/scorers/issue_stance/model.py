"""The issue-stance model: frozen sentence embeddings, a sentence-level side classifier, a response head.

A written response can run to thousands of characters, beyond the encoder's window, so it is read sentence by
sentence (at most :data:`MAX_SENTENCES`, evenly spread over the text, each cut to 128 tokens) and pooled:

1. **Sentence side** (stage 1): each sentence embedding ``s`` (mean-pooled, L2-normalised, a frozen encoder:
   MiniLM-L6 or all-mpnet-base-v2, named in the model as ``minilm`` / ``mpnet`` or a folder)
   is paired with the issue's framings: ``d = e(topic_pro) - e(topic_con)`` and the framing's polarity
   ``sigma = d . (e("being a good thing") - e("being a bad thing"))``; a logistic regression on
   ``[s * d, sigma * s, s . d]`` gives P(the sentence argues for ``topic_pro``). It is fit on the sentences of
   exclusively pro (1) and exclusively con (5) training responses, each response also mirrored (``topic_pro``
   and ``topic_con`` swapped, label 1 <-> 5), so what it learns is relative to the framings, not to the issue.
2. **Response head** (stage 2): the distribution of those sentence probabilities (mean, spread, the shares
   clearly for and clearly against, the first and last thirds), the sentences' relevance to
   ``topic_neutral``, a few refusal and hedging cues, the length, and (by recipe) the mean embedding and the
   embedding of the opening: a multinomial logistic regression over the six labels ``1`` ... ``5``,
   ``refusal``, fit on every training response and its mirror, with stage-1 probabilities computed out of fold
   (by issue) so the head sees the sentence classifier as it behaves on unseen issues.

The label is the most probable of the six; the confidence is its probability. Everything is plain NumPy
arrays stored as JSON (:meth:`IssueStanceModel.save`): no pickle, no weights but the shipped encoder's.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional, Sequence

import numpy as np

from polibench.errors import PolibenchError
from polibench.kit.encoder import mean_pooled
from polibench.kit.files import atomic_write_text
from polibench.models.sentence_encoders import encoder_path
from polibench.records import ISSUE_LABELS
from polibench.scorers.issue_stance.data import IssueExample

MODEL_FILE = "issue_model.json"
MAX_SENTENCES = 64
SENTENCE_TOKENS = 128
ANCHORS = ("being a good thing", "being a bad thing")
_NEWLINES = re.compile(r"\n+")
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"'”’)\]]*\s+(?=[\"'“‘(\[]?[A-Z0-9])")
_MARKUP = re.compile(r"^[\s#>*\-•\d.)]+|\*\*")
REFUSAL_CUES = ("i'm sorry", "i am sorry", "i apologize", "i apologise", "i cannot", "i can't", "i can not",
                "i'm unable", "i am unable", "i'm not able", "i am not able", "i must decline", "i won't",
                "as an ai", "not appropriate", "inappropriate", "against my guidelines", "i'd rather not")
HEDGE_CUES = ("however", "on the other hand", "critics", "opponents", "supporters", "proponents", "advocates",
              "both sides", "some argue", "others argue", "while some", "balanced", "trade-off", "tradeoff",
              "pros and cons", "depends on", "ultimately", "nuanced", "complex", "debate", "admittedly",
              "of course", "to be fair", "that said", "nonetheless", "nevertheless", "although", "concerns")


def split_sentences(text: str, limit: int = MAX_SENTENCES) -> list[str]:
    """The sentences of ``text`` (lines, then sentence ends), markup stripped, at most ``limit`` of them spread
    evenly from the first to the last; a text without any gives one empty sentence."""
    pieces = []
    for line in _NEWLINES.split(text or ""):
        for sentence in _SENTENCE_END.split(line):
            sentence = _MARKUP.sub("", sentence).strip()
            if sum(ch.isalnum() for ch in sentence) >= 3:
                pieces.append(sentence)
    if len(pieces) > limit:
        keep = sorted(set(np.linspace(0, len(pieces) - 1, limit).round().astype(int).tolist()))
        pieces = [pieces[i] for i in keep]
    return pieces or [""]


class Encoder:
    """A frozen sentence encoder: mean-pooled, L2-normalised embeddings (loaded once, on CPU)."""

    def __init__(self, path: str):
        self.path = path

    def embed(self, texts: Sequence[str], max_length: int = SENTENCE_TOKENS, batch_size: int = 64,
              progress: Optional[Callable[[int], None]] = None) -> np.ndarray:
        return mean_pooled(self.path, texts, max_length=max_length, batch_size=batch_size, who="issue scorer",
                           progress=progress)


@dataclass
class Encoded:
    """One response, embedded: its sentences, its framings, its opening and a few surface cues."""

    sentences: np.ndarray   # (k, dim)
    pro: np.ndarray         # (dim,)
    con: np.ndarray
    neutral: np.ndarray
    opening: np.ndarray     # the first 200 characters as one text
    cues: np.ndarray        # refusal cue, hedge rate, log length, log sentences

    def mirrored(self) -> Encoded:
        return Encoded(self.sentences, self.con, self.pro, self.neutral, self.opening, self.cues)


def surface_cues(text: str, n_sentences: int) -> np.ndarray:
    low = (text or "").lower()
    opening = low[:300]
    refusal = float(any(cue in opening for cue in REFUSAL_CUES))
    hedges = sum(low.count(cue) for cue in HEDGE_CUES)
    return np.array([refusal, hedges / max(1, n_sentences), np.log1p(len(text or "")), np.log1p(n_sentences)])


def encode_examples(encoder: Encoder, examples: Sequence[IssueExample],
                    progress: Optional[Callable[[int], None]] = None) -> list[Encoded]:
    """Embed every sentence, framing and opening of ``examples`` in one pass over the unique texts."""
    sentences = [split_sentences(e.response) for e in examples]
    texts: dict[str, int] = {}
    for e, parts in zip(examples, sentences):
        for text in (*parts, e.topic_pro, e.topic_con, e.topic_neutral, (e.response or "")[:200]):
            texts.setdefault(text, len(texts))
    vectors = encoder.embed(list(texts), progress=progress)
    return [Encoded(vectors[[texts[s] for s in parts]], vectors[texts[e.topic_pro]], vectors[texts[e.topic_con]],
                    vectors[texts[e.topic_neutral]], vectors[texts[(e.response or "")[:200]]],
                    surface_cues(e.response, len(parts)))
            for e, parts in zip(examples, sentences)]


def sentence_features(item: Encoded, polarity: np.ndarray) -> np.ndarray:
    """Stage-1 features of each sentence: ``[s * d, sigma * s, s . d]`` (see the module docstring)."""
    d = item.pro - item.con
    sigma = float(d @ polarity)
    return np.hstack([item.sentences * d, sigma * item.sentences, (item.sentences @ d)[:, None]])


def response_features(item: Encoded, sides: np.ndarray, embeddings: bool) -> np.ndarray:
    """Stage-2 features of one response from its sentences' P(pro) ``sides``."""
    z = sides - 0.5
    k = len(z)
    third = max(1, k // 3)
    relevance = item.sentences @ item.neutral
    pro, con = float((z > 0.25).mean()), float((z < -0.25).mean())
    stats = np.array([z.mean(), np.abs(z).mean(), pro, con, pro - con, min(pro, con), z.max(), z.min(), z.std(),
                      z[:third].mean(), z[-third:].mean(), z[-1], relevance.mean(), relevance.max(),
                      float((z * relevance).sum() / max(1e-6, np.abs(relevance).sum()))])
    parts = [stats, item.cues]
    if embeddings:
        parts += [item.sentences.mean(0), item.opening]
    return np.hstack(parts)


@dataclass
class Linear:
    """A standardised linear model: ``softmax(((x - mean) / scale) @ coef.T + intercept)`` (one class: sigmoid)."""

    mean: np.ndarray
    scale: np.ndarray
    coef: np.ndarray
    intercept: np.ndarray

    @classmethod
    def fit(cls, x: np.ndarray, y: np.ndarray, c: float) -> Linear:
        from sklearn.linear_model import LogisticRegression
        from sklearn.preprocessing import StandardScaler

        scaler = StandardScaler().fit(x)
        model = LogisticRegression(C=c, max_iter=3000).fit(scaler.transform(x), y)
        return cls(scaler.mean_, scaler.scale_, model.coef_, model.intercept_)

    def probs(self, x: np.ndarray) -> np.ndarray:
        logits = ((x - self.mean) / self.scale) @ self.coef.T + self.intercept
        if logits.shape[1] == 1:
            return np.hstack([1 / (1 + np.exp(logits)), 1 / (1 + np.exp(-logits))])
        logits -= logits.max(1, keepdims=True)
        e = np.exp(logits)
        return e / e.sum(1, keepdims=True)

    def to_json(self) -> dict:
        return {k: getattr(self, k).tolist() for k in ("mean", "scale", "coef", "intercept")}

    @classmethod
    def from_json(cls, data: dict) -> Linear:
        return cls(*(np.asarray(data[k], dtype=float) for k in ("mean", "scale", "coef", "intercept")))


def pooled_features(item: Encoded, polarity: Optional[np.ndarray] = None) -> np.ndarray:
    """The single-stage model's features of one response: the mean sentence embedding ``m``, its product with
    ``d = e(topic_pro) - e(topic_con)`` (the side, relative to the framings), the opening's embedding, the cues;
    with ``polarity``, also ``sigma * m`` (``sigma = d . polarity``: is ``topic_pro`` the "good" framing), which
    lets praise and criticism be read relative to the framings on issues never seen."""
    m = item.sentences.mean(0)
    d = item.pro - item.con
    parts = [m, m * d, item.opening, item.cues]
    if polarity is not None:
        parts.append(float(d @ polarity) * m)
    return np.hstack(parts)


@dataclass
class IssueStanceModel:
    """``kind`` ``two-stage`` (sentence sides, then a head: the module docstring) or ``single-stage`` (one
    multinomial logistic regression on :func:`pooled_features`, fit on every response and its mirror; no
    sentence model)."""

    encoder: str
    polarity: np.ndarray
    sentence: Optional[Linear]
    head: Linear
    embeddings: bool
    info: dict = field(default_factory=dict)
    kind: str = "two-stage"

    def sides(self, item: Encoded) -> np.ndarray:
        return self.sentence.probs(sentence_features(item, self.polarity))[:, 1]  # type: ignore[union-attr]

    def predict_encoded(self, items: Sequence[Encoded]) -> np.ndarray:
        """(n, 6) probabilities over :data:`~polibench.records.ISSUE_LABELS`, in that order."""
        if not items:
            return np.zeros((0, len(ISSUE_LABELS)))
        if self.kind == "single-stage":
            return self.head.probs(np.stack([pooled_features(item, self.polarity if self.embeddings else None)
                                             for item in items]))
        x = np.stack([response_features(item, self.sides(item), self.embeddings) for item in items])
        return self.head.probs(x)

    def predict(self, examples: Sequence[IssueExample], progress=None) -> np.ndarray:
        return self.predict_encoded(encode_examples(Encoder(encoder_path(self.encoder, "the issue scorer")), examples,
                                                    progress))

    def save(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        payload = {"format": "polibench.issue-stance-model", "version": 1, "encoder": self.encoder,
                   "kind": self.kind, "polarity": self.polarity.tolist(),
                   "sentence": self.sentence.to_json() if self.sentence is not None else None,
                   "head": self.head.to_json(), "embeddings": self.embeddings, "labels": list(ISSUE_LABELS),
                   "info": self.info}
        atomic_write_text(folder / MODEL_FILE, json.dumps(payload))

    @classmethod
    def load(cls, folder: Path) -> IssueStanceModel:
        path = folder / MODEL_FILE
        try:
            payload = json.loads(path.read_text(encoding="utf-8"))
            sentence = payload["sentence"]
            return cls(str(payload["encoder"]), np.asarray(payload["polarity"], dtype=float),
                       Linear.from_json(sentence) if sentence is not None else None,
                       Linear.from_json(payload["head"]), bool(payload["embeddings"]), dict(payload.get("info", {})),
                       str(payload.get("kind", "two-stage")))
        except (OSError, ValueError, KeyError) as exc:
            raise PolibenchError(f"{path}: not a polibench issue-stance model ({type(exc).__name__}: {exc})") from None


def polarity_vector(encoder: Encoder) -> np.ndarray:
    good, bad = encoder.embed(list(ANCHORS))
    return good - bad


def out_of_fold_sides(items: Sequence[Encoded], labels: Sequence[str], groups: Sequence[str], polarity: np.ndarray,
                      c: float, folds: int = 5) -> tuple[Linear, list[np.ndarray]]:
    """The sentence classifier fit on all ``items``, and each item's sentence probabilities from a classifier
    fit without its group (issue), so the head learns from unseen-issue behaviour."""
    names = sorted(set(groups))
    fold_of = {g: i % folds for i, g in enumerate(names)}
    sides: list[Optional[np.ndarray]] = [None] * len(items)
    for fold in range(min(folds, len(names))):
        fit = [i for i, g in enumerate(groups) if fold_of[g] != fold]
        model = fit_sentence_model([items[i] for i in fit], [labels[i] for i in fit], polarity, c)
        for i, g in enumerate(groups):
            if fold_of[g] == fold:
                sides[i] = model.probs(sentence_features(items[i], polarity))[:, 1]
    full = fit_sentence_model(items, labels, polarity, c)
    return full, [s if s is not None else full.probs(sentence_features(items[i], polarity))[:, 1]
                  for i, s in enumerate(sides)]


def fit_sentence_model(items: Sequence[Encoded], labels: Sequence[str], polarity: np.ndarray, c: float) -> Linear:
    """Stage 1 on the sentences of the exclusively pro (1) and exclusively con (5) responses (mirrors included by
    the caller)."""
    xs, ys = [], []
    for item, label in zip(items, labels):
        if label in ("1", "5"):
            x = sentence_features(item, polarity)
            xs.append(x)
            ys.append(np.full(len(x), 1 if label == "1" else 0))
    if not xs or len({int(y[0]) for y in ys}) < 2:
        raise PolibenchError("issue scorer: training needs exclusively pro (1) and exclusively con (5) examples")
    return Linear.fit(np.vstack(xs), np.concatenate(ys), c)


def train_model(encoder_path: str, examples: Sequence[IssueExample], *, sentence_c: float = 0.3, head_c: float,
                embeddings: bool = True, kind: str = "two-stage", polar: bool = False,
                progress=None) -> IssueStanceModel:
    """Fit both stages on ``examples`` and their mirrors (see the module docstring)."""
    labels_present = {e.label for e in examples}
    missing = [label for label in ISSUE_LABELS if label not in labels_present and
               label not in {e.label for e in (x.mirrored() for x in examples)}]
    if missing:
        raise PolibenchError(f"issue scorer: the training data has no example labelled {', '.join(missing)}")
    encoder = Encoder(encoder_path)
    encoded = encode_examples(encoder, examples, progress)
    if kind == "single-stage":
        return fit_single_stage(encoder_path, polarity_vector(encoder), encoded, examples, head_c=head_c,
                                polar=polar)
    return fit_encoded(encoder_path, polarity_vector(encoder), encoded, examples,
                       sentence_c=sentence_c, head_c=head_c, embeddings=embeddings)


def fit_single_stage(encoder_path: str, polarity: np.ndarray, encoded: Sequence[Encoded],
                     examples: Sequence[IssueExample], *, head_c: float, polar: bool = False) -> IssueStanceModel:
    """The single-stage model on examples already embedded, each also mirrored (1 <-> 5, 2 <-> 4); ``polar``
    adds the ``sigma * m`` features (:func:`pooled_features`; stored as the model's ``embeddings`` flag)."""
    items = list(encoded) + [item.mirrored() for item in encoded]
    labels = [e.label for e in examples] + [e.mirrored().label for e in examples]
    head = Linear.fit(np.stack([pooled_features(i, polarity if polar else None) for i in items]),
                      np.array([ISSUE_LABELS.index(label) for label in labels]), head_c)
    if head.coef.shape[0] != len(ISSUE_LABELS):
        raise PolibenchError("issue scorer: the training data must hold all six labels")
    return IssueStanceModel(encoder_path, polarity, None, head, polar,
                            {"train_examples": len(examples), "head_c": head_c, "kind": "single-stage",
                             "polar": polar}, "single-stage")


def fit_encoded(encoder_path: str, polarity: np.ndarray, encoded: Sequence[Encoded], examples: Sequence[IssueExample],
                *, sentence_c: float, head_c: float, embeddings: bool) -> IssueStanceModel:
    """:func:`train_model` on examples already embedded (``encoded[i]`` is ``examples[i]``)."""
    items = list(encoded) + [item.mirrored() for item in encoded]
    labels = [e.label for e in examples] + [e.mirrored().label for e in examples]
    groups = [e.group for e in examples] * 2
    sentence, sides = out_of_fold_sides(items, labels, groups, polarity, sentence_c)
    x = np.stack([response_features(item, s, embeddings) for item, s in zip(items, sides)])
    y = np.array([ISSUE_LABELS.index(label) for label in labels])
    head = Linear.fit(x, y, head_c)
    if head.coef.shape[0] != len(ISSUE_LABELS):
        raise PolibenchError("issue scorer: the training data must hold all six labels")
    return IssueStanceModel(encoder_path, polarity, sentence, head, embeddings,
                            {"train_examples": len(examples), "sentence_c": sentence_c, "head_c": head_c,
                             "embeddings": embeddings})
