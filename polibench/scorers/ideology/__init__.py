"""Ideology judges (a text's score in [0, 1], 0 liberal, 1 conservative: Liu et al. 2022's f_judge).

:mod:`~polibench.scorers.ideology.judges` holds the :class:`IdeologyScorer` interface and the classifier and LLM
judges; :mod:`~polibench.scorers.ideology.tfidf` the TF-IDF guidance judge of ``polibench debias``;
:mod:`~polibench.scorers.ideology.recipe` the embedding + logistic-regression recipe, trained on the corpus of
:mod:`~polibench.scorers.ideology.corpus` (polibench's own material or a user's); and
:mod:`~polibench.scorers.ideology.embedded` the offline default ``ideology`` scorer built on it.
"""
