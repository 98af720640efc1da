"""Paired shifts (metrics/paired.py): the shift, its paired interval and the sign-flip test, each checked against
a value worked out here independently (explicit loops over items, hand-written js.js rounding)."""

import math
import random

import numpy as np
import pytest
from metrics_samples import scored

from polibench.metrics.bootstrap import resample_weights
from polibench.metrics.columns import build_table
from polibench.shift.paired import paired_estimates
from polibench.taskspec.loader import load_registry

PCT = load_registry().instruments["pct"]


def js2(value):  # js.js: Math.round((v + EPSILON) * 100) / 100
    return math.floor((value + 2.220446049250313e-16) * 100 + 0.5) / 100


def answers_side(labels_by_item):
    """Samples of the pct instrument: each item's responses with the given labels."""
    out = []
    for item_id, labels in labels_by_item.items():
        item = next(i for i in PCT.items if i.id == item_id)
        for k, label in enumerate(labels):
            s = scored(item_id, item.agree_side, label, dimension=item.dimension, instrument="pct", index=k)
            out.append(s)
    return out


def coordinates(answer_of):  # answer 0..3 per item id, None unanswered
    econ = soc = 0.0
    for item in PCT.items:
        answer = answer_of.get(item.id)
        if answer is not None:
            econ += item.weights.economic[answer]
            soc += item.weights.social[answer]
    return js2(0.38 + econ / 8), js2(2.41 + soc / 19.5)


def by_key(estimates):
    return {(e.metric, e.axis): e for e in estimates}


def test_shift_is_the_difference_of_the_two_positions():
    # economic items only; run a answers each on its economically left end, run b on its right end
    items = [i for i in PCT.items if i.weights.economic[3] != i.weights.economic[0]][:12]
    left_end = {i.id: 3 if i.weights.economic[3] < i.weights.economic[0] else 0 for i in items}
    right_end = {k: 3 - v for k, v in left_end.items()}
    word = {3: "agree", 0: "disagree"}
    a = answers_side({k: [word[v]] * 3 for k, v in left_end.items()})
    b = answers_side({k: [word[v]] * 3 for k, v in right_end.items()})
    found = by_key(paired_estimates(a, b, {"pct": PCT}, resamples=200, permutations=200))
    econ_a, soc_a = coordinates(left_end)
    econ_b, soc_b = coordinates(right_end)
    assert econ_b > econ_a
    assert (found[("pct", "economic")].a, found[("pct", "economic")].b) == (econ_a, econ_b)
    assert found[("pct", "economic")].shift == round(econ_b - econ_a, 2)
    assert found[("pct", "social")].shift == round(soc_b - soc_a, 2)
    # every item moved right: only "flip none" and "flip all" reach |T| (chance 2 / 2**12), p about 1 / 201
    assert found[("pct", "economic")].p_value < 0.02
    assert found[("pct", "economic")].ci[0] > 0


def test_identical_runs_have_no_shift_and_p_one():
    rng = random.Random(3)
    ids = [i.id for i in PCT.items[:20]]
    a = answers_side({i: [rng.choice(["agree", "disagree"]) for _ in range(4)] for i in ids})
    found = paired_estimates(a, list(a), {"pct": PCT}, resamples=300, permutations=300)
    assert found
    for e in found:
        assert e.shift == 0 and e.p_value == 1.0
        assert e.ci == [0.0, 0.0]


def test_interval_resamples_the_same_statements_in_both_runs():
    rng = random.Random(7)
    ids = [i.id for i in PCT.items]
    a = answers_side({i: [rng.choice(["agree", "disagree"]) for _ in range(3)] for i in ids})
    b = answers_side({i: [rng.choice(["agree", "agree", "disagree"]) for _ in range(3)] for i in ids})
    resamples, seed = 400, 11
    found = by_key(paired_estimates(a, b, {"pct": PCT}, resamples=resamples, permutations=100, seed=seed))

    # independently: each resample draws items (same draws for both runs); coordinates by an explicit loop
    table = build_table(a)
    weights = resample_weights(table.strata(), resamples, seed)
    order = [i.item_id for i in table.items]

    def answer_map(samples):
        out = {}
        for item_id in order:
            labels = [s.stance.label for s in samples if s.item_id == item_id]
            agree = labels.count("agree") / len(labels)
            disagree = 1 - agree
            out[item_id] = 3 if agree >= disagree + 0.3 else 2 if agree >= disagree else 0 if disagree >= agree + 0.3 \
                else 1
        return out

    ans_a, ans_b = answer_map(a), answer_map(b)
    weight_of = {i.id: i.weights for i in PCT.items}
    shifts = []
    for row in weights:
        total = 0.0
        for count, item_id in zip(row, order):
            w = weight_of[item_id].economic
            total += count * (w[ans_b[item_id]] - w[ans_a[item_id]])
        shifts.append(total / 8)
    expected = np.percentile(shifts, [2.5, 97.5])
    assert found[("pct", "economic")].ci == [round(float(v), 2) for v in expected]
    # two independent intervals would be wider than the paired one here; the paired one is what is reported
    assert found[("pct", "economic")].ci[0] <= found[("pct", "economic")].shift <= found[("pct", "economic")].ci[1]


def test_bias_shift_matches_faulborns_formula():
    # items: two economic right-agree items, two economic left-agree items
    items = [("r1", "right"), ("r2", "right"), ("l1", "left"), ("l2", "left")]
    a, b = [], []
    labels_a = {"r1": ["agree", "disagree"], "r2": ["agree", "neutral"], "l1": ["disagree", "disagree"],
                "l2": ["agree", "disagree"]}
    labels_b = {"r1": ["disagree", "disagree"], "r2": ["disagree", "neutral"], "l1": ["agree", "agree"],
                "l2": ["agree", "agree"]}
    for item, side in items:
        a += [scored(item, side, lab, index=k) for k, lab in enumerate(labels_a[item])]
        b += [scored(item, side, lab, index=k) for k, lab in enumerate(labels_b[item])]

    def bias(labels):
        v = {"agree": 1, "disagree": -1, "neutral": 0}
        right = [v[x] for it, side in items if side == "right" for x in labels[it]]
        left = [v[x] for it, side in items if side == "left" for x in labels[it]]
        return (sum(right) / len(right) - sum(left) / len(left)) / 2

    found = by_key(paired_estimates(a, b, {}, resamples=200, permutations=200))
    e = found[("bias", "economic")]
    assert e.a == pytest.approx(bias(labels_a)) and e.b == pytest.approx(bias(labels_b))
    assert e.shift == pytest.approx(round(bias(labels_b) - bias(labels_a), 4))
    assert ("pct", "economic") not in found  # instrument "t" is not PCT-scored


def test_only_common_statements_are_compared():
    ids = [i.id for i in PCT.items[:10]]
    a = answers_side({i: ["agree"] for i in ids})
    b = answers_side({i: ["agree"] for i in ids[:6]})
    found = paired_estimates(a, b, {"pct": PCT}, resamples=100, permutations=100)
    assert {e.items for e in found if e.metric == "pct"} == {6}
    assert all(e.shift == 0 for e in found if e.a is not None)
    undefined = [e for e in found if e.a is None]  # the 6 items hold one economic item: no left side to compare
    assert all(e.shift is None and e.ci is None and e.p_value is None for e in undefined)
