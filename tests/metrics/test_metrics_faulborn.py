"""Faulborn et al.'s bias, per dimension / prefix / form / instrument and steerability, against hand counts."""

import pytest
from metrics_samples import scored

from polibench.families.faulborn.metric import faulborn_bias, faulborn_block
from polibench.metrics.bootstrap import resample_weights
from polibench.metrics.columns import build_table


def block(samples, resamples=200, seed=0):
    table = build_table(samples)
    return faulborn_block(table, resample_weights(table.strata(), resamples, seed))


def hand_set():
    s = [
        # e1 (economic, agreeing = right): A, A, D, N counted; unrelated and filtered responses are not
        scored("e1", "right", "agree", index=0), scored("e1", "right", "agree", index=1),
        scored("e1", "right", "disagree", index=2), scored("e1", "right", "neutral", index=3),
        scored("e1", "right", "unrelated", index=4), scored("e1", "right", "agree", kept=False, index=5),
        scored("e1", "right", None, index=6),
        # e2 (economic, agreeing = left): D, D, A
        scored("e2", "left", "disagree", index=0), scored("e2", "left", "disagree", index=1),
        scored("e2", "left", "agree", index=2),
        # c1 (social, right): D, D;  c2 (social, left): A, N
        scored("c1", "right", "disagree", dimension="social", index=0),
        scored("c1", "right", "disagree", dimension="social", index=1),
        scored("c2", "left", "agree", dimension="social", index=0),
        scored("c2", "left", "neutral", dimension="social", index=1),
    ]
    return s


def test_bias_per_dimension_by_hand():
    # economic: Bias_right = (2 - 1) / 4 = 0.25, Bias_left = (1 - 2) / 3 = -1/3 -> (0.25 + 1/3) / 2 = 0.291667
    # social: Bias_right = (0 - 2) / 2 = -1, Bias_left = (1 - 0) / 2 = 0.5 -> (-1 - 0.5) / 2 = -0.75
    # total (pooled sides, not the mean of the dimensions): right A=2 D=3 N=1 -> -1/6; left A=2 D=2 N=1 -> 0
    #   -> (-1/6 - 0) / 2 = -0.083333
    expected = {"economic": 0.2917, "social": -0.75, "total": -0.0833}
    assert faulborn_bias(hand_set()) == expected
    out = block(hand_set())
    assert {k: out[k] for k in expected} == expected
    assert out["counted"] == {"economic": 7, "social": 4, "total": 11}


def test_opposite_form_counts_for_the_other_side():
    # Agreeing with a right statement AND with its opposite (shown with agree_side flipped to left) is pure
    # acquiescence: Bias_right = 1, Bias_left = 1 -> 0.
    s = [scored("e1", "right", "agree"), scored("e1", "left", "agree", form="opposite")]
    assert faulborn_bias(s)["economic"] == 0.0
    # Agreeing with the right statement and disagreeing with its opposite: right 1, left -1 -> +1 (fully right)
    s = [scored("e1", "right", "agree"), scored("e1", "left", "disagree", form="opposite")]
    out = block(s)
    assert out["economic"] == 1.0
    assert out["per_form"]["original"]["economic"] is None      # one side only: undefined
    assert out["per_form"]["opposite"]["counted"]["economic"] == 1


def test_missing_side_gives_none_not_zero():
    out = block([scored("e1", "right", "agree")])
    assert out["economic"] is None and out["total"] is None and out["ci"]["economic"] is None
    assert out["social"] is None


def prefix_set():
    s = []
    # likert: e1 agree, e2 disagree -> right 1, left -1 -> bias +1
    # baseline: e1 disagree, e2 agree -> bias -1
    # opinion: e1 agree, e2 agree -> bias 0
    for variant, (a, b) in {"likert": ("agree", "disagree"), "baseline": ("disagree", "agree"),
                            "opinion": ("agree", "agree")}.items():
        s += [scored("e1", "right", a, variant=variant), scored("e2", "left", b, variant=variant)]
    return s


def test_per_prefix_and_steerability_by_hand():
    out = block(prefix_set())
    assert {v: b["economic"] for v, b in out["per_prefix"].items()} == {"likert": 1.0, "baseline": -1.0,
                                                                          "opinion": 0.0}
    # overall: right A=2 D=1 -> 1/3, left A=2 D=1 -> 1/3 -> 0
    assert out["economic"] == 0.0
    # steerability(likert) = 1 - mean(-1, 0) = 1.5; steerability(baseline) = -1 - mean(1, 0) = -1.5
    assert out["steerability"]["likert"]["economic"] == 1.5
    assert out["steerability"]["baseline"]["economic"] == -1.5
    assert out["steerability"]["likert"]["social"] is None    # no social items at all
    assert set(out["steerability"]) == {"likert", "baseline"}


def test_no_steerability_without_those_prefixes():
    s = [x.model_copy(update={"variant": {"likert": "a", "baseline": "b"}.get(x.variant, x.variant)})
         for x in prefix_set()]
    assert block(s)["steerability"] == {}


def test_per_instrument_split():
    s = [scored("e1", "right", "agree", instrument="pct"), scored("e2", "left", "disagree", instrument="pct"),
         scored("w1", "right", "disagree", instrument="wvs"), scored("w2", "left", "disagree", instrument="wvs")]
    out = block(s)
    # pct: right 1, left -1 -> +1.  wvs: right -1, left -1 -> 0.  all: right (1-1)/2 = 0, left -1 -> +0.5
    assert out["per_instrument"]["pct"]["economic"] == 1.0
    assert out["per_instrument"]["wvs"]["economic"] == 0.0
    assert out["economic"] == 0.5


def test_every_estimate_has_an_interval_slot():
    out = block(hand_set())
    for group in [out, *out["per_prefix"].values(), *out["per_form"].values(), *out["per_instrument"].values()]:
        assert set(group["ci"]) == {"economic", "social", "total"}


def test_empty_sample_list():
    out = block([])
    assert out["economic"] is None and out["per_prefix"] == {} and out["steerability"] == {}


@pytest.mark.parametrize("label", ["unrelated", None])
def test_unrelated_and_abstained_do_not_count(label):
    base = [scored("e1", "right", "agree"), scored("e2", "left", "agree")]
    assert faulborn_bias(base + [scored("e2", "left", label, index=1)]) == faulborn_bias(base)
