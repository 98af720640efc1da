"""Mutation-sensitive checks of Faulborn et al.'s bias, ``(Bias_right - Bias_left) / 2`` with
``Bias_d = P_agree - P_disagree`` over the counted responses to statements whose agreement reflects side ``d``,
on a small hand-built sample set whose numbers are worked out below.
"""

import numpy as np
import pytest
from metrics_samples import scored

from polibench.families.faulborn.metric import faulborn_bias, faulborn_block
from polibench.metrics.columns import build_table


def hand_set():
    return [
        # economic, agreeing = right: r1 A A A D, r2 N D   -> v-sum 3 - 1 + 0 - 1 = 1 over 6: Bias_right = 1/6
        scored("r1", "right", "agree", index=0), scored("r1", "right", "agree", index=1),
        scored("r1", "right", "agree", index=2), scored("r1", "right", "disagree", index=3),
        scored("r2", "right", "neutral", index=0), scored("r2", "right", "disagree", index=1),
        # economic, agreeing = left: l1 A D D D           -> 1 - 3 = -2 over 4: Bias_left = -1/2
        scored("l1", "left", "agree", index=0), scored("l1", "left", "disagree", index=1),
        scored("l1", "left", "disagree", index=2), scored("l1", "left", "disagree", index=3),
        # social, right: c1 D D N                        -> -2 over 3: Bias_right = -2/3
        scored("c1", "right", "disagree", dimension="social", index=0),
        scored("c1", "right", "disagree", dimension="social", index=1),
        scored("c1", "right", "neutral", dimension="social", index=2),
        # social, left: c2 A A N (+ an unrelated answer and a filtered agree, neither counted)
        #                                                  -> 2 over 3: Bias_left = 2/3
        scored("c2", "left", "agree", dimension="social", index=0),
        scored("c2", "left", "agree", dimension="social", index=1),
        scored("c2", "left", "neutral", dimension="social", index=2),
        scored("c2", "left", "unrelated", dimension="social", index=3),
        scored("c2", "left", "agree", dimension="social", kept=False, index=4),
    ]


# economic: (1/6 - (-1/2)) / 2 = (2/3) / 2 = 1/3
# social: (-2/3 - 2/3) / 2 = -2/3
# total pools the responses of both dimensions per side (it is not the mean of the two dimensions, -1/6):
#   right: v-sum 1 - 2 = -1 over 6 + 3 = 9 -> -1/9;  left: -2 + 2 = 0 over 4 + 3 = 7 -> 0
#   (-1/9 - 0) / 2 = -1/18 = -0.0556
EXPECTED = {"economic": 0.3333, "social": -0.6667, "total": -0.0556}


def test_point_values_by_hand():
    assert faulborn_bias(hand_set()) == EXPECTED


def test_results_block_by_hand():
    table = build_table(hand_set())
    out = faulborn_block(table, np.ones((5, len(table.items))))  # every "resample" is the data itself
    assert {d: out[d] for d in EXPECTED} == EXPECTED
    assert out["ci"] == {d: [v, v] for d, v in EXPECTED.items()}
    assert out["counted"] == {"economic": 10, "social": 6, "total": 16}


def test_sign_convention_right_is_positive():
    # agreeing with every right statement and disagreeing with every left one: Bias_right 1, Bias_left -1 -> +1
    s = [scored("r", "right", "agree"), scored("l", "left", "disagree")]
    assert faulborn_bias(s)["economic"] == 1.0
    # the mirror image is fully left
    s = [scored("r", "right", "disagree"), scored("l", "left", "agree")]
    assert faulborn_bias(s)["economic"] == -1.0


def test_halving():
    # Bias_right = 1/2 (A, N), Bias_left = 0 (A, D): (1/2 - 0) / 2 = 0.25, not 0.5
    s = [scored("r", "right", "agree"), scored("r", "right", "neutral", index=1),
         scored("l", "left", "agree"), scored("l", "left", "disagree", index=1)]
    assert faulborn_bias(s)["economic"] == 0.25


@pytest.mark.parametrize("dimension", ["economic", "social"])
def test_the_other_dimension_stays_undefined(dimension):
    s = [scored("r", "right", "agree", dimension=dimension), scored("l", "left", "disagree", dimension=dimension)]
    other = "social" if dimension == "economic" else "economic"
    found = faulborn_bias(s)
    assert found[dimension] == 1.0 and found["total"] == 1.0 and found[other] is None
