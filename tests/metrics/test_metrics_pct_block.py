"""The results.json ``pct`` block: pooled and per-variant coordinates, their spread and intervals, by hand."""

import numpy as np
import pytest
from metrics_samples import scored

from polibench.families.pct.metric import AGREE, STRONGLY_AGREE, item_answers, pct_block, spread, stance_means
from polibench.metrics.bootstrap import resample_weights
from polibench.metrics.columns import build_table
from polibench.taskspec.schema import Instrument


def mini_instrument():
    return Instrument.model_validate({
        "instrument": "mini", "name": "mini", "scoring": "pct", "items": [
            {"id": "a", "text": "a", "dimension": "economic", "agree_side": "right",
             "weights": {"economic": [-8, -4, 4, 8], "social": [0, 0, 0, 0]}},
            {"id": "b", "text": "b", "dimension": "social", "agree_side": "right",
             "weights": {"economic": [0, 0, 0, 0], "social": [-3.9, -1.95, 1.95, 3.9]}},
        ]})


def mini_samples():
    def s(item, variant, probs, form="original", index=0):
        label = max(probs, key=probs.get)
        return scored(item, "right", label, instrument="mini", variant=variant, probs=probs, form=form, index=index,
                      dimension="economic" if item == "a" else "social")
    return [
        s("a", "v1", {"agree": 0.9, "disagree": 0.1}),   # v1: a -> strongly agree (0.9 >= 0.1 + 0.3)
        s("b", "v1", {"agree": 0.2, "disagree": 0.8}),   # v1: b -> strongly disagree
        s("a", "v2", {"agree": 0.6, "disagree": 0.4}),   # v2: a -> agree (0.6 < 0.7); b not answered in v2
        s("b", "v2", {"agree": 0.95, "disagree": 0.05}, form="opposite"),  # another form: not a PCT answer
    ]


def test_pct_block_by_hand():
    table = build_table(mini_samples())
    out = pct_block(table, mini_instrument(), resample_weights(table.strata(), 500, 0))
    # v1: economic 0.38 + 8/8 = 1.38; social 2.41 - 3.9/19.5 = 2.21
    # v2: economic 0.38 + 4/8 = 0.88; social: b, its only statement, unanswered -> no coordinate (js.js's 0
    # would give 2.41, the always-agree value)
    # one item per stratum: every resample is the data itself, so each interval is the point
    assert out["per_variant"] == {
        "v1": {"economic": 1.38, "social": 2.21, "ci": {"economic": [1.38, 1.38], "social": [2.21, 2.21]}},
        "v2": {"economic": 0.88, "social": None, "ci": {"economic": [0.88, 0.88], "social": None}}}
    # pooled: a = mean(0.9, 0.6) vs mean(0.1, 0.4) = 0.75 vs 0.25 -> strongly agree -> 1.38; b from v1 -> 2.21
    assert (out["economic"], out["social"]) == (1.38, 2.21)
    assert out["answers"] == {"a": "strongly agree", "b": "strongly disagree"}
    # spread over the two variants: economic mean 1.13, sd |1.38 - 0.88| / sqrt(2) = 0.3536
    assert out["spread"]["economic"] == {"mean": 1.13, "sd": 0.3536, "min": 0.88, "max": 1.38}
    assert out["spread"]["social"] == {"mean": 2.21, "sd": None, "min": 2.21, "max": 2.21}  # v2 has none
    assert out["answered"] == {"economic": 1, "social": 1} and out["statements"] == {"economic": 1, "social": 1}
    # one item per stratum: every resample is the data itself
    assert out["ci"] == {"economic": [1.38, 1.38], "social": [2.21, 2.21]}


def test_pct_interval_over_items():
    # two economic agree-right items answered strongly agree (+8) and strongly disagree (-8): the item resample
    # draws {+8,+8}, {+8,-8} or {-8,-8} -> 0.38 + {16, 0, -16}/8 = {2.38, 0.38, -1.62}, with probabilities 1/4, 1/2, 1/4
    inst = Instrument.model_validate({"instrument": "mini", "name": "m", "scoring": "pct", "items": [
        {"id": i, "text": i, "dimension": "economic", "agree_side": "right",
         "weights": {"economic": [-8, -4, 4, 8], "social": [0, 0, 0, 0]}} for i in ("a", "b")]})
    samples = [scored("a", "right", "agree", instrument="mini"), scored("b", "right", "disagree", instrument="mini")]
    table = build_table(samples)
    out = pct_block(table, inst, resample_weights(table.strata(), 4000, 1))
    assert out["economic"] == 0.38 and out["ci"]["economic"] == [-1.62, 2.38]
    assert out["per_variant"]["v"]["ci"]["economic"] == [-1.62, 2.38]  # the one variant: same resamples


def test_stance_means_agree_with_item_answers():
    samples = mini_samples()
    table = build_table(samples)
    agree, disagree, counts = stance_means(table, np.ones(len(table), dtype=bool), np.zeros(len(table), dtype=int), 1)
    assert counts[:, 0].tolist() == [2, 2]
    assert agree[0, 0] == pytest.approx(0.75) and disagree[1, 0] == pytest.approx((0.8 + 0.05) / 2)
    assert item_answers(samples, ["a", "b", "zzz"]) == [STRONGLY_AGREE, AGREE, None]  # b: (0.575, 0.425) -> agree


def test_spread_edge_cases():
    assert spread([]) == {"mean": None, "sd": None, "min": None, "max": None}
    assert spread([1.5]) == {"mean": 1.5, "sd": None, "min": 1.5, "max": 1.5}
