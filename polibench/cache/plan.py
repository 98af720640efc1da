"""The plan `polibench run` prints before it generates: requests, expected tokens and an ETA per task.

The ETA comes from the speed this backend identity showed in an earlier run (:mod:`polibench.cache.speed`,
kept in the cache folder) or, with no record, from the first 5% of the run itself: the plan says so, and a
line with the measured ETA follows when that share is done. Responses already in the response cache take no
time and are counted apart. After generation the measured speed is recorded for the next run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

from polibench.cache.speed import Speed, generation_key, read_speed, record_speed
from polibench.models.base import ModelBackend
from polibench.models.choice_stage import LOGPROB
from polibench.models.eta import EtaEstimator, decode_batch, duration, whole_batches
from polibench.models.stage import prompt_of
from polibench.records import GenerationSettings, Sample


@dataclass
class GenerationPlan:
    """What one task will ask of the backend, and how long that should take."""

    task: str
    requests: int  # responses to generate or reuse
    prompts: int  # distinct prompt texts among them
    cached: int  # already in the response cache
    option_requests: int  # scoring:logprob requests (option scoring, not generation)
    max_new_tokens: int
    speed: Optional[Speed]
    key: str
    batch: int = 1  # sequences the backend decodes together (polibench.models.eta.decode_batch)

    @property
    def to_generate(self) -> int:
        return self.requests - self.cached

    def expected_seconds(self) -> Optional[float]:
        """The recorded seconds per response times the responses to generate, the last batch counted whole
        (:func:`polibench.models.eta.whole_batches`)."""
        return None if self.speed is None else self.speed.seconds * whole_batches(self.to_generate, self.batch)

    def expected_tokens(self) -> Optional[float]:
        if self.speed is None or self.speed.tokens is None:
            return None
        return self.speed.tokens * self.to_generate

    def estimator(self) -> EtaEstimator:
        return EtaEstimator(self.requests, self.cached, None if self.speed is None else self.speed.seconds,
                            batch=self.batch)

    def lines(self) -> list[str]:
        """The plan's lines for this task (without the ``polibench: `` prefix)."""
        if not self.requests:
            return [f"{self.task}: {self.option_requests:,} option-scoring requests (log-probabilities of the "
                    "answer options; no ETA for these)"]
        first = (f"{self.task}: {self.requests:,} requests ({self.prompts:,} distinct prompts), at most "
                 f"{self.max_new_tokens:,} new tokens each")
        if self.cached:
            first += f"; {self.cached:,} already in the response cache, {self.to_generate:,} to generate"
        if self.option_requests:
            first += f"; and {self.option_requests:,} option-scoring requests (not in the ETA)"
        lines = [first]
        if self.to_generate == 0:
            return lines
        tokens = self.expected_tokens()
        expected = (f"about {tokens:,.0f} new tokens ({self.speed.tokens:.0f} per response)" if tokens is not None
                    and self.speed is not None and self.speed.tokens is not None else
                    f"at most {self.to_generate * self.max_new_tokens:,} new tokens")
        seconds = self.expected_seconds()
        if seconds is not None and self.speed is not None:
            lines.append(f"{self.task}: expected {expected}, ETA about {duration(seconds)} "
                         f"({self.speed.describe('response')}, on this backend)")
        else:
            share = self.estimator().warm_up_size()
            lines.append(f"{self.task}: expected {expected}; no speed recorded for this backend yet: "
                         f"ETA after the first {'response' if share == 1 else f'{share} responses'}")
        return lines

    def warm_line(self, estimator: EtaEstimator) -> str:
        """Printed once the first 5% are generated: what they took and what is left."""
        left = estimator.remaining() or 0.0
        return (f"{self.task}: the first {estimator.generated} generated responses took "
                f"{duration(estimator.elapsed)}: ETA about {duration(left)} for the remaining "
                f"{estimator.to_generate:,}")


def plan_generation(task: str, samples: list[Sample], backend: ModelBackend,
                    settings: GenerationSettings) -> GenerationPlan:
    """Count the task's requests and look up the cache and the recorded speed (no model call)."""
    generate = [s for s in samples if s.scoring != LOGPROB]
    prompts = [prompt_of(s) for s in generate]
    count: Optional[Callable] = getattr(backend, "cached_count", None)
    cached = count(prompts, settings) if count is not None and prompts else 0
    key = generation_key(backend.cache_identity(), settings.max_new_tokens)
    return GenerationPlan(task=task, requests=len(generate), prompts=len({p.text for p in prompts}), cached=cached,
                          option_requests=len(samples) - len(generate), max_new_tokens=settings.max_new_tokens,
                          speed=read_speed(key), key=key, batch=decode_batch(backend))


def record_generation(plan: GenerationPlan, estimator: EtaEstimator, generated: list[Sample],
                      backend_name: str) -> Optional[Speed]:
    """Keep the speed measured by ``estimator`` (seconds and completion tokens per generated response)."""
    if estimator.generated < 1:
        return None
    responses = [s for s in generated if s.scoring != LOGPROB]
    tokens = [s.usage.completion_tokens for s in responses
              if s.usage is not None and s.usage.completion_tokens is not None]
    # per response of this setting, over every response (a reused one was generated the same way)
    mean_tokens = sum(tokens) / len(tokens) if tokens and len(tokens) == len(responses) else None
    return record_speed(plan.key, estimator.elapsed, estimator.generated, tokens=mean_tokens,
                        what=f"{backend_name}: {plan.task}, max_new_tokens={plan.max_new_tokens}")
