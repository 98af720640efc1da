"""Ideology judges trained and measured by polibench: the corpus (polibench's own material or a user's),
the embedding + logistic-regression recipe, and the offline default ``ideology`` scorer."""
