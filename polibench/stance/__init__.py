"""Stance-scorer training and validation: gold data loading, fine-tuning, evaluation tables and plots.

The scorers themselves live in :mod:`polibench.scoring`; this package trains and measures them
(``polibench stance train`` / ``polibench stance eval``).
"""
