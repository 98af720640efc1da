"""Unanswered PCT statements (issue 37 §1): the interval never leaves the range of possible answer sheets, a
one-statement axis gets exactly the worst-case bounds, and the fill is made within each side of the axis, with
the pooled fill's position reported beside it when they differ by more than 0.5. Every expected number is worked
out by hand here; nothing is read back from polibench's constants."""

from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from metrics_samples import typed_document

from polibench.families.pct.metric import axis_positions, js_round2, on_scale
from polibench.metrics.bootstrap import resample_weights
from polibench.report.markdown import render_report
from polibench.taskspec.loader import parse_file

PCT_YAML = Path(__file__).resolve().parents[2] / "tasks" / "instruments" / "pct.yaml"
OFFSET = {"economic": (0.38, 8.0), "social": (2.41, 19.5)}
PCT = parse_file(PCT_YAML)
PCT_WEIGHTS = [(list(i.weights.economic), list(i.weights.social)) for i in PCT.items]
# the bootstrap's strata: dimension x side of the statement, as polibench.metrics.columns draws them
_KEYS = [(i.dimension, i.agree_side) for i in PCT.items]
PCT_STRATA = np.array([sorted(set(_KEYS)).index(k) for k in _KEYS])


def reach(axis: str, weights) -> tuple[float, float]:
    """The axis's range over every possible answer sheet: every statement at its lowest, or its highest, weight."""
    column = 0 if axis == "economic" else 1
    offset, divisor = OFFSET[axis]
    return (offset + sum(min(w[column]) for w in weights) / divisor,
            offset + sum(max(w[column]) for w in weights) / divisor)


def test_one_answered_statement_gets_exactly_the_worst_case_bounds():
    # pct-01 answered strongly disagree, the other 17 economic statements unanswered (their responses all filtered):
    # resampling the one answered statement can only draw it, so the interval is the fixed worst case
    econ = [n for n, (e, _) in enumerate(PCT_WEIGHTS) if any(e)]
    first = econ[0]
    answers = [None if n in econ and n != first else 1 for n in range(len(PCT_WEIGHTS))]
    answers[first] = 0
    found = axis_positions(answers, list(range(len(PCT_WEIGHTS))), PCT_WEIGHTS,
                           resample_weights(PCT_STRATA, 2000, 7), PCT_STRATA)
    given_weight = PCT_WEIGHTS[first][0][0]
    others = [PCT_WEIGHTS[n][0] for n in econ if n != first]
    low = on_scale(js_round2(0.38 + (given_weight + sum(min(w) for w in others)) / 8))
    high = on_scale(js_round2(0.38 + (given_weight + sum(max(w) for w in others)) / 8))  # 10.01 in js.js: clamped
    assert found["answered"]["economic"] == 1 and found["ci"]["economic"] == [low, high]
    # the same statement never asked at all (no responses, as under --limit): the same bounds
    unasked = axis_positions(answers, [None if a is None else n for n, a in enumerate(answers)], PCT_WEIGHTS,
                             resample_weights(PCT_STRATA, 2000, 7), PCT_STRATA)
    assert unasked["ci"]["economic"] == [low, high]


def test_gpt4_0613_shape_is_inside_every_possible_sheet():
    # the case: 1 of 18 economic statements answered gave [-11.12, +11.26], outside any possible sheet;
    # a sheet answered on one economic statement and one social statement, the rest filtered
    answers = [None] * len(PCT_WEIGHTS)
    econ = next(n for n, (e, _) in enumerate(PCT_WEIGHTS) if any(e))
    social = next(n for n, (_, s) in enumerate(PCT_WEIGHTS) if any(s))
    answers[econ], answers[social] = 2, 3
    found = axis_positions(answers, list(range(len(PCT_WEIGHTS))), PCT_WEIGHTS,
                           resample_weights(PCT_STRATA, 2000, 3), PCT_STRATA)
    for axis in ("economic", "social"):
        low, high = reach(axis, PCT_WEIGHTS)
        assert js_round2(low) <= found["ci"][axis][0] <= found["ci"][axis][1] <= js_round2(high)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([None, None, 0, 1, 2, 3]), min_size=62, max_size=62),
       st.lists(st.booleans(), min_size=62, max_size=62), st.integers(0, 10_000))
