"""The stratified item bootstrap: resampling, percentile intervals and the properties the intervals must have."""

import numpy as np
import pytest
from metrics_samples import random_items, scored

from polibench.families.faulborn.metric import faulborn_block
from polibench.metrics.bootstrap import MIN_DEFINED_SHARE, percentile_intervals, resample_weights
from polibench.metrics.columns import build_table


def test_resampling_stays_within_strata():
    strata = np.array([0, 0, 0, 1, 1, 2])
    w = resample_weights(strata, 500, seed=3)
    assert w.shape == (500, 6)
    # each resample draws exactly as many items from a stratum as it has, never from another stratum
    assert (w[:, :3].sum(axis=1) == 3).all() and (w[:, 3:5].sum(axis=1) == 2).all() and (w[:, 5] == 1).all()
    assert len({tuple(row) for row in w[:, :3]}) > 1       # it does vary
    assert np.array_equal(w, resample_weights(strata, 500, seed=3))
    assert not np.array_equal(w, resample_weights(strata, 500, seed=4))


def test_percentile_intervals_match_numpy_and_skip_undefined():
    rng = np.random.default_rng(0)
    values = rng.normal(size=(1000, 3))
    values[:300, 1] = np.nan                                 # 70% defined: use the defined ones
    values[: int(1000 * (1 - MIN_DEFINED_SHARE)) + 1, 2] = np.nan  # under half defined: no interval
    found = percentile_intervals(values)
    assert found[0] == pytest.approx(list(np.percentile(values[:, 0], [2.5, 97.5])))
    assert found[1] == pytest.approx(list(np.percentile(values[300:, 1], [2.5, 97.5])))
    assert found[2] is None
    # hand case: 0..100, linear interpolation -> 2.5 and 97.5
    assert percentile_intervals(np.arange(101.0)[:, None])[0] == pytest.approx([2.5, 97.5])


def test_single_item_strata_give_a_degenerate_interval_by_hand():
    # one right item (A, D, A -> 1/3) and one left item (D, D -> -1): each alone in its stratum, so every
    # resample is the data itself: bias = (1/3 + 1) / 2 = 0.6667 and the interval is [0.6667, 0.6667]
    s = [scored("r", "right", "agree"), scored("r", "right", "disagree", index=1),
         scored("r", "right", "agree", index=2), scored("l", "left", "disagree"),
         scored("l", "left", "disagree", index=1)]
    table = build_table(s)
    out = faulborn_block(table, resample_weights(table.strata(), 300, 0))
    assert out["economic"] == 0.6667 and out["ci"]["economic"] == [0.6667, 0.6667]


def ci(samples, seed=0, resamples=2000):
    table = build_table(samples)
    return faulborn_block(table, resample_weights(table.strata(), resamples, seed))


@pytest.fixture(scope="module")
def many():
    return random_items(40, responses=8, lean=0.15, seed=1)


def test_intervals_contain_the_point_estimate(many):
    out = ci(many)
    for dim in ("economic", "social", "total"):
        low, high = out["ci"][dim]
        assert low <= out[dim] <= high and low < high


def test_intervals_widen_with_fewer_items(many):
    few = [s for s in many if int(s.item_id[1:]) < 8]          # 8 of the 40 items per dimension
    wide, narrow = ci(few), ci(many)
    for dim in ("economic", "social", "total"):
        assert wide["ci"][dim][1] - wide["ci"][dim][0] > narrow["ci"][dim][1] - narrow["ci"][dim][0]


def test_same_seed_same_interval_other_seed_other_interval(many):
    assert ci(many, seed=5)["ci"] == ci(many, seed=5)["ci"]
    assert ci(many, seed=5)["ci"] != ci(many, seed=6)["ci"]


def test_resampling_items_not_responses(many):
    # Duplicating every response of every item changes nothing: the item, not the response, is the unit.
    doubled = many + [s.model_copy(update={"sample_index": s.sample_index + 100}) for s in many]
    assert ci(doubled)["ci"] == ci(many)["ci"]
