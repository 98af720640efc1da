"""Shared pieces of ``score_choices``: the surface forms an option is scored as, which tokens of
``context + option`` belong to the option, and how answer options are read from an API's next-token top-k list.

**Surface forms.** After a context that ends without whitespace (a chat template's assistant prefix such as
Llama-2's and Mistral's ``[/INST]``), a model's natural first token carries a leading space, so an option
``"3) Agree"`` is scored as both ``" 3) Agree"`` and ``"3) Agree"``, and the two probabilities are added
(logsumexp of the log-probabilities), as OpinionQA (Santurkar et al. 2023) reads ``" X"`` and ``"X"``. After
a context that ends in whitespace (ChatML's ``"<|im_start|>assistant\n"``), or for an option that begins with
whitespace, the option is scored as it is (:func:`option_forms`).

**Tokens.** Tokenizers may merge across the boundary between context and option, so the option's tokens are
taken from the tokenization of the whole string when its first tokens are exactly the context's; otherwise (a
merge across the boundary) the option is tokenized on its own and appended, as lm-eval does.

:data:`SCORING_REVISION` names this definition; it is part of the option-score cache key.
"""

from __future__ import annotations

import math
import re
from typing import Callable, Sequence

from polibench.errors import BackendError

Encode = Callable[[str], list[int]]

# 1: each option as given, nothing added; 2: the leading-space form added after a context ending without whitespace
SCORING_REVISION = 2


def option_forms(context: str, option: str) -> list[str]:
    """The continuations ``option`` is scored as after ``context`` (see the module docstring): ``[" " + option,
    option]`` when the context ends without whitespace and the option begins without it, else ``[option]``."""
    if context and not context[-1].isspace() and option and not option[0].isspace():
        return [" " + option, option]
    return [option]


def expand_forms(context: str, options: Sequence[str]) -> tuple[list[str], list[int]]:
    """Every surface form of every option, flat, and how many forms each option has (for :func:`combine_forms`)."""
    forms = [option_forms(context, option) for option in options]
    return [form for group in forms for form in group], [len(group) for group in forms]


def combine_forms(logprobs: Sequence[float], counts: Sequence[int]) -> list[float]:
    """Per option, the logsumexp of its forms' log-probabilities (``logprobs`` flat, as :func:`expand_forms`
    lists the forms)."""
    import numpy as np

    out, at = [], 0
    for count in counts:
        out.append(float(np.logaddexp.reduce(np.asarray(logprobs[at:at + count], dtype=np.float64))))
        at += count
    return out


def split_continuation(encode_context: Encode, encode_option: Encode, context: str,
                       option: str) -> tuple[list[int], list[int]]:
    """``(context_ids, option_ids)`` such that ``context_ids + option_ids`` is what the model reads."""
    context_ids = list(encode_context(context))
    whole = list(encode_context(context + option))
    if whole[:len(context_ids)] == context_ids:
        return context_ids, whole[len(context_ids):]
    return context_ids, list(encode_option(option))


def check_options(prompts: Sequence, options: Sequence[Sequence[str]], backend: str) -> None:
    if len(prompts) != len(options):
        raise BackendError(f"{backend}: score_choices got {len(prompts)} prompts but {len(options)} option lists")


# -- answer options from a top-k list (APIs that return only the next token's top log-probabilities) ----------

MISSING_FLOOR = 1e-12  # the probability a missing option gets when the top-k list already holds all the mass


def option_label(option: str) -> str:
    """The token an answer option is picked by in a top-k list: its leading label (``"1"`` of ``"1) Strongly
    disagree"``, ``"A"`` of ``"A. Yes"``), else its first word."""
    text = option.strip()
    match = re.match(r"[^\W_]+", text)
    return match.group(0) if match else (text.split() or [""])[0]


def option_labels(options: Sequence[str], backend: str) -> list[str]:
    """:func:`option_label` of each option; one error when two options share a label (the next token alone
    could not tell them apart)."""
    labels = [option_label(option) for option in options]
    for i, label in enumerate(labels):
        if not label or labels.index(label) != i:
            raise BackendError(f"{backend}: answer options {list(options)} cannot be told apart by their first "
                               "token (give each a distinct leading label such as '1)' or 'A.')")
    return labels


def logprobs_from_top(top: dict[str, float], labels: Sequence[str]) -> tuple[list[float], list[bool]]:
    """Per label, its log-probability read from a next-token top-k list ``top`` (token -> log-probability), and
    whether it was missing from the list, by OpinionQA's rule (Santurkar et al. 2023): a label's probability is
    the sum over the listed tokens that spell it (here: any token equal to it once surrounding whitespace is
    stripped, which includes OpinionQA's ``"X"`` and ``" X"``), as the other backends add an option's surface
    forms (:func:`option_forms`); each of the ``n`` labels missing from the list gets
    ``min(smallest listed probability, (1 - listed mass) / n)``, floored at :data:`MISSING_FLOOR`."""
    if not top:
        raise ValueError("empty top-k list")
    spellings: dict[str, list[float]] = {}
    for token, value in top.items():
        key = token.strip()
        if key in labels:
            spellings.setdefault(key, []).append(value)
    best = {key: combine_forms(values, [len(values)])[0] for key, values in spellings.items()}
    misses = [label not in best for label in labels]
    if any(misses):
        listed = [math.exp(value) for value in top.values()]
        remaining = max(0.0, 1.0 - sum(listed))
        fill = math.log(max(min(min(listed), remaining / sum(misses)), MISSING_FLOOR))
    return [best[label] if label in best else fill for label in labels], misses
