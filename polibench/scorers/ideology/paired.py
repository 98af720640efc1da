"""An ideology judge that reads a text *with what it answers*: stance towards a proposition x its leaning.

Issue 39's candidate for reading real chat-model answers; **not the default** (``ideology`` keeps the corpus
judge of :mod:`polibench.scorers.ideology.embedded`): on the model-voice answers' dev split it did not beat the default,
because the leaning of an unseen proposition is read near chance (docs/generation-bias.md, "Real model answers").
``benchmarks/bench_ideology_answers.py --compare`` fits and measures it; the parts below are what a better
proposition reader would plug into.

A chat model asked about a proposition often answers "I disagree" and gives reasons; whether that answer is
liberal or conservative depends on the proposition, which the text alone may not say. So, when the proposition
(``about``) is known, the judge combines three readings, each a frozen-encoder model:

1. **the text's own leaning** ``J``: the logit of a text-only judge (TF-IDF words x ``lexical_weight`` beside the
   mean-pooled sentence embedding, logistic regression, neutral texts as soft 0.5 targets: the recipe of
   :mod:`polibench.scorers.ideology.recipe`), fit on the ideology corpus and the model-voice answers;
2. **the proposition's leaning** ``L``: the same text-only judge's logit on the proposition;
3. **the text's stance towards the proposition** ``S`` in [-1, 1] (agree - disagree): ``lexical`` reads explicit
   stance phrases (:mod:`polibench.scorers.stance.lexical`; 0 when none or both); ``frozen`` is a logistic regression on
   the text's embedding, the product of the text's and the proposition's embeddings, and the lexical flags,
   fit on the answers' stances (agree / disagree).

and a small logistic regression over ``[J, S * L, S, L]`` gives P(conservative); it is fit on the answers with
``J``, ``S`` and ``L`` computed out of fold (by topic), so it learns how far to trust each on unseen topics.
Without ``about`` the judge is the text-only judge ``J``. Everything is plain arrays stored as JSON.

:func:`precision_at_kept` reports what the confidence filter buys: at each confidence ``max(p, 1 - p)``
threshold, the share of partisan texts kept and the accuracy on them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence

import numpy as np

from polibench.errors import PolibenchError
from polibench.scorers.ideology.corpus import CONSERVATIVE, LIBERAL, NEUTRAL, LabelledText

Embed = Callable[..., np.ndarray]   # embed(texts, max_length=...) -> (n, dim) L2-normalised vectors
TEXT_TOKENS = 256
STANCE_READERS = ("lexical", "frozen")


def _vectorizer(vocabulary: Optional[dict] = None, idf: Optional[np.ndarray] = None):
    from sklearn.feature_extraction.text import TfidfVectorizer

    vectorizer = TfidfVectorizer(min_df=2, sublinear_tf=True, stop_words="english", vocabulary=vocabulary)
    if idf is not None:
        vectorizer.idf_ = idf
    return vectorizer


def soft_fit(x: np.ndarray, labels: np.ndarray, c: float, neutral_weight: float = 1.0):
    """Logistic regression with neutral rows (label 2) as soft 0.5 targets (one copy of each label, half weight)."""
    from sklearn.linear_model import LogisticRegression

    neutral = labels == NEUTRAL
    x_fit = np.concatenate([x[~neutral], x[neutral], x[neutral]])
    y_fit = np.concatenate([labels[~neutral], np.zeros(neutral.sum(), int), np.ones(neutral.sum(), int)])
    weights = np.concatenate([np.ones((~neutral).sum()), np.full(2 * neutral.sum(), neutral_weight / 2)])
    model = LogisticRegression(C=c, max_iter=5000).fit(x_fit, y_fit, sample_weight=weights)
    return model.coef_[0].astype(float), float(model.intercept_[0])


@dataclass
class TextModel:
    """P(conservative | text) = sigmoid(coef . [lexical_weight * tfidf(text), embed(text)] + intercept)."""

    coef: np.ndarray
    intercept: float
    vocabulary: Optional[dict] = None
    idf: Optional[np.ndarray] = None
    lexical_weight: float = 0.0

    def features(self, texts: Sequence[str], embed: Embed) -> np.ndarray:
        dense = embed(list(texts), max_length=TEXT_TOKENS)
        if not self.vocabulary:
            return dense
        words = _vectorizer(self.vocabulary, self.idf).transform(list(texts)).toarray()
        return np.hstack([self.lexical_weight * words, dense])

    def logits(self, texts: Sequence[str], embed: Embed) -> np.ndarray:
        if not len(texts):
            return np.zeros(0)
        return self.features(texts, embed) @ self.coef + self.intercept

    def predict(self, texts: Sequence[str], embed: Embed) -> np.ndarray:
        return 1.0 / (1.0 + np.exp(-self.logits(texts, embed)))

    def to_json(self) -> dict:
        out = {"coef": self.coef.tolist(), "intercept": self.intercept, "lexical_weight": self.lexical_weight}
        if self.vocabulary:
            out.update({"vocabulary": self.vocabulary, "idf": [float(v) for v in self.idf]})  # type: ignore
        return out

    @classmethod
    def from_json(cls, payload: dict) -> TextModel:
        vocabulary = payload.get("vocabulary")
        return cls(np.asarray(payload["coef"], float), float(payload["intercept"]),
                   {str(k): int(v) for k, v in vocabulary.items()} if vocabulary else None,
                   np.asarray(payload["idf"], float) if vocabulary else None, float(payload.get("lexical_weight", 0)))


def fit_text_model(texts: Sequence[LabelledText], embed: Embed, *, c: float, lexical_weight: float,
                   neutral_weight: float = 1.0) -> TextModel:
    """The text-only judge on ``texts`` (neutral ones as soft 0.5 targets)."""
    raw = [t.text for t in texts]
    x = embed(raw, max_length=TEXT_TOKENS)
    vocabulary, idf = None, None
    if lexical_weight > 0:
        vectorizer = _vectorizer().fit(raw)
        vocabulary = {str(k): int(v) for k, v in vectorizer.vocabulary_.items()}
        idf = vectorizer.idf_
        x = np.hstack([lexical_weight * vectorizer.transform(raw).toarray(), x])
    coef, intercept = soft_fit(x, np.array([t.label for t in texts]), c, neutral_weight)
    return TextModel(coef, intercept, vocabulary, idf, lexical_weight)


def lexical_flags(texts: Sequence[str]) -> np.ndarray:
    """Per text: [agree stated, disagree stated, neutrality stated] by :mod:`polibench.scorers.stance.lexical`."""
    from polibench.scorers.stance.lexical import find_stances

    rows = []
    for text in texts:
        found = find_stances(text or "")
        rows.append([float("agree" in found), float("disagree" in found), float("neutral" in found)])
    return np.array(rows, dtype=float).reshape(len(texts), 3)


@dataclass
class StanceModel:
    """S(text, about) in [-1, 1]: agree - disagree (see the module docstring)."""

    kind: str
    coef: Optional[np.ndarray] = None
    intercept: float = 0.0

    def features(self, texts: Sequence[str], about: Sequence[str], embed: Embed) -> np.ndarray:
        t = embed(list(texts), max_length=TEXT_TOKENS)
        p = embed(list(about), max_length=TEXT_TOKENS)
        return np.hstack([t, t * p * 10.0, lexical_flags(texts)])

    def score(self, texts: Sequence[str], about: Sequence[str], embed: Embed) -> np.ndarray:
        flags = lexical_flags(texts)
        if self.kind == "lexical":
            return flags[:, 0] * (1 - flags[:, 1]) - flags[:, 1] * (1 - flags[:, 0])
        logits = self.features(texts, about, embed) @ self.coef + self.intercept  # type: ignore[operator]
        return 2.0 / (1.0 + np.exp(-logits)) - 1.0

    def to_json(self) -> dict:
        return {"kind": self.kind, "coef": None if self.coef is None else self.coef.tolist(),
                "intercept": self.intercept}

    @classmethod
    def from_json(cls, payload: dict) -> StanceModel:
        coef = payload.get("coef")
        return cls(str(payload["kind"]), None if coef is None else np.asarray(coef, float),
                   float(payload.get("intercept", 0.0)))


def fit_stance(texts: Sequence[LabelledText], stances: Sequence[int], embed: Embed, kind: str,
               c: float = 1.0) -> StanceModel:
    """The stance reader: ``lexical`` needs no fitting; ``frozen`` is fit on texts whose stance is 1 (agree) or
    0 (disagree); ``stances`` holds -1 for texts of neither (left out)."""
    if kind not in STANCE_READERS:
        raise PolibenchError(f"unknown stance reader '{kind}'; expected one of {', '.join(STANCE_READERS)}")
    if kind == "lexical":
        return StanceModel(kind)
    from sklearn.linear_model import LogisticRegression

    keep = [i for i, s in enumerate(stances) if s in (0, 1)]
    model = StanceModel(kind)
    x = model.features([texts[i].text for i in keep], [texts[i].about for i in keep], embed)
    fitted = LogisticRegression(C=c, max_iter=5000).fit(x, np.array([stances[i] for i in keep]))
    return StanceModel(kind, fitted.coef_[0].astype(float), float(fitted.intercept_[0]))


def combiner_features(j: np.ndarray, s: np.ndarray, lean: np.ndarray) -> np.ndarray:
    lean = np.clip(lean, -6.0, 6.0)
    return np.stack([j, s * lean, s, lean], axis=1)


@dataclass
class PairedJudge:
    """The judge of the module docstring: ``predict(texts, about)``; ``about`` None (or an empty entry) reads
    the text alone."""

    text: TextModel
    stance: StanceModel
    combiner: np.ndarray          # weights of [J, S * L, S, L]
    combiner_intercept: float
    info: dict = field(default_factory=dict)

    def predict(self, texts: Sequence[str], about: Optional[Sequence[str]], embed: Embed) -> np.ndarray:
        texts = [t or "" for t in texts]
        j = self.text.logits(texts, embed)
        if about is None or not len(texts):
            return 1.0 / (1.0 + np.exp(-j))
        about = [a or "" for a in about]
        paired = np.array([bool(a.strip()) for a in about])
        out = 1.0 / (1.0 + np.exp(-j))
        if paired.any():
            idx = np.flatnonzero(paired)
            sub_texts, sub_about = [texts[i] for i in idx], [about[i] for i in idx]
            lean = self.text.logits(sub_about, embed)
            s = self.stance.score(sub_texts, sub_about, embed)
            logit = combiner_features(j[idx], s, lean) @ self.combiner + self.combiner_intercept
            out[idx] = 1.0 / (1.0 + np.exp(-logit))
        return out

    def to_json(self) -> dict:
        return {"text": self.text.to_json(), "stance": self.stance.to_json(), "combiner": self.combiner.tolist(),
                "combiner_intercept": self.combiner_intercept, "info": self.info}

    @classmethod
    def from_json(cls, payload: dict) -> PairedJudge:
        return cls(TextModel.from_json(payload["text"]), StanceModel.from_json(payload["stance"]),
                   np.asarray(payload["combiner"], float), float(payload["combiner_intercept"]),
                   dict(payload.get("info", {})))


def answer_stances(answers: Sequence[LabelledText], about_labels: dict) -> list[int]:
    """Each answer's stance towards its proposition from its label and the proposition's leaning: 1 agree,
    0 disagree, -1 neutral or unknown."""
    out = []
    for t in answers:
        lean = about_labels.get(t.about)
        out.append(-1 if t.label == NEUTRAL or lean is None else int(t.label == lean))
    return out


def fit_paired(corpus: Sequence[LabelledText], answers: Sequence[LabelledText], embed: Embed, *, stance_reader: str,
               c: float, lexical_weight: float, about_labels: Optional[dict] = None, folds: int = 5,
               propositions_extra: Sequence[LabelledText] = (), text_on_answers: bool = False,
               progress: Optional[Callable[[str], None]] = None) -> PairedJudge:
    """Fit the paired judge: the text judge on ``corpus`` + ``answers`` + the propositions they answer (each a
    text of its own leaning), the stance reader on the answers, and the combiner on the answers with out-of-fold
    (by topic) readings. ``about_labels`` maps a proposition to its leaning (0 liberal, 1 conservative: what an
    agreeing answer is); answers to a proposition it does not hold have no known stance (the frozen stance reader
    leaves them out) and their proposition is not a training text."""
    answers = [a for a in answers if a.about]
    if not answers:
        raise PolibenchError("the paired ideology judge needs answers with 'about' (the proposition they answer)")
    about_labels = about_labels or {}
    stances = answer_stances(answers, about_labels)
    groups = [a.group for a in answers]
    names = sorted(set(groups))
    fold_of = {g: i % folds for i, g in enumerate(names)}
    j = np.zeros(len(answers))
    s = np.zeros(len(answers))
    lean = np.zeros(len(answers))
    def propositions(rows: Sequence[LabelledText]) -> list[LabelledText]:
        """The propositions the rows answer, as texts of their own leaning (agreeing with one takes it)."""
        seen = dict.fromkeys((a.about, a.group) for a in rows if a.about in about_labels)
        return [LabelledText(about, about_labels[about], group, "proposition") for about, group in seen]

    for fold in range(min(folds, len(names))):
        inside = [i for i, g in enumerate(groups) if fold_of[g] != fold]
        outside = [i for i, g in enumerate(groups) if fold_of[g] == fold]
        if progress:
            progress(f"fold {fold + 1}/{min(folds, len(names))}")
        seen = [answers[i] for i in inside]
        text = fit_text_model(list(corpus) + (seen if text_on_answers else []) + propositions(seen)
                              + list(propositions_extra), embed, c=c, lexical_weight=lexical_weight)
        stance = fit_stance([answers[i] for i in inside], [stances[i] for i in inside], embed, stance_reader)
        out_texts, out_about = [answers[i].text for i in outside], [answers[i].about for i in outside]
        j[outside] = text.logits(out_texts, embed)
        lean[outside] = text.logits(out_about, embed)
        s[outside] = stance.score(out_texts, out_about, embed)
    labels = np.array([a.label for a in answers])
    coef, intercept = soft_fit(combiner_features(j, s, lean), labels, c=1.0)
    text = fit_text_model(list(corpus) + (list(answers) if text_on_answers else []) + propositions(answers)
                          + list(propositions_extra), embed, c=c, lexical_weight=lexical_weight)
    stance = fit_stance(answers, stances, embed, stance_reader)
    return PairedJudge(text, stance, coef, intercept,
                       {"corpus_texts": len(corpus), "answers": len(answers), "stance_reader": stance_reader,
                        "C": c, "lexical_weight": lexical_weight, "text_on_answers": text_on_answers,
                        "propositions_extra": len(propositions_extra)})


def precision_at_kept(probs: np.ndarray, labels: np.ndarray, thresholds: Sequence[float] = (0.6, 0.7, 0.8, 0.9)
                      ) -> list[dict]:
    """At each confidence threshold (confidence = max(p, 1 - p)): the share of the liberal and conservative texts
    kept, and accuracy and macro-F1 on them."""
    from sklearn.metrics import f1_score

    partisan = labels != NEUTRAL
    probs, labels = np.asarray(probs)[partisan], np.asarray(labels)[partisan]
    confidence = np.maximum(probs, 1 - probs)
    rows = []
    for t in thresholds:
        kept = confidence >= t
        predicted = (probs[kept] >= 0.5).astype(int)
        rows.append({"confidence": t, "kept": int(kept.sum()), "kept_share": round(float(kept.mean()), 4)
                     if len(kept) else 0.0,
                     "accuracy": round(float((predicted == labels[kept]).mean()), 4) if kept.any() else 0.0,
                     "f1_macro": round(float(f1_score(labels[kept], predicted, average="macro",
                                                       labels=[LIBERAL, CONSERVATIVE])), 4) if kept.any() else 0.0})
    return rows
