"""Downstream fairness (Feng et al. 2023): fine-tune classifiers for hate speech and misinformation, then
compare them per targeted identity, news source and party, and ensemble partisan models.

Stages, one module each: ``spec`` (task YAML schema) -> ``data`` (+ ``download``, ``sources``: load, clean,
split, cache) -> ``train`` (Trainer + RAdam, per seed, test probabilities) -> ``runs`` (read them) ->
``metrics`` / ``ensemble`` / ``evaluate`` (the evaluation JSON, typed in ``document``) -> ``compare`` (tables,
heatmaps). The leaderboard submission of an evaluation is :mod:`polibench.leaderboard.fairness_submit`; the
command line is :mod:`polibench.cli.fairness`; see docs/fairness.md.
"""
