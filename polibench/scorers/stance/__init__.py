"""Stance-scorer training and validation: gold data loading, fine-tuning, evaluation tables and plots.

The generic scorers live in :mod:`polibench.scoring`; this package trains and measures them
(``polibench stance train`` / ``polibench stance eval``) and holds the one scorer that is a training
recipe, the embedded offline default (:mod:`polibench.stance.embedded`, registered by name as
``embedded``). It sits above the scoring layer: it may import :mod:`polibench.scoring`, never the reverse.
"""
