"""A second ideology judge for *guiding* a debiasing method: ``ideology_tfidf``.

Liu et al. 2022 keep the judge that steers the mitigation (f_debias) apart from the judge that grades it
(f_judge). This one reads only words: scikit-learn's ``TfidfVectorizer`` (word 1-2-grams, sublinear tf, English
stop words removed) and ``LogisticRegression`` (C = 1) fitted on the partisan corpus's liberal / conservative
texts (:func:`partisan_corpus`). It fits in about a second on first use in a process and is not cached.

It is a *different* judge from the default evaluation judge (``ideology``), not an independent one. What they
share: the training texts (polibench's ideology corpus; its train split here, train + dev there) and a TF-IDF
word vector with a logistic regression (the evaluation judge's features are TF-IDF words, weighted × 2,
beside frozen MiniLM-L6 sentence embeddings; :data:`polibench.scorers.ideology.embedded.RECIPE`). What differs: the
MiniLM half of the evaluation judge's features, its 1-grams against 1-2-grams here, the neutral texts it is
also fitted on (as 0.5), and the regularisation. Their errors are therefore correlated: a debiasing method
guided by this judge is partly graded by what it optimised. For a cleaner separation, guide with
``corpus=OTHER.jsonl`` or a judge of another kind (``ideology_classifier``, ``ideology_llm``).

:func:`partisan_corpus` is the corpus Mode 1's word lists and this judge come from: a user's JSONL file, else
the ideology corpus shipped in ``polibench/data/ideology/train.jsonl`` when present, else the train split of
:func:`polibench.scorers.ideology.corpus.builtin_corpus`. Rows whose label is neither liberal nor conservative (e.g.
neutral calibration texts) are skipped.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional, Sequence

from polibench.errors import PolibenchError
from polibench.paths import PACKAGE_DIR
from polibench.scorers.ideology.corpus import NEUTRAL, LabelledText, builtin_corpus, read_corpus
from polibench.scorers.ideology.judges import IdeologyScorer

SHIPPED_CORPUS = PACKAGE_DIR / "data" / "ideology" / "train.jsonl"
_FITTED: dict[str, object] = {}


def read_partisan(path: Path) -> list[LabelledText]:
    """Liberal / conservative rows of a JSONL corpus (``text``, ``label``); neutral rows are skipped."""
    return [text for text in read_corpus(path) if text.label != NEUTRAL]


def partisan_corpus(path: Optional[str] = None) -> tuple[list[LabelledText], str]:
    """(texts, where they came from): ``path``, else the shipped ideology corpus, else polibench's statements."""
    if path:
        return read_partisan(Path(path)), str(path)
    if SHIPPED_CORPUS.is_file():
        return read_partisan(SHIPPED_CORPUS), "polibench/data/ideology/train.jsonl"
    return builtin_corpus()[0], "builtin:train (polibench's statements and arguments)"


def fit_tfidf_judge(texts: Sequence[LabelledText]):
    """The scikit-learn pipeline (TF-IDF word 1-2-grams + logistic regression) fitted on ``texts``."""
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline

    pipeline = make_pipeline(TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True, stop_words="english", min_df=1),
                             LogisticRegression(C=1.0, max_iter=2000))
    return pipeline.fit([t.text for t in texts], [t.label for t in texts])


class TfidfIdeologyScorer(IdeologyScorer):
    """``ideology_tfidf``: P(conservative) from TF-IDF words + logistic regression (see the module docstring)."""

    name = "ideology_tfidf"

    def __init__(self, labels: Sequence[str] = ("agree", "disagree"), *, corpus: str = ""):
        super().__init__(labels, corpus=corpus or "default")
        self.corpus = corpus or None

    def identity(self) -> str:
        """The corpus it is fitted on, resolved (``corpus=`` the shipped file is the default judge)."""
        if self.corpus:
            where = str(Path(self.corpus).expanduser().resolve())
        else:
            where = str(SHIPPED_CORPUS.resolve()) if SHIPPED_CORPUS.is_file() else "builtin:train"
        return f"ideology_tfidf:{where}"

    def preflight(self) -> None:
        if self.corpus and not Path(self.corpus).is_file():
            raise PolibenchError(f"ideology_tfidf: corpus={self.corpus}: no such file")

    def pipeline(self):
        key = self.corpus or ""
        if key not in _FITTED:
            texts, _ = partisan_corpus(self.corpus)
            _FITTED[key] = fit_tfidf_judge(texts)
        return _FITTED[key]

    def judge(self, texts: Sequence[str], progress=None) -> list[float]:
        if not len(texts):
            return []
        scores = self.pipeline().predict_proba([t or "" for t in texts])[:, 1].tolist()  # type: ignore[attr-defined]
        if progress:
            progress(len(scores))
        return scores
