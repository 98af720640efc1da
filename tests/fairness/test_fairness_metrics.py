"""Fairness metrics against hand-computed values: per-group rates, gaps, equalised odds, Borkan AUCs, t-tests."""

import math

import numpy as np
import pytest

from polibench.fairness import metrics as M

# group a: tp 2, fn 1, tn 1, fp 0; group b: tp 1, fn 0, tn 1, fp 2; overall: tp 3, fn 1, fp 2, tn 2
Y = [1, 1, 1, 0, 0, 0, 1, 0]
PRED = [1, 1, 0, 0, 0, 1, 1, 1]
GROUPS = ["a", "a", "a", "a", "b", "b", "b", "b"]


def test_overall_metrics_by_hand():
    out = M.overall(Y, PRED)
    assert out["tpr"] == pytest.approx(3 / 4) and out["recall"] == pytest.approx(3 / 4)
    assert out["fpr"] == pytest.approx(1 / 2)
    assert out["bacc"] == pytest.approx(5 / 8)
    assert out["precision"] == pytest.approx(3 / 5)
    assert out["f1"] == pytest.approx(2 / 3)
    assert out["accuracy"] == pytest.approx(5 / 8)
    assert out["macro_f1"] == pytest.approx((2 / 3 + 4 / 7) / 2)  # class 0: tp 2, fp 1, fn 2


def test_per_group_metrics_by_hand():
    out = M.by_group(Y, PRED, GROUPS, ["a", "b", "c"])
    a, b = out["a"], out["b"]
    assert (a["tpr"], a["fpr"], a["bacc"], a["precision"], a["f1"]) == pytest.approx((2 / 3, 0, 5 / 6, 1, 4 / 5))
    assert (b["tpr"], b["fpr"], b["bacc"], b["precision"], b["f1"]) == pytest.approx((1, 2 / 3, 2 / 3, 1 / 3, 1 / 2))
    assert all(math.isnan(v) for v in out["c"].values())  # a group without items


def test_gaps_and_equalized_odds_by_hand():
    out = M.gaps(Y, PRED, GROUPS, ["a", "b"])
    assert out["gap_bacc"] == pytest.approx(5 / 6 - 2 / 3)
    assert out["gap_f1"] == pytest.approx(4 / 5 - 1 / 2)
    assert out["gap_tpr"] == pytest.approx(1 / 3)
    assert out["gap_fpr"] == pytest.approx(2 / 3)
    assert out["equalized_odds_difference"] == pytest.approx(2 / 3)  # max(TPR gap, FPR gap)


def test_undefined_metrics_are_nan_and_such_groups_stay_out_of_gaps():
    y, pred, groups = [1, 1, 0, 1, 0], [1, 0, 0, 1, 1], ["p", "p", "q", "r", "r"]
    out = M.by_group(y, pred, groups, ["p", "q", "r"])
    assert math.isnan(out["p"]["fpr"]) and math.isnan(out["p"]["bacc"]) and out["p"]["tpr"] == 0.5
    assert math.isnan(out["q"]["tpr"]) and out["q"]["fpr"] == 0.0
    assert M.eligible_groups(y, groups, ["p", "q", "r"]) == ["r"]
    assert math.isnan(M.gaps(y, pred, groups, ["p", "q", "r"])["gap_bacc"])  # fewer than two eligible groups


def test_borkan_aucs_by_hand():
    y = [1, 0, 1, 0, 1, 0]
    score = [0.9, 0.4, 0.6, 0.7, 0.8, 0.3]
    members = [["A"], ["A"], ["A"], ["B"], ["B"], ["B"]]
    a = M.borkan_aucs(y, score, members, "A")
    b = M.borkan_aucs(y, score, members, "B")
    assert (a["subgroup_auc"], a["bpsn_auc"], a["bnsp_auc"], a["n_members"]) == pytest.approx((1.0, 1.0, 0.75, 3))
    assert (b["subgroup_auc"], b["bpsn_auc"], b["bnsp_auc"]) == pytest.approx((1.0, 0.75, 1.0))
    both = M.borkan_aucs(y, score, [["A", "B"]] + members[1:], "B")  # item 0 is about both groups
    assert both["n_members"] == 4


