"""How long the rest of a generation will take: the estimator behind the progress bar's ETA and the plan lines.

:class:`EtaEstimator` estimates the seconds per *generated* response as the time spent so far over the
responses generated so far (responses reused from the response cache take no time and are left out of both),
shrunk towards a prior when there is one (the speed this backend showed in an earlier run, kept in the cache
folder by :mod:`polibench.cache.speed`): the prior counts as ``prior_weight`` responses, 2% of the run by
default, so it carries the first seconds and the measurement takes over soon after. An average since the start
rather than a moving average, and taken at the last whole batch: batched backends finish their responses in
bursts (16 sequences decoded together end at different steps, the batch when its longest ends), where the rate
between two updates swings by orders of magnitude and the first responses of a batch say little about it. The
time left counts the last batch whole: it takes about as long as a full one (the decoding steps cost the time),
which matters most to small runs (a 10-response run is one batch, not 10/16 of one).
``tests/models/test_eta.py`` simulates such bursts and checks the ETA stays within a factor of 2 of the truth
after the first 5% of a run; ``benchmarks/bench_eta.py`` checks it on the embedded model.

:class:`EtaBar` is a tqdm bar whose remaining time comes from an estimator.
"""

from __future__ import annotations

import math
import time
from typing import Callable, Optional

from tqdm.auto import tqdm

WARMUP_SHARE = 0.05  # the share of a run after which its ETA is claimed to be within a factor of 2
PRIOR_SHARE = 0.02  # the weight of a recorded speed, as a share of the run's generated responses


class EtaEstimator:
    """Remaining seconds of a run of ``total`` requests, ``cached`` of which are expected from the response cache.

    ``update(done, reused, elapsed)``: ``done`` requests answered so far, ``reused`` of them from the cache,
    ``elapsed`` seconds since generation started. ``batch``: sequences the backend decodes together; its
    responses finish in bursts, so the measured rate is taken at the last whole batch (the time when the
    generated count last reached a multiple of ``batch``), and the ETA is claimed only from the first whole
    batch on."""

    def __init__(self, total: int, cached: int = 0, prior_seconds: Optional[float] = None,
                 prior_weight: Optional[float] = None, batch: int = 1):
        if total < 0 or not 0 <= cached <= total:
            raise ValueError(f"EtaEstimator: need 0 <= cached <= total (got {cached}, {total})")
        self.total, self.cached, self.batch = total, cached, max(1, int(batch))
        self.prior_seconds = prior_seconds if prior_seconds and prior_seconds > 0 else None
        self.prior_weight = (max(1.0, PRIOR_SHARE * (total - cached)) if prior_weight is None else prior_weight)
        self.done = self.reused = 0
        self.elapsed = 0.0
        self.measured = (0, 0.0)  # generated responses and seconds at the last whole batch

    @property
    def generated(self) -> int:
        return self.done - self.reused

    @property
    def to_generate(self) -> int:
        """Requests still to generate: not answered yet, less the cached ones not handed over yet."""
        return max(0, self.total - self.done - max(0, self.cached - self.reused))

    def update(self, done: int, reused: int, elapsed: float) -> None:
        self.done, self.reused, self.elapsed = done, min(reused, done), max(0.0, elapsed)
        whole = self.generated - self.generated % self.batch
        if whole > self.measured[0] or (self.to_generate == 0 and self.generated > self.measured[0]):
            self.measured = (self.generated, self.elapsed)

    def seconds_per_response(self) -> Optional[float]:
        """Seconds per generated response at the last whole batch, shrunk towards the prior (None with
        neither a prior nor a whole batch)."""
        count, seconds = self.measured
        if self.prior_seconds is None:
            return seconds / count if count else None
        return (seconds + self.prior_weight * self.prior_seconds) / (count + self.prior_weight)

    def remaining(self) -> Optional[float]:
        """Seconds left (None when unknown): the seconds per response times the responses left, the last batch
        counted whole (a batch of 4 sequences takes about as many decoding steps as one of 16; the steps, not the
        sequences, cost the time)."""
        if self.to_generate == 0:
            return 0.0
        per = self.seconds_per_response()
        return None if per is None else per * (whole_batches(self.generated + self.to_generate, self.batch)
                                                - self.generated)

    def warm_up_size(self) -> int:
        """Generated responses the ETA's factor-of-2 claim needs: 5% of those to generate, and a whole batch."""
        share = max(1, math.ceil(WARMUP_SHARE * (self.total - self.cached)))
        return min(max(share, self.batch), self.total - self.cached)

    def warmed_up(self) -> bool:
        return self.measured[0] >= self.warm_up_size()


def whole_batches(responses: int, batch: int) -> int:
    """``responses`` rounded up to whole batches of ``batch`` (the slots a batched backend decodes)."""
    return -(-responses // batch) * batch if batch > 1 else responses


def duration(seconds: float) -> str:
    """``'7 min 20 s'``, ``'45 s'``, ``'1 h 05 min'``: rounded to what a person plans with."""
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


def decode_batch(backend) -> int:
    """Sequences ``backend`` (or the backend a caching wrapper holds) decodes together; 1 when it does not say."""
    size = getattr(getattr(backend, "backend", backend), "batch_size", 1)
    return size if isinstance(size, int) and size > 0 else 1


class EtaBar(tqdm):
    """A tqdm bar whose ETA is ``estimator``'s: ``reused()`` says how many of the bar's updates came from the
    response cache. ``on_warm(estimator)`` is called once, when the estimator has warmed up."""

    def __init__(self, *args, estimator: EtaEstimator, reused: Callable[[], int] = lambda: 0,
                 on_warm: Optional[Callable[[EtaEstimator], None]] = None, **kwargs):
        self.estimator, self._reused, self._on_warm = estimator, reused, on_warm
        self._started, self._count = time.perf_counter(), 0
        super().__init__(*args, **kwargs)

    def update(self, n: float | None = 1) -> bool | None:
        self._count += int(n or 0)  # counted here too: a disabled tqdm (--no-progress) counts nothing
        self.estimator.update(self._count, self._reused(), time.perf_counter() - self._started)
        shown = super().update(n)
        if self._on_warm is not None and self.estimator.warmed_up():
            on_warm, self._on_warm = self._on_warm, None
            on_warm(self.estimator)
        return shown

    @property
    def format_dict(self):
        values = super().format_dict
        left = self.estimator.remaining()
        if left and self.total and self.total > self.n:
            values["rate"] = (self.total - self.n) / left  # tqdm shows (total - n) / rate as the time left
        return values
