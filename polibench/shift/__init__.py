"""How a model's measured position moves: paired shifts between runs and persona separation within a run.

- :mod:`polibench.shift.compute`: ``polibench shift BASE_RUN RUN ...``: each run against the base run on the
  statements both answered, with paired intervals and a no-shift test (:mod:`polibench.shift.paired`);
- :mod:`polibench.shift.persona`: the persona control: left persona against right persona (and each against
  the neutral prompt) within one run, and whether they separate;
- :mod:`polibench.shift.render`: the markdown tables, shift.json and the figures (compass arrows, trajectory).
"""