def test_counts_formulae_equal_scikit_learn():
    rng = np.random.default_rng(3)
    y, pred = rng.integers(0, 2, 200), rng.integers(0, 2, 200)
    tp, fp = np.sum((pred == 1) & (y == 1)), np.sum((pred == 1) & (y == 0))
    fn, tn = np.sum((pred == 0) & (y == 1)), np.sum((pred == 0) & (y == 0))
    from_counts = M.metrics_from_counts(tp, fp, fn, tn)
    reference = M.overall(y, pred)
    for metric in M.METRICS:
        assert float(from_counts[metric]) == pytest.approx(reference[metric])


def test_bootstrap_intervals_contain_the_estimate_and_are_reproducible():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 300)
    preds = [np.where(rng.random(300) < 0.8, y, 1 - y) for _ in range(3)]  # three seeds, ~80% right
    groups = rng.integers(0, 3, 300)
    first = M.bootstrap(y, preds, groups, 3, [0, 1, 2], n_boot=200, seed=1)
    again = M.bootstrap(y, preds, groups, 3, [0, 1, 2], n_boot=200, seed=1)
    assert first == again
    mean_bacc = np.mean([M.overall(y, p)["bacc"] for p in preds])
    low, high = first["overall"]["bacc"]
    assert low < mean_bacc < high and high - low < 0.15
    assert first["groups"][2]["f1"][0] < first["groups"][2]["f1"][1]
    assert first["gaps"]["equalized_odds_difference"][1] >= first["gaps"]["gap_tpr"][0]
    perfect = M.bootstrap(y, [y], groups, 3, [0, 1, 2], n_boot=50, seed=1)
    assert perfect["overall"]["bacc"] == [1.0, 1.0] and perfect["gaps"]["gap_f1"] == [0.0, 0.0]


def test_ttest_across_seeds():
    clear = M.ttest([0.80, 0.82, 0.81], [0.70, 0.71, 0.69])
    assert clear["significant"] and clear["p_value"] < 0.001
    same = M.ttest([0.80, 0.81], [0.80, 0.81])
    assert same["p_value"] == pytest.approx(1.0) and same["significant"] is False
    assert M.ttest([0.8], [0.7])["p_value"] is None  # one seed: no test


def test_weighted_auc_equals_scikit_learn_with_sample_weights_and_ties():
    from sklearn.metrics import roc_auc_score

    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 40)
    score = rng.choice([0.1, 0.3, 0.3, 0.5, 0.7, 0.9], 40)  # many ties
    weights = rng.integers(0, 3, (4, 40)).astype(float)
    expected = [roc_auc_score(y, score, sample_weight=w) for w in weights]
    assert M.weighted_auc(y, score, weights) == pytest.approx(expected)
    assert M.weighted_auc([1, 0, 1, 0], [0.9, 0.1, 0.8, 0.2], np.ones((1, 4)))[0] == 1.0
    assert np.isnan(M.weighted_auc([1, 1], [0.2, 0.3], np.ones((1, 2)))[0])  # one class: undefined


def test_auc_intervals_contain_the_estimate_and_are_reproducible():
    rng = np.random.default_rng(4)
    n = 200
    y = rng.integers(0, 2, n)
    members = [["a"] if i % 2 else ["b"] for i in range(n)]
    scores = [np.clip(y * 0.3 + rng.random(n) * 0.7, 0, 1) for _ in range(2)]
    ci = M.bootstrap_aucs(y, scores, members, ["a", "b"], n_boot=200, seed=1)
    for group in ("a", "b"):
        estimate = np.mean([M.borkan_aucs(y, s, members, group)["subgroup_auc"] for s in scores])
        low, high = ci[group]["subgroup_auc"]
        assert low <= estimate <= high and high - low < 0.3
    assert ci == M.bootstrap_aucs(y, scores, members, ["a", "b"], n_boot=200, seed=1)
