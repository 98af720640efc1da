"""The ETA estimator (polibench.models.eta): its arithmetic, and its claim on a simulated batched backend: from
5% of a run and its first whole batch on, the remaining time it shows is within a factor of 2 of the true
remaining time (while more than a batch's time is left). The simulation decodes static batches of 16
sequences of mixed lengths, as the llamacpp backend does, so responses finish in bursts; a moving-rate
estimator, and an average taken at every response, fail the same check."""

from __future__ import annotations

import io
import random

import pytest

from polibench.models.eta import EtaBar, EtaEstimator, duration


def test_reused_responses_take_no_time_and_are_left_out_of_the_rate():
    eta = EtaEstimator(total=200, cached=100)
    assert eta.remaining() is None and eta.seconds_per_response() is None  # nothing measured, no prior
    eta.update(done=110, reused=100, elapsed=20.0)  # 10 generated in 20 s
    assert eta.seconds_per_response() == pytest.approx(2.0)
    assert eta.to_generate == 90 and eta.remaining() == pytest.approx(180.0)
    eta.update(done=110, reused=60, elapsed=20.0)  # 40 cached ones still to come: they cost nothing
    assert eta.to_generate == 50 and eta.remaining() == pytest.approx(50 * 20.0 / 50)
    eta.update(done=200, reused=100, elapsed=200.0)
    assert eta.remaining() == 0.0


def test_a_prior_carries_the_start_and_the_measurement_takes_over():
    eta = EtaEstimator(total=1000, prior_seconds=1.0)  # the prior weighs 2% of the run: 20 responses
    assert eta.prior_weight == 20 and eta.remaining() == pytest.approx(1000.0)
    eta.update(done=20, reused=0, elapsed=60.0)  # 3 s per response measured, as many as the prior's weight
    assert eta.seconds_per_response() == pytest.approx((60 + 20) / 40)
    eta.update(done=500, reused=0, elapsed=1500.0)
    assert eta.seconds_per_response() == pytest.approx((1500 + 20) / 520)


def test_warm_up_is_the_first_five_percent_of_the_generated_responses():
    eta = EtaEstimator(total=620, cached=20)
    eta.update(done=49, reused=20, elapsed=1.0)
    assert not eta.warmed_up()
    eta.update(done=50, reused=20, elapsed=1.0)  # 30 = 5% of 600
    assert eta.warmed_up()
    batched = EtaEstimator(total=100, batch=16)  # 5% is 5 responses, but a whole batch is 16
    batched.update(done=15, reused=0, elapsed=30.0)
    assert not batched.warmed_up() and batched.remaining() is None  # no whole batch yet: no measured rate
    batched.update(done=16, reused=0, elapsed=32.0)
    # 100 responses are 7 batches of 16, the last of 4 counted whole: 112 slots, 96 of them left
    assert batched.warmed_up() and batched.remaining() == pytest.approx(96 * 2.0)
    batched.update(done=20, reused=0, elapsed=60.0)  # inside the next batch: the rate of the whole one holds
    assert batched.remaining() == pytest.approx(92 * 2.0)


def test_duration_reads_like_a_plan():
    assert [duration(s) for s in (0.4, 45, 60, 440, 3599, 3725)] == \
        ["0 s", "45 s", "1 min 00 s", "7 min 20 s", "59 min 59 s", "1 h 02 min"]


def test_the_bar_shows_the_estimators_time_left_even_when_hidden():
    eta = EtaEstimator(total=100, prior_seconds=2.0)
    with EtaBar(total=100, disable=True, estimator=eta) as bar:
        bar.update(10)
        assert eta.done == 10  # counted although tqdm itself counts nothing when disabled
    shown = EtaBar(total=100, disable=False, estimator=EtaEstimator(total=100, prior_seconds=2.0), file=io.StringIO())
    shown.update(0)
    values = shown.format_dict
    assert (values["total"] - values["n"]) / values["rate"] == pytest.approx(200.0, rel=0.01)
    shown.close()


def batched_run(n: int, batch: int = 16, seed: int = 0, max_tokens: int = 200) -> list[float]:
    """Finishing times of ``n`` responses decoded ``batch`` at a time: a step costs 30 ms plus 4 ms per active
    sequence; lengths are 20..150 tokens, or the maximum for a third of them (they never stop)."""
    rng = random.Random(seed)
    lengths = [max_tokens if rng.random() < 1 / 3 else rng.randint(20, 150) for _ in range(n)]
    now, finished = 0.0, []
    for start in range(0, n, batch):
        group = sorted(lengths[start:start + batch])
        step = 0
        for i, length in enumerate(group):
            active = len(group) - i
            now += (length - step) * (0.030 + 0.004 * active)
            step = length
            finished.append(now)
    return finished


def worst_ratio(finished: list[float], estimate, batch: int = 16) -> float:
    """The largest factor between shown and true remaining time, from 5% of the run and its first whole batch
    on, while more than one batch's time remains."""
    total, end, worst = len(finished), finished[-1], 1.0
    for done, now in enumerate(finished, start=1):
        left_true = end - now
        shown = estimate(done, now)
        if done < max(0.05 * total, batch) or left_true < 12.0:
            continue
        worst = max(worst, shown / left_true, left_true / shown)
    return worst


@pytest.mark.parametrize("prior_factor", [None, 1.0, 3.0, 1 / 3])
@pytest.mark.parametrize("n", [620, 200, 2000, 50])
def test_from_five_percent_on_the_eta_is_within_a_factor_of_two(n, prior_factor):
    finished = batched_run(n, seed=n)
    true_per_response = finished[-1] / n
    eta = EtaEstimator(total=n, prior_seconds=None if prior_factor is None else prior_factor * true_per_response,
                       batch=16)

    def estimate(done, now):
        eta.update(done, 0, now)
        return eta.remaining()

    assert worst_ratio(finished, estimate) <= 2.0


def test_the_check_fails_a_moving_rate_estimator():
    """The same check on the rate between the last two completions (what a fast-moving average shows), and on
    the average since the start taken at every response rather than at whole batches."""
    finished = batched_run(620, seed=620)

    def last_rate(done, now):
        before = finished[done - 2] if done >= 2 else 0.0
        return (len(finished) - done) * max(now - before, 1e-6)

    assert worst_ratio(finished, last_rate) > 2.0
    small = batched_run(50, seed=50)  # 4 batches: a run whose 5% ends inside its first batch
    per_response = EtaEstimator(total=50)  # batch 1: the rate at every response

    def average(done, now):
        per_response.update(done, 0, now)
        return per_response.remaining()

    assert worst_ratio(small, average, batch=1) > 2.0
