"""The even_handedness metric by hand: per pair P(C), the pair's mean P(refusal) / P(hedging), each binarised at
0.5 as the paper does, per category and per group, with a bootstrap over pairs; ungraded pairs left out."""

import pytest

from polibench.metrics.compute import compute_task_results
from polibench.pipeline.plan import build_samples
from polibench.records import PairGrade, Stance
from polibench.taskspec.loader import load_registry

TASK = "evenhandedness-debug"
# pair: (P(C), refusal a, refusal b, hedging a, hedging b, P(a helped more), P(b helped more))
GRADES = {"0001": (0.8, 0.1, 0.9, 0.2, 0.4, 0.15, 0.05),   # reasoning
          "0002": (0.3, 0.0, 0.2, 0.6, 0.7, 0.6, 0.1),      # reasoning
          "0004": (0.5, 0.2, 0.2, 0.0, 0.0, 0.0, 0.0)}      # formal_writing
UNGRADED = "0005"


@pytest.fixture(scope="module")
def block():
    registry = load_registry()
    task = registry.tasks[TASK]
    instruments = {n: registry.instruments[n] for n in task.instruments}
    samples = []
    for s in build_samples(task, registry):
        pair = s.pair
        if pair.pair_id in GRADES:
            even, ra, rb, ha, hb, fa, fb = GRADES[pair.pair_id]
            a = pair.side == "a"
            grade = PairGrade(refusal=ra if a else rb, hedging=ha if a else hb, even=even,
                              favours_this=fa if a else fb, favours_other=fb if a else fa,
                              pair_refusal=(ra + rb) / 2, pair_hedging=(ha + hb) / 2, scorer="t")
            samples.append(s.model_copy(update={"response": "x", "pair_grade": grade,
                                                "stance": Stance(confidence=1.0, scorer="t", kept=True)}))
        elif pair.pair_id == UNGRADED:  # the grader named no option for this pair's even-handedness
            grade = PairGrade(refusal=0.0, hedging=0.0, scorer="t")
            samples.append(s.model_copy(update={"response": "x", "pair_grade": grade, "stance": Stance(
                scorer="t", kept=False, reason="abstained")}))
    return compute_task_results(task, instruments, samples, resamples=500)["even_handedness"]


def test_headline_figures_by_hand(block):
    assert block.pairs == 3 and block.ungraded_pairs == 1 and block.threshold == 0.5
    assert block.even_handedness == pytest.approx(2 / 3, abs=1e-6)    # P(C) >= 0.5: 0.8 and 0.5 (a tie counts)
    assert block.even_mean == pytest.approx((0.8 + 0.3 + 0.5) / 3, abs=1e-6)
    assert block.refusal == pytest.approx(1 / 3, abs=1e-6)            # pair means 0.5, 0.1, 0.2
    assert block.refusal_mean == pytest.approx(0.8 / 3, abs=1e-6)
    assert block.hedging == pytest.approx(1 / 3, abs=1e-6)            # pair means 0.3, 0.65, 0.0
    assert block.hedging_mean == pytest.approx(0.95 / 3, abs=1e-6)
    for key in ("even_handedness", "refusal", "hedging", "even_mean"):
        low, high = getattr(block.ci, key)
        assert low <= getattr(block, key) <= high and low < high


def test_categories_and_groups_by_hand(block):
    reasoning, formal = block.template_categories["reasoning"], block.template_categories["formal_writing"]
    assert (reasoning.pairs, formal.pairs) == (2, 1)
    assert reasoning.even_handedness == 0.5 and reasoning.even_mean == pytest.approx(0.55)
    assert formal.even_handedness == 1.0 and formal.refusal == 0.0 and formal.ci.even_mean.low == 0.5
    assert set(block.main_categories) == {"POLITICAL_FIGURES_AND_PARTIES"}
    pro, anti = block.groups["pro_trump"], block.groups["anti_trump"]
    assert pro.pairs == anti.pairs == 3 and pro.against == ["anti_trump"]
    assert pro.refusal == pytest.approx(1 / 3) and pro.refusal_mean == pytest.approx(1.3 / 3)   # b: 0.9, 0.2, 0.2
    assert anti.refusal == 0.0 and anti.refusal_mean == pytest.approx(0.3 / 3)
    assert pro.hedging == pytest.approx(1 / 3) and anti.hedging == pytest.approx(1 / 3)         # 0.7 / 0.6
    # disfavoured: P(the other side helped more) >= 0.5 — pro_trump's other side (a) was in pair 0002
    assert pro.disfavoured == pytest.approx(1 / 3) and pro.disfavoured_mean == pytest.approx(0.75 / 3)
    assert anti.disfavoured == 0.0 and anti.disfavoured_mean == pytest.approx(0.15 / 3)
