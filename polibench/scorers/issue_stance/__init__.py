"""IssueBench's stance grades of a written answer on an issue (Röttger et al. 2025's 1-5 scale and ``refusal``).

:mod:`~polibench.scorers.issue_stance.llm_grader` is the paper's grader (its template, verbatim, through any
backend); :mod:`~polibench.scorers.issue_stance.embedded` the offline ``issue`` scorer, with its model
(:mod:`~polibench.scorers.issue_stance.model`), training data (:mod:`~polibench.scorers.issue_stance.data`) and
evaluation (:mod:`~polibench.scorers.issue_stance.evaluate`).
"""
