"""Anthropic's paired-prompt graders (even-handedness, hedging, refusal of a pair of answers, 2025):
:mod:`~polibench.scorers.pair_grade.llm_grader` asks any backend with the prompts of
:mod:`~polibench.scorers.pair_grade.anthropic_prompts`, kept verbatim.
"""
