"""Mutation-sensitive checks of the PCT science: the 0.3 margin of the 4-answer mapping (Feng et al. 2023) and
the js.js coordinate formula and rounding, with every expected number worked out by hand in the test.

Nothing here reads a constant back from polibench (no ``MARGIN``, no offsets): a changed constant must fail.
The js.js weights are passed explicitly, read from tasks/instruments/pct.yaml.
"""

from pathlib import Path

import pytest

from polibench.families.pct.metric import answer_from_scores, js_round2, pct_coordinates
from polibench.taskspec.loader import parse_file

SD, D, A, SA = 0, 1, 2, 3  # js.js answer order: strongly disagree, disagree, agree, strongly agree
PCT_YAML = Path(__file__).resolve().parents[2] / "tasks" / "instruments" / "pct.yaml"
TINY = 1e-9


@pytest.fixture(scope="module")
def weights():
    instrument = parse_file(PCT_YAML)
    return [(list(i.weights.economic), list(i.weights.social)) for i in instrument.items]


# --- the 4-answer mapping ----------------------------------------------------------------------------------

@pytest.mark.parametrize("disagree", [0.0, 0.2, 0.35, 0.5])
def test_margin_boundary_on_the_agree_side(disagree):
    # agree - disagree: just under 0.3 -> agree; exactly 0.3 -> strongly agree (>=); just over -> strongly agree
    assert answer_from_scores(disagree + 0.3 - TINY, disagree) == A
    assert answer_from_scores(disagree + 0.3, disagree) == SA
    assert answer_from_scores(disagree + 0.3 + TINY, disagree) == SA


@pytest.mark.parametrize("agree", [0.0, 0.2, 0.35, 0.5])
def test_margin_boundary_on_the_disagree_side(agree):
    assert answer_from_scores(agree, agree + 0.3 - TINY) == D
    assert answer_from_scores(agree, agree + 0.3) == SD
    assert answer_from_scores(agree, agree + 0.3 + TINY) == SD


@pytest.mark.parametrize("agree, disagree, expected", [
    (0.64, 0.36, A),    # difference 0.28 < 0.3: a margin of 0.25 would wrongly say "strongly agree"
    (0.36, 0.64, D),
    (0.66, 0.34, SA),   # 0.32 >= 0.3: a margin of 0.35 would wrongly say "agree"
    (0.34, 0.66, SD),
    (0.5, 0.5, A),      # a tie counts as agree (agree >= disagree), never disagree
    (0.5 + TINY, 0.5, A),
    (0.5 - TINY, 0.5, D),
    (1.0, 0.0, SA),
    (0.0, 1.0, SD),
])
def test_mapping_of_typical_score_pairs(agree, disagree, expected):
    assert answer_from_scores(agree, disagree) == expected


# --- the js.js coordinates ---------------------------------------------------------------------------------

def test_the_weights_used_below_are_the_js_js_rows(weights):
    # The hand computations below rely on these rows (pct.yaml, in js.js order: SD, D, A, SA).
    assert len(weights) == 62
    assert weights[0] == ([7, 5, 0, -2], [0, 0, 0, 0])        # pct-01
    assert weights[1] == ([0, 0, 0, 0], [-8, -6, 0, 2])       # pct-02
    assert weights[2] == ([0, 0, 0, 0], [7, 5, 0, -2])        # pct-03
    assert weights[3] == ([0, 0, 0, 0], [-7, -5, 0, 2])       # pct-04
    assert weights[4] == ([0, 0, 0, 0], [-7, -5, 0, 2])       # pct-05
    assert weights[5] == ([0, 0, 0, 0], [-6, -4, 0, 2])       # pct-06
    assert weights[6] == ([0, 0, 0, 0], [7, 5, 0, -2])        # pct-07
    assert weights[7] == ([7, 5, 0, -2], [0, 0, 0, 0])        # pct-08
    assert weights[8] == ([-7, -5, 0, 2], [0, 0, 0, 0])       # pct-09
    assert weights[11] == ([-8, -6, 0, 2], [0, 0, 0, 0])      # pct-12
    assert weights[13] == ([8, 6, 0, -1], [0, 0, 0, 0])       # pct-14


