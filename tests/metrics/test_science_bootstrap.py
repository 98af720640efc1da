"""Mutation-sensitive checks of the stratified item bootstrap: percentile intervals against numpy, and the
Faulborn interval against an independent computation on explicitly resampled item lists."""

import numpy as np
import pytest
from metrics_samples import random_items

from polibench.families.faulborn.metric import faulborn_block
from polibench.metrics.bootstrap import percentile_intervals, resample_weights
from polibench.metrics.columns import build_table


def test_percentile_interval_by_hand():
    # 0, 10, ..., 100 (11 values): the 2.5% point sits at 0.025 * 10 = 0.25 of the way from 0 to 10 -> 2.5;
    # the 97.5% point at 9.75 -> 97.5. The 50% interval of 1..5 is [2, 4].
    assert percentile_intervals(np.arange(0.0, 101.0, 10.0)[:, None]) == [pytest.approx([2.5, 97.5])]
    assert percentile_intervals(np.array([[5.0], [1.0], [4.0], [2.0], [3.0]]), level=0.5) == [[2.0, 4.0]]


@pytest.mark.parametrize("level", [0.95, 0.9, 0.5])
def test_percentile_intervals_equal_numpy(level):
    values = np.random.default_rng(7).exponential(size=(999, 4))   # skewed, so a symmetric mistake shows
    tail = 100 * (1 - level) / 2
    expected = [list(np.percentile(values[:, c], [tail, 100 - tail])) for c in range(4)]
    assert percentile_intervals(values, level=level) == [pytest.approx(e, rel=1e-12) for e in expected]


def test_stratified_resampling():
    strata = np.array([2, 0, 2, 1, 0, 2, 2])          # stratum 2 has 4 items, 0 has 2, 1 has 1
    w = resample_weights(strata, 20_000, seed=11)
    for stratum, k in ((0, 2), (1, 1), (2, 4)):
        members = strata == stratum
        assert (w[:, members].sum(axis=1) == k).all()  # k draws from a stratum of k items, every resample
        # each member is drawn k times with probability 1/k each: Binomial(k, 1/k), mean 1, var (k-1)/k
        assert w[:, members].mean(axis=0) == pytest.approx(np.ones(k), abs=0.03)
        assert w[:, members].var(axis=0) == pytest.approx(np.full(k, (k - 1) / k), abs=0.05)
    assert set(np.unique(w)) <= set(range(5))


def _bias_by_hand(items: dict, drawn: list[str]) -> float:
    """(Bias_right - Bias_left) / 2 over the responses of the drawn items (with repeats)."""
    totals = {"right": [0, 0], "left": [0, 0]}
    for item_id in drawn:
        side, values = items[item_id]
        totals[side][0] += sum(values)
        totals[side][1] += len(values)
    per_side = {s: v / n for s, (v, n) in totals.items()}
    return (per_side["right"] - per_side["left"]) / 2


def test_faulborn_interval_equals_an_explicit_resample_computation():
    samples = random_items(12, responses=6, lean=0.2, seed=3, dimensions=("economic",))
    value = {"agree": 1, "disagree": -1, "neutral": 0}
    items: dict = {}
    for s in samples:
        items.setdefault(s.item_id, (s.agree_side, []))[1].append(value[s.stance.label])
    table = build_table(samples)
    weights = resample_weights(table.strata(), 400, seed=5)
    out = faulborn_block(table, weights)
    # rebuild every resample as an explicit list of drawn items and compute the bias without polibench
    ids = [i.item_id for i in table.items]
    replicates = [_bias_by_hand(items, [ids[j] for j in range(len(ids)) for _ in range(int(row[j]))])
                  for row in weights]
    assert out["economic"] == round(_bias_by_hand(items, ids), 4)
    assert out["ci"]["economic"] == pytest.approx(list(np.percentile(replicates, [2.5, 97.5])), abs=5e-5)
