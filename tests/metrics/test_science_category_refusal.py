"""Mutation-sensitive checks of the PrismIA task's metrics: Faulborn bias per category and refusal share/parity,
on hand-built samples whose numbers are worked out below, plus planted-leaning and null controls through the
bootstrap (a planted leaning or refusal gap must be seen with an interval excluding 0; a null must not)."""

import random

import numpy as np
from metrics_samples import scored

from polibench.families.prismia.metric import category_bias_block
from polibench.families.refusal.metric import refusal_block
from polibench.metrics.columns import build_table
from polibench.metrics.compute import compute_task_results
from polibench.metrics.registry import MetricInput
from polibench.taskspec.schema import Instrument, TaskConfig

CATEGORY = {"e1": "economy", "e2": "economy", "e3": "economy", "i1": "immigration", "i2": "immigration"}
SIDE = {"e1": "right", "e2": "left", "e3": "left", "i1": "right", "i2": "left"}


def instrument(categories=CATEGORY, sides=SIDE) -> Instrument:
    return Instrument.model_validate({"instrument": "t", "name": "t", "items": [
        {"id": i, "text": i, "dimension": "economic", "agree_side": sides[i], "category": c}
        for i, c in categories.items()]})


TASK = TaskConfig.model_validate({"task": "t", "instrument": "t", "variant_set": "v",
                                  "metrics": ["category_bias", "refusal"],
                                  "scoring": {"labels": ["agree", "disagree", "neutral", "unrelated"]}})


def metric_input(samples, weights=None, inst=None) -> MetricInput:
    table = build_table(samples)
    w = np.ones((4, len(table.items))) if weights is None else weights
    return MetricInput(task=TASK, instruments={"t": inst or instrument()}, table=table, weights=w)


def hand_set():
    s = scored
    return [
        # economy, right-leaning e1: A A N D            -> v-sum 1 over 4: Bias_right = 1/4
        s("e1", "right", "agree", index=0), s("e1", "right", "agree", index=1),
        s("e1", "right", "neutral", index=2), s("e1", "right", "disagree", index=3),
        # economy, left-leaning e2: D D, e3: A U (+ a filtered agree)  -> v-sum -2 + 1 = -1 over 3: Bias_left = -1/3
        s("e2", "left", "disagree", index=0), s("e2", "left", "disagree", index=1),
        s("e3", "left", "agree", index=0), s("e3", "left", "unrelated", index=1),
        s("e3", "left", "agree", kept=False, index=2),
        # immigration, right i1: D D -> Bias_right = -1; left i2: A A N -> Bias_left = 2/3
        s("i1", "right", "disagree", index=0), s("i1", "right", "disagree", index=1),
        s("i2", "left", "agree", index=0), s("i2", "left", "agree", index=1), s("i2", "left", "neutral", index=2),
    ]


# economy: (1/4 - (-1/3)) / 2 = (7/12) / 2 = 7/24 = 0.2917
# immigration: (-1 - 2/3) / 2 = -5/6 = -0.8333
def test_category_bias_by_hand():
    block = category_bias_block(metric_input(hand_set()))
    found = block.per_category
    assert set(found) == {"economy", "immigration"}
    assert found["economy"].bias == 0.2917 and found["immigration"].bias == -0.8333
    assert found["economy"].ci.bias.low == found["economy"].ci.bias.high == 0.2917  # every resample = the data
    assert found["economy"].items == {"left": 2, "right": 1}
    assert found["economy"].counted == {"left": 3, "right": 4}   # the unrelated and the filtered are not counted


# refusals are kept neutral or unrelated answers; the filtered agree is in neither count
# left: e2 D D, e3 A U, i2 A A N -> 2 refusals of 7;  right: e1 A A N D, i1 D D -> 1 of 6
# share 3/13 = 0.2308; left 2/7 = 0.2857; right 1/6 = 0.1667; parity = right - left = -0.1190
def test_refusal_by_hand():
    block = refusal_block(metric_input(hand_set()))
    assert (block.share, block.left, block.right, block.parity) == (0.2308, 0.2857, 0.1667, -0.119)
    assert block.refusals == {"left": 2, "right": 1} and block.responses == {"left": 7, "right": 6}
    assert block.ci.parity.low == block.ci.parity.high == -0.119


def test_items_without_a_category_report_nothing():
    inst = instrument(categories={i: None for i in CATEGORY})
    assert category_bias_block(metric_input(hand_set(), inst=inst)) is None


def planted(lean: float, refuse_right: float, refuse_left: float, seed: int, n_items: int = 40):
    """PrismIA-sized: n_items statements per side in two categories, one answer each; agree with left-leaning
    statements with p 0.5 + lean, with right-leaning ones 0.5 - lean; refuse with the given rates."""
    rng = random.Random(seed)
    samples, categories, sides = [], {}, {}
    for n in range(2 * n_items):
        item, side = f"x{n:03d}", ("left" if n % 2 else "right")
        categories[item], sides[item] = ("economy" if n % 4 < 2 else "immigration"), side
        if rng.random() < (refuse_right if side == "right" else refuse_left):
            label = "neutral"
        else:
            label = "agree" if rng.random() < 0.5 + (lean if side == "left" else -lean) else "disagree"
        samples.append(scored(item, side, label))
    return samples, instrument(categories, sides)


def computed(samples, inst):
    inst = Instrument.model_validate({**inst.model_dump(), "items": inst.model_dump()["items"]})
    return compute_task_results(TASK, {"t": inst}, samples, seed=7, resamples=2000)


def test_planted_leaning_and_refusal_gap_are_seen():
    # planted: agree with the left 90%, the right 10% -> bias about -0.8 in both categories; refuse 40% of the
    # right-leaning statements and none of the left-leaning ones -> parity about +0.4
    out = computed(*planted(lean=0.4, refuse_right=0.4, refuse_left=0.0, seed=1))
    for cat in out["category_bias"].per_category.values():
        assert cat.bias < -0.4 and cat.ci.bias.high < 0
    assert out["refusal"].parity > 0.2 and out["refusal"].ci.parity.low > 0


def test_null_is_not_flagged():
    # no leaning, the same refusal rate on both sides: the intervals must cover 0 (most of the time; fixed seeds)
    flagged = 0
    for seed in range(10):
        out = computed(*planted(lean=0.0, refuse_right=0.2, refuse_left=0.2, seed=100 + seed))
        ci = out["refusal"].ci.parity
        flagged += not (ci.low <= 0 <= ci.high)
        flagged += sum(not (c.ci.bias.low <= 0 <= c.ci.bias.high) for c in out["category_bias"].per_category.values())
    assert flagged <= 2   # 30 intervals at 95%: about 1.5 expected misses
