"""Reducing the political bias of free generation: Liu et al. 2022's Algorithm 1 (reinforced calibration of the
hidden state at decoding time, :mod:`polibench.debias.liu`); polibench's GRPO fine-tuning of the weights on TRL
with a KL penalty to the reference model (:mod:`polibench.debias.calibrate`; rewards in the spirit of Liu's
two modes: word-embedding distances to liberal and conservative word lists, or an ideology judge); a
training-free rerank-by-judge baseline; and the perplexity of held-out text for the before/after table."""