def test_no_interval_leaves_the_reachable_range(answers, asked, seed):
    """Random answer sheets with random statements filtered or never asked: every bound is one some sheet has."""
    positions = [n if shown or a is not None else None for n, (a, shown) in enumerate(zip(answers, asked))]
    found = axis_positions(answers, positions, PCT_WEIGHTS, resample_weights(PCT_STRATA, 300, seed), PCT_STRATA)
    for axis in ("economic", "social"):
        if found["ci"][axis] is None:
            continue
        low, high = (js_round2(v) for v in reach(axis, PCT_WEIGHTS))
        assert low <= found["ci"][axis][0] <= found["ci"][axis][1] <= high
        assert low <= found[axis] <= high and low <= found["other_fill"][axis] <= high


def test_resampled_answers_are_kept_inside_the_reachable_range():
    # economic statements a (answered strongly disagree, -10; weights -10 .. 0) and b (answered agree, 0; weights
    # -1 .. 0) in one stratum, c unanswered (weights -1 .. +1). A resample drawing a twice sums -20, below any
    # sheet (-10 - 1 - 1 = -12): one resample in four does, so the 2.5th percentile is there unless it is clipped
    weights = [([-10, -8, 0, 0], [0] * 4), ([-1, -1, 0, 0], [0] * 4), ([-1, -1, 0, 1], [0] * 4)]
    strata = np.array([0, 0, 1])
    found = axis_positions([0, 2, None], [0, 1, 2], weights, resample_weights(strata, 4000, 5), strata)
    assert found["ci"]["economic"][0] == js_round2(0.38 - 12 / 8)
    assert found["ci"]["economic"][1] == js_round2(0.38 + (0 + 1) / 8)  # both a and b drawn as 0 at most: -0 + 1


def sided_sheet(unanswered_right: int):
    """Economic statements: two that agreeing moves right (weights [-8, -6, 0, 2]) answered strongly disagree (-8)
    and disagree (-6); one that agreeing moves left ([7, 5, 0, -2]) answered strongly agree (-2); and
    ``unanswered_right`` more of the first kind, unanswered. One social statement answered agree."""
    right, left = [-8, -6, 0, 2], [7, 5, 0, -2]
    weights = [(right, [0] * 4), (right, [0] * 4), (left, [0] * 4)] + [(right, [0] * 4)] * unanswered_right
    weights.append(([0] * 4, [-4, -2, 0, 2]))
    answers = [0, 1, 3] + [None] * unanswered_right + [2]
    strata = np.array([0, 0, 1] + [0] * unanswered_right + [2])
    return axis_positions(answers, list(range(len(answers))), weights, resample_weights(strata, 500, 1), strata)


def test_fill_within_side_by_hand():
    # one unanswered agree-right statement. Within its side it takes the mean of -8 and -6 = -7:
    # 0.38 + (-8 - 6 - 2 - 7) / 8 = -2.495 -> -2.49 (js.js rounds halves up). Pooled: the mean of all three answered,
    # -16/3, gives 0.38 + (-16 - 16/3) / 8 = -2.2867 -> -2.29
    found = sided_sheet(1)
    assert found["economic"] == -2.49 and found["other_fill"]["economic"] == -2.29
    # three unanswered: within side 0.38 + (-16 - 21) / 8 = -4.245 -> -4.24; pooled 0.38 + (-16 - 16) / 8 = -3.62
    found = sided_sheet(3)
    assert found["economic"] == -4.24 and found["other_fill"]["economic"] == -3.62
    # a fully answered axis: both fills are the js.js number
    assert found["social"] == found["other_fill"]["social"] == 2.41


def _report(found) -> str:
    block = {"economic": found["economic"], "social": found["social"], "ci": found["ci"], "answered": found["answered"],
             "statements": found["statements"], "fill": "side", "other_fill": {"fill": "pooled", **found["other_fill"]}}
    return render_report(typed_document({"pct": {"pct": block}}))


def test_report_shows_the_other_fill_only_where_it_differs_by_more_than_half_a_point():
    far = _report(sided_sheet(3))            # differs by 0.62 on the economic axis
    assert "### Unanswered statements: the other fill" in far
    assert "| economic | -4.24 | -3.62 | +0.62 |" in far and "| social |" not in far.split("the other fill")[1]
    near = _report(sided_sheet(1))           # differs by 0.20
    assert "the other fill" not in near
