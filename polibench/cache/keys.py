"""Cache keys: SHA-256 over model identity, generation settings, prompt (text and messages) and sample seed;
for ``score_choices``, over model identity, prompt and options (:func:`choice_key`).

The number of samples per prompt and the run seed are not part of the key: each sample has its own seed
(derived from the run seed and the sample's identity), so raising ``--samples`` from 3 to 5 reuses the
first three responses and generates two more.
"""

from __future__ import annotations

import hashlib
import json

from polibench.models.choices import SCORING_REVISION
from polibench.records import GenerationSettings, Prompt

KEY_VERSION = 1


def settings_part(settings: GenerationSettings) -> dict:
    """The settings that change a single response (``samples`` and the run ``seed`` do not)."""
    return {"max_new_tokens": settings.max_new_tokens, "temperature": settings.temperature,
            "top_k": settings.top_k, "top_p": settings.top_p, "stop": list(settings.stop)}


def canonical(value) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)


def identity_key(identity: dict) -> str:
    return hashlib.sha256(canonical(identity).encode()).hexdigest()


def request_key(identity: dict, settings: GenerationSettings, prompt: Prompt) -> str:
    payload = {
        "v": KEY_VERSION,
        "model": identity,
        "settings": settings_part(settings),
        "prompt": prompt.text,
        "messages": [m.model_dump() for m in prompt.messages] if prompt.messages else None,
        "seed": prompt.seed,
    }
    return hashlib.sha256(canonical(payload).encode()).hexdigest()


def choice_key(identity: dict, prompt: Prompt, options: list[str]) -> str:
    """The key of one ``score_choices`` request: model identity, prompt (text and messages), the options in
    order, and :data:`~polibench.models.choices.SCORING_REVISION` (how options are scored). The seed does not
    matter (nothing is sampled)."""
    payload = {
        "v": KEY_VERSION,
        "kind": "score_choices",
        "scoring": SCORING_REVISION,
        "model": identity,
        "prompt": prompt.text,
        "messages": [m.model_dump() for m in prompt.messages] if prompt.messages else None,
        "options": list(options),
    }
    return hashlib.sha256(canonical(payload).encode()).hexdigest()
