"""The stance scorers (a label per answer: agree, disagree, ... or none) and the offline default's recipe.

Scorers: ``lexical`` (stance phrases), ``nli`` (an entailment model), ``classifier`` (a fine-tuned checkpoint),
``judge`` (:mod:`~polibench.scorers.stance.llm_judge`: an LLM asked for a stance label), ``mask_lexicon`` (a
masked LM's fill-in), ``abstain`` (reads nothing), and ``embedded``, the offline default: a MiniLM classifier
trained on first use. The rest trains and measures them (``polibench stance train`` / ``polibench stance eval``):
the gold data (:mod:`~polibench.scorers.stance.data`), fine-tuning (:mod:`~polibench.scorers.stance.train`,
:mod:`~polibench.scorers.stance.train_top`: top layers on cached lower-layer states), evaluation tables, plots and
the restated-answer probes.
"""
