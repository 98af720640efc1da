"""The scorers that read a model's answers, one folder per reading (what a scorer writes into each sample).

- :mod:`polibench.scorers.stance`: the stance scorers (agree / disagree ...): lexical phrases, NLI, a fine-tuned
  classifier, an LLM asked for a stance label, the masked-LM lexicon, ``abstain``, and the offline default
  ``embedded`` with its gold data, training, evaluation and plots;
- :mod:`polibench.scorers.ideology`: the ideology judges (a score in [0, 1], 0 liberal, 1 conservative): the
  judge interface, classifier and LLM judges, the TF-IDF guidance judge, the embedding + regression recipe and
  its corpus, and the offline default ``ideology``;
- :mod:`polibench.scorers.issue_stance`: IssueBench's stance grades: the paper's LLM grader and the offline
  ``issue`` scorer with its model, data and evaluation;
- :mod:`polibench.scorers.pair_grade`: Anthropic's paired-prompt graders and their prompts, verbatim.

The engine (the :class:`~polibench.scoring.base.StanceScorer` interface, the answer readers, the scoring stage and
the registry) is :mod:`polibench.scoring`, one layer below: it never imports a scorer. The built-in scorers are
declared in setup.cfg's entry-point group ``polibench.scorers``, as a plugin package declares its own. Within
this folder the graders build on the stance judge, never the other way (import-linter contract ``scorers``).
"""