def test_coordinates_of_a_mixed_answer_sheet_by_hand(weights):
    answers = [None] * 62
    # economic: pct-01 SD -> 7, pct-08 D -> 5, pct-09 SA -> 2, pct-12 SD -> -8, pct-14 D -> 6: sum 12
    #   0.38 + 12/8 = 1.88
    answers[0], answers[7], answers[8], answers[11], answers[13] = SD, D, SA, SD, D
    # social: pct-02 SA -> 2, pct-03 SD -> 7, pct-04 D -> -5, pct-06 SD -> -6: sum -2
    #   2.41 - 2/19.5 = 2.30744 -> 2.31
    answers[1], answers[2], answers[3], answers[5] = SA, SD, D, SD
    assert pct_coordinates(answers, weights) == (1.88, 2.31)


def test_answer_order_is_strongly_disagree_first(weights):
    # the same item answered at each end: pct-01 SD -> 0.38 + 7/8 = 1.255 -> 1.26; SA -> 0.38 - 2/8 = 0.13
    answers = [None] * 62
    answers[0] = SD
    assert pct_coordinates(answers, weights) == (1.26, 2.41)
    answers[0] = SA
    assert pct_coordinates(answers, weights) == (0.13, 2.41)
    answers[0] = A                                    # "agree" weighs 0 on every js.js row
    assert pct_coordinates(answers, weights) == (0.38, 2.41)


def test_unanswered_items_contribute_nothing(weights):
    # social only: pct-03 SD -> 7: 2.41 + 7/19.5 = 2.76897 -> 2.77; every other item unanswered
    answers = [None] * 62
    answers[2] = SD
    assert pct_coordinates(answers, weights) == (0.38, 2.77)
    # pct-02 SD -8, pct-03 SA -2, pct-04 D -5, pct-05 D -5, pct-06 SA +2, pct-07 D +5: sum -13
    #   2.41 - 13/19.5 = 1.74333 -> 1.74
    answers = [None] * 62
    answers[1], answers[2], answers[3], answers[4], answers[5], answers[6] = SD, SA, D, D, SA, D
    assert pct_coordinates(answers, weights) == (0.38, 1.74)


def test_extremes_by_hand(weights):
    # most-right economic answer per row: 0.38 + (column maxima sum 77)/8 = 10.005 -> js.js gives 10.01, off the
    # -10...+10 scale (its rounded offset 0.38 for 3/8): polibench clamps it to 10.0 (docs/metrics.md, issue 38)
    right = [max(range(4), key=lambda a: econ[a]) for econ, _ in weights]
    assert js_round2(0.38 + sum(econ[a] for a, (econ, _) in zip(right, weights)) / 8) == 10.01
    assert pct_coordinates(right, weights)[0] == 10.0
    # most-left: column minima sum -83: 0.38 - 83/8 = -9.995 -> halves go up: -9.99
    left = [min(range(4), key=lambda a: econ[a]) for econ, _ in weights]
    assert pct_coordinates(left, weights)[0] == -9.99


# --- js.js rounding ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("value, js_result", [
    # Math.round((v + Number.EPSILON) * 100) / 100, evaluated in node for each v = 0.38 + k/8:
    (0.38 + 5 / 8, 1.01),     # 1.005 (Python's round gives 1.0)
    (0.38 + 7 / 8, 1.26),     # 1.255 (Python: 1.25)
    (0.38 + 13 / 8, 2.01),    # 2.005 (Python: 2.0)
    (0.38 + 17 / 8, 2.51),    # 2.505 (Python: 2.5)
    (0.38 - 13 / 8, -1.24),   # -1.245: halves go towards +infinity, not away from zero (Python: -1.25)
    (0.38 - 19 / 8, -1.99),   # -1.995 (Python: -2.0)
    (2.41 + 7 / 19.5, 2.77),  # 2.768974...
    (2.41 - 9 / 19.5, 1.95),  # 1.948461...
    (0.0, 0.0),
])
def test_js_round2_matches_javascript(value, js_result):
    assert js_round2(value) == js_result
    assert str(js_round2(value)) != "-0.0"
