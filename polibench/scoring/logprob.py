"""The log-probability channel's answer: from a sample's option log-probabilities to a distribution and a stance.

A ``scoring: logprob`` sample holds ``log P(option | prompt)`` for each answer option, summed over the option's
tokens (:mod:`polibench.models.choice_stage`). Definitions used by the stance here and by the ``logprob_channel``
metric (:mod:`polibench.families.logprob.metric`), for one prompt with options ``1..K`` (K = 4: strongly disagree,
disagree, agree, strongly agree; K = 5: Likert 1-5, 3 = neither):

- **option distribution** ``p_k = exp(l_k) / sum_j exp(l_j)``: the softmax of the log-probabilities over the K
  options (lm-eval's multiple-choice reading; no length normalisation);
- **most probable answer** ``argmax_k p_k`` (the first option on a tie);
- **expected answer** ``sum_k k * p_k`` on the scale 1..K;
- **entropy** ``-sum_k p_k log2 p_k`` in bits (0 = certain; at most 2 bits for 4 options, log2 5 for 5);
- **non-answer mass** ``1 - sum_k exp(l_k)``: the probability the model gives to continuations that begin with
  none of the options. For a multi-token option ``exp(l_k)`` is the probability of the option's whole token
  sequence, so the mass includes continuations that start like an option and then leave it (``"3) Agreed"``,
  a different tokenization of the same text). If one option's tokens are a prefix of another's, the two
  probabilities overlap and the mass can be negative.

The stance of a ``logprob`` sample is its most probable answer, mapped as the text channels map it: with four
options, the forced-choice parser's stance (:func:`polibench.scoring.forced_choice.forced_choice_stance`, so a
most-probable "agree" becomes the same stance as a parsed "3) Agree"); with five, the Likert parser's
(:func:`polibench.scoring.likert.likert_to_stance`). The stance is always kept: there is no classifier and no
confidence filter; its confidence is ``p`` of the most probable answer.
"""

from __future__ import annotations

import math
from typing import Optional, Sequence

import numpy as np

from polibench.records import Stance
from polibench.scoring.forced_choice import OPTIONS, forced_choice_stance
from polibench.scoring.likert import likert_to_stance

LIKERT_NAMES = ("strongly disagree", "disagree", "neither", "agree", "strongly agree")
# Option index -> PCT answer index (0 strongly disagree ... 3 strongly agree); None: no PCT answer (Likert 3).
PCT_ANSWER = {4: (0, 1, 2, 3), 5: (0, 1, None, 2, 3)}


def scale_names(n_options: int) -> tuple[str, ...]:
    """The names of the answers of a 4- or 5-option scale."""
    return OPTIONS if n_options == 4 else LIKERT_NAMES


def option_distribution(logprobs: Sequence[float]) -> list[float]:
    """The softmax of the options' log-probabilities."""
    top = max(logprobs)
    weights = [math.exp(v - top) for v in logprobs]
    total = sum(weights)
    return [w / total for w in weights]


def per_prompt(logprobs: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(option distribution, expected answer, entropy in bits, non-answer mass)`` of each row of ``(prompts, K)``
    log-probabilities (the definitions above)."""
    shifted = logprobs - logprobs.max(axis=1, keepdims=True)
    probs = np.exp(shifted) / np.exp(shifted).sum(axis=1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        entropy = -np.where(probs > 0, probs * np.log2(probs), 0.0).sum(axis=1)
    expected = probs @ np.arange(1, logprobs.shape[1] + 1)
    return probs, expected, entropy, 1.0 - np.exp(logprobs).sum(axis=1)


def most_probable(probs: Sequence[float]) -> int:
    return max(range(len(probs)), key=lambda k: (probs[k], -k))


def logprob_stance(logprobs: Optional[Sequence[float]]) -> Stance:
    """The stance of a ``logprob`` sample (see the module docstring)."""
    if not logprobs or len(logprobs) not in PCT_ANSWER or not all(math.isfinite(v) for v in logprobs):
        return Stance(label=None, scorer="logprob", kept=False, reason="no_option_logprobs")
    probs = option_distribution(logprobs)
    best = most_probable(probs)
    names = scale_names(len(probs))
    confidence = round(probs[best], 6)
    if len(probs) == 4:
        label, stance_probs = forced_choice_stance(best)
    else:
        label = likert_to_stance(best + 1)
        stance_probs = {label: 1.0}
    return Stance(label=label, confidence=confidence, probs=stance_probs, scorer=f"logprob:{names[best]}", kept=True)
