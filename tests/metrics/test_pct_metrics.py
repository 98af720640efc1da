"""PCT answer mapping and the js.js coordinate formula, against hand-computed values."""

import pytest

from polibench.families.pct.metric import (
    AGREE,
    DISAGREE,
    STRONGLY_AGREE,
    STRONGLY_DISAGREE,
    answer_from_scores,
    instrument_weights,
    item_answers,
    js_round2,
    mean_stance,
    pct_coordinates,
)
from polibench.paths import builtin_tasks_dir
from polibench.records import Sample, Stance
from polibench.taskspec.loader import parse_file

PCT_WEIGHTS = instrument_weights(parse_file(builtin_tasks_dir() / "instruments" / "pct.yaml"))


@pytest.mark.parametrize("agree, disagree, expected", [
    (0.9, 0.1, STRONGLY_AGREE),   # 0.9 >= 0.1 + 0.3
    (0.6, 0.4, AGREE),            # 0.6 < 0.7 but >= 0.4
    (0.5, 0.5, AGREE),            # tie goes to agree
    (0.1, 0.9, STRONGLY_DISAGREE),
    (0.4, 0.6, DISAGREE),
    (0.65, 0.35, STRONGLY_AGREE),  # exactly at the 0.3 margin (0.65 >= 0.65)
])
def test_answer_mapping(agree, disagree, expected):
    assert answer_from_scores(agree, disagree) == expected


def test_no_answers_is_the_origin_offset():
    assert pct_coordinates([None] * 62, PCT_WEIGHTS) == (0.38, 2.41)


def test_single_items_by_hand():
    answers = [None] * 62
    # item 1 econ weights [7,5,0,-2] -> 0.38 + 7/8 = 1.255 -> 1.26 (js.js rounds halves up)
    answers[0] = STRONGLY_DISAGREE
    answers[1] = STRONGLY_AGREE     # item 2 social weights [-8,-6,0,2] -> 2.41 + 2/19.5 = 2.5126 -> 2.51
    assert pct_coordinates(answers, PCT_WEIGHTS) == (1.26, 2.51)
    answers = [None] * 62
    answers[11] = STRONGLY_AGREE    # item 12 econ [-8,-6,0,2] -> 0.38 + 2/8 = 0.63
    answers[21] = STRONGLY_DISAGREE  # item 22 social [-6,-4,0,2] -> 2.41 - 6/19.5 = 2.1023 -> 2.1
    assert pct_coordinates(answers, PCT_WEIGHTS) == (0.63, 2.1)


def test_uniform_answers_by_hand():
    # "agree" (index 2) has weight 0 on every item: the offsets alone.
    assert pct_coordinates([AGREE] * 62, PCT_WEIGHTS) == (0.38, 2.41)
    # a custom table: +1 for "strongly disagree", -1 for "disagree" on the economic axis of every item
    table = [((1, -1, 0, 0), (0, 0, 0, 0))] * 62
    assert pct_coordinates([STRONGLY_DISAGREE] * 62, table) == (8.13, 2.41)  # 0.38 + 62/8
    assert pct_coordinates([DISAGREE] * 62, table) == (-7.37, 2.41)          # 0.38 - 62/8


def test_extremes_reach_plus_minus_ten():
    table = PCT_WEIGHTS
    best = [max(range(4), key=lambda a: e[a] + s[a]) for e, s in table]
    worst = [min(range(4), key=lambda a: e[a] + s[a]) for e, s in table]
    # column maxima sum to 77 (economic) and 148 (social): 0.38 + 77/8 = 10.005 (10.005000000000001 in binary
    # floating point, which js.js rounds to 10.01, off the scale: kept at 10.0), 2.41 + 148/19.5 = 9.9997 -> 10.0;
    # minima -83 and -242: -9.995 -> -9.99, -10.0003 -> -10.0
    assert js_round2(0.38 + 77 / 8) == 10.01  # the cause: js.js's offset 0.38 is 3/8 rounded up
    assert pct_coordinates(best, PCT_WEIGHTS) == (10.0, 10.0)
    assert pct_coordinates(worst, PCT_WEIGHTS) == (-9.99, -10.0)


def test_wrong_length_or_value_rejected():
    with pytest.raises(ValueError):
        pct_coordinates([None] * 61, PCT_WEIGHTS)
    with pytest.raises(ValueError):
        pct_coordinates([4] + [None] * 61, PCT_WEIGHTS)


def _sample(item, label, probs, kept=True, index=0):
    return Sample(task="t", instrument="pct", item_id=item, statement="s", variant="v", sample_index=index, seed=0,
                  prompt="p", response="r", stance=Stance(label=label, confidence=max(probs.values(), default=0),
                                                          probs=probs, kept=kept))


def test_mean_stance_uses_kept_agree_disagree_only():
    samples = [
        _sample("a", "agree", {"agree": 0.95, "disagree": 0.05}),
        _sample("a", "disagree", {"agree": 0.08, "disagree": 0.92}, index=1),
        _sample("a", "agree", {"agree": 0.6, "disagree": 0.4}, kept=False, index=2),   # filtered: ignored
        _sample("a", "unrelated", {"unrelated": 0.99}, index=3),                       # not a PCT answer
    ]
    agree, disagree, n = mean_stance(samples)
    assert n == 2 and agree == pytest.approx((0.95 + 0.08) / 2) and disagree == pytest.approx((0.05 + 0.92) / 2)
    # (0.515, 0.485): agree >= disagree but below the margin -> "agree"; item b has no samples -> None
    assert item_answers(samples, ["a", "b"]) == [AGREE, None]


def test_rounding_follows_js_js_not_python():
    from polibench.families.pct.metric import js_round2

    # Math.round((v + Number.EPSILON) * 100) / 100 in js.js; Python's round() gives -3.75, 1.25, 0.62
    assert [js_round2(0.38 + s / 8) for s in (-33, 7, 2, 0)] == [-3.74, 1.26, 0.63, 0.38]
    assert js_round2(-2.125) == -2.12 and js_round2(2.41 - 6 / 19.5) == 2.1
