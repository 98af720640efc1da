"""Which requests a shard of a run answers (``polibench run --shard i/N``): a share chosen by cache key.

A request belongs to shard ``i`` of ``N`` when the first 16 hex digits of its cache key, read as a number, leave
remainder ``i`` when divided by ``N``. The key (:mod:`polibench.cache.keys`) covers the model identity, the
generation settings, the prompt and the sample's seed (a log-probability request: the model, prompt and
options), so the split depends on nothing a machine, a batch or an order could change: N machines given the
same command, each with its own ``i``, answer every request exactly once between them. Shards are numbered
from 0 (``0/3``, ``1/3``, ``2/3``), as a SLURM array numbered from 0 gives ``$SLURM_ARRAY_TASK_ID``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from polibench.cache.keys import choice_key, request_key
from polibench.errors import PolibenchError
from polibench.models.choice_stage import LOGPROB
from polibench.models.stage import prompt_of
from polibench.records import GenerationSettings, Prompt, Sample

SPEC = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")


@dataclass(frozen=True)
class Shard:
    """Shard ``index`` of ``count`` (0 <= index < count)."""

    index: int
    count: int

    @classmethod
    def parse(cls, text: str) -> Shard:
        """``"i/N"`` -> ``Shard(i, N)``; anything else is one error naming what was expected."""
        match = SPEC.match(text or "")
        if not match:
            raise PolibenchError(f"--shard: expected i/N with whole numbers, 0 <= i < N (e.g. 0/3), got {text!r}")
        index, count = int(match.group(1)), int(match.group(2))
        if count < 1 or index >= count:
            raise PolibenchError(f"--shard: expected i/N with 0 <= i < N (shards are numbered from 0), got {text!r}")
        return cls(index, count)

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    def holds(self, key: str) -> bool:
        """Whether the request with cache key ``key`` (hex SHA-256) is this shard's."""
        return int(key[:16], 16) % self.count == self.index

    def select(self, samples: list[Sample], identity: dict, settings: GenerationSettings) -> list[Sample]:
        """The samples whose requests are this shard's, in their order."""
        return [s for s in samples if self.holds(sample_key(s, identity, settings))]


def sample_key(sample: Sample, identity: dict, settings: GenerationSettings) -> str:
    """The cache key of a sample's request: a generation's (:func:`request_key`), or for a ``scoring: logprob``
    sample its option-scoring request's (:func:`choice_key`; the same for every sample of one prompt)."""
    if sample.scoring == LOGPROB:
        prompt = Prompt(text=sample.prompt, seed=0, messages=tuple(sample.messages) if sample.messages else None)
        return choice_key(identity, prompt, list(sample.options or []))
    return request_key(identity, settings, prompt_of(sample))
