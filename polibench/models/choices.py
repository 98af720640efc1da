"""Shared piece of ``score_choices``: which tokens of ``context + option`` belong to the option.

Tokenizers may merge across the boundary between context and option, so the option's tokens are taken from
the tokenization of the whole string when its first tokens are exactly the context's; otherwise (a merge
across the boundary) the option is tokenized on its own and appended, as lm-eval does.
"""

from __future__ import annotations

from typing import Callable, Sequence

from polibench.errors import BackendError

Encode = Callable[[str], list[int]]


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
