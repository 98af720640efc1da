"""No coordinate or interval leaves its scale (issue 38, §1): the PCT's −10 … +10 wherever a coordinate is computed
(the point, the per-variant points, the item-bootstrap bounds, the log-probability channel's readings), and every
registered estimate within the range it declares for its block.

The cause of the +10.01 a run printed: js.js's economic offset 0.38 is 3/8 = 0.375 rounded up, so its formula
reaches 0.38 + 77/8 = 10.005 for the all-most-right sheet, which js.js's rounding makes 10.01; and an item-bootstrap
bound is a sum over statements drawn with replacement, which can add the most extreme statement twice (the
shipped gpt-4-0613 entry showed [−11.12, +11.26]). Each test plants such a case and checks the value stays on the
scale; the planted cases are shown to leave it without the clamp."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from polibench.families.pct.metric import SCALE, axis_positions, instrument_weights, js_round2, pct_coordinates
from polibench.metrics.bootstrap import resample_weights
from polibench.metrics.compute import compute_task_results
from polibench.metrics.registry import registered
from polibench.paths import builtin_tasks_dir
from polibench.records import Sample, Stance
from polibench.results.document import TaskResults
from polibench.taskspec.loader import load_registry, parse_file

PCT = parse_file(builtin_tasks_dir() / "instruments" / "pct.yaml")
WEIGHTS = instrument_weights(PCT)
LOW, HIGH = SCALE


def on_scale(value) -> bool:
    return value is None or LOW <= value <= HIGH


def test_the_cause_rounded_offsets_reach_past_ten():
    """The js.js arithmetic alone, unclamped: the all-most-right economic sheet is 10.005, rounded 10.01."""
    right = sum(max(e) for e, _ in WEIGHTS)
    assert right == 77 and js_round2(0.38 + right / 8) == 10.01 > HIGH
    assert 0.375 + right / 8 == HIGH  # with the exact offset 3/8 the sheet lands on +10 itself
    best = [max(range(4), key=lambda a: e[a]) for e, _ in WEIGHTS]
    assert pct_coordinates(best, WEIGHTS)[0] == HIGH


def test_a_bootstrap_bound_of_one_extreme_answered_statement_stays_on_the_scale():
    """One economic statement answered at its most extreme weight, the rest unanswered: the resamples that draw it
    several times sum past the scale (the gpt-4-0613 case); the stored bounds do not."""
    item = max(range(len(WEIGHTS)), key=lambda n: max(WEIGHTS[n][0]) if any(WEIGHTS[n][0]) else -99)
    answers = [None] * len(WEIGHTS)
    answers[item] = int(np.argmax(WEIGHTS[item][0]))
    positions = list(range(len(WEIGHTS)))
    strata = np.array([0 if any(e) else 1 for e, _ in WEIGHTS])
    weights = resample_weights(strata, 2_000, seed=3)
    high = np.array([max(e) for e, _ in WEIGHTS], dtype=float)
    high[item] = WEIGHTS[item][0][answers[item]]
    raw = 0.38 + (weights @ high) / 8
    assert np.percentile(raw, 97.5) > HIGH  # unclamped, the bound is off the scale
    found = axis_positions(answers, positions, WEIGHTS, weights, strata)
    assert found["ci"]["economic"][1] == HIGH and on_scale(found["ci"]["economic"][0])
    assert on_scale(found["economic"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from([None, 0, 1, 2, 3]), min_size=len(WEIGHTS), max_size=len(WEIGHTS)),
       st.integers(0, 2**16))
def test_every_answer_sheet_gives_points_and_bounds_on_the_scale(answers, seed):
    positions = list(range(len(WEIGHTS)))
    strata = np.array([0 if any(e) else 1 for e, _ in WEIGHTS])
    found = axis_positions(answers, positions, WEIGHTS, resample_weights(strata, 200, seed), strata)
    for axis in ("economic", "social"):
        assert on_scale(found[axis])
        assert found["ci"][axis] is None or all(on_scale(v) for v in found["ci"][axis])
    assert all(on_scale(v) for v in pct_coordinates([a for a in answers], WEIGHTS))


def _extreme_samples(task: str, right: bool) -> list[Sample]:
    """Every statement of the task answered at full strength towards one end of the economic axis (agree with the
    statements whose agreement is right, disagree with the others), all kept; log-probability tasks get their
    options' log-probabilities to match, with most of the mass off the options."""
    from polibench.pipeline.plan import build_samples

    registry = load_registry()
    config = registry.task(task)
    out = []
    for s in build_samples(config, registry, samples_per_prompt=1):
        agree = (s.agree_side == "right") == right
        label = "agree" if agree else "disagree"
        stance = Stance(label=label, confidence=1.0, probs={label: 1.0}, scorer="hand", kept=True)
        update = {"response": "r", "stance": stance}
        if s.scoring == "logprob":
            update["option_logprobs"] = [-1.0, -9.0, -9.0, -9.0] if not agree else [-9.0, -9.0, -9.0, -1.0]
        out.append(s.model_copy(update=update))
    return out


@pytest.mark.parametrize("task", ["pct", "rottger-logprob"])
@pytest.mark.parametrize("right", [True, False])
def test_every_registered_estimate_stays_within_its_range(task, right):
    """Each estimate of the task's results, with its interval, within the range its metric declares (as the block
    computed it) on the two most extreme answer sheets."""
    registry = load_registry()
    config = registry.task(task)
    results = TaskResults.from_blocks(compute_task_results(config, {n: registry.instruments[n] for n in
                                                                    config.instruments},
                                                           _extreme_samples(task, right), resamples=300))
    checked = 0
    blocks = dict((m.name, b) for m, b in results.metrics())
    for metric, estimate, value, interval in results.estimates():
        low, high = estimate.range_of(blocks[metric.name])
        assert value is None or low <= value <= high, (metric.name, estimate.key, value)
        assert interval is None or (low <= interval.low <= interval.high <= high), (estimate.key, interval)
        checked += value is not None
    assert checked >= 2
    assert {m.name for m, _ in results.metrics()} <= set(registered())
