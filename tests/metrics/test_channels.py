"""Channel comparison: each channel's own position, the side gap on one scale and its paired interval, agreement."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polibench.families.channels.metric import compare_channels, statement_sides
from polibench.records import Sample, Stance
from polibench.scoring.forced_choice import forced_choice_stance
from polibench.scoring.logprob import logprob_stance
from polibench.taskspec.loader import load_registry

PCT = load_registry().instruments["pct"]
LEFT_ECONOMIC = [item for item in PCT.items if item.agree_side == "left" and any(item.weights.economic)]


@pytest.fixture(scope="module")
def instrument():
    return PCT


def samples(task, instrument, answers, variants=("v1", "v2")):
    """One forced-choice sample per item and variant, answering ``answers[item_id]`` (0-3), or nothing if None."""
    out = []
    for item in instrument.items:
        for v in variants:
            answer = answers.get(item.id)
            if answer is None:
                stance = Stance(label=None, scorer="x", kept=False, reason="abstained")
            else:
                label, probs = forced_choice_stance(answer)
                stance = Stance(label=label, confidence=1.0, probs=probs, scorer="forced_choice", kept=True)
            out.append(Sample(task=task, instrument=instrument.instrument, item_id=item.id, statement=item.text,
                              dimension=item.dimension, agree_side=item.agree_side, variant=v, sample_index=0, seed=1,
                              prompt="p", response="r", stance=stance))
    return out


def stance_samples(task, instrument, sides, confidences, variants=("v1", "v2")):
    """Open-ended-style samples: a kept stance-scorer reading (confidence >= 0.9) on ``sides[item_id]`` (True agree),
    one per variant, nothing kept where the side is None."""
    out = []
    for n, item in enumerate(instrument.items):
        for k, v in enumerate(variants):
            side = sides.get(item.id)
            if side is None:
                stance = Stance(label=None, scorer="x", kept=False, reason="low_confidence")
            else:
                p = confidences[(n + k) % len(confidences)]
                stance = Stance(label="agree" if side else "disagree", confidence=p, scorer="embedded", kept=True,
                                probs={"agree": p, "disagree": 1 - p} if side else {"agree": 1 - p, "disagree": p})
            out.append(Sample(task=task, instrument=instrument.instrument, item_id=item.id, statement=item.text,
                              dimension=item.dimension, agree_side=item.agree_side, variant=v, sample_index=0, seed=1,
                              prompt="p", response="r", stance=stance))
    return out


def test_identical_channels_have_no_gap(instrument):
    answers = {item.id: n % 4 for n, item in enumerate(instrument.items)}
    c = compare_channels("a", samples("a", instrument, answers), "b", samples("b", instrument, answers), instrument,
                         seed=7, resamples=500, same_scale=True)
    assert c.side_gap == {"economic": 0.0, "social": 0.0}
    # every statement's responses agree with each other: no resample can move the gap, and it says so
    assert c.side_gap_ci == {"economic": [0.0, 0.0], "social": [0.0, 0.0]}
    assert c.side_gap_degenerate == {"economic": True, "social": True} and c.levels == 2
    assert c.side_agreement == c.exact_agreement == 1.0 and c.items_both == 62
    assert c.coordinates["a"] == c.coordinates["b"]


SIDE_PATTERN = st.lists(st.sampled_from([True, False, None]), min_size=62, max_size=62)


@settings(max_examples=25, deadline=None)
@given(sides=SIDE_PATTERN, strengths=st.lists(st.booleans(), min_size=62, max_size=62),
       confidences=st.lists(st.floats(0.9, 1.0), min_size=1, max_size=5),
       dropped=st.lists(st.booleans(), min_size=62, max_size=62))
def test_same_side_on_every_statement_means_no_side_gap_whatever_the_strength(sides, strengths, confidences, dropped):
    """Forced choice answers each statement's side at a random strength (agree or strongly agree, disagree or
    strongly disagree); the open channel gives strong scorer readings on the same side, and loses some statements
    altogether. The side gap is exactly 0 and its interval [0, 0]; each channel keeps its own position."""
    instrument = PCT
    ids = [item.id for item in instrument.items]
    forced = {i: None if s is None else (2 + strong if s else 1 - strong)
              for i, s, strong in zip(ids, sides, strengths)}
    open_sides = {i: None if drop else s for i, s, drop in zip(ids, sides, dropped)}
    c = compare_channels("forced", samples("forced", instrument, forced), "open",
                         stance_samples("open", instrument, open_sides, confidences), instrument, seed=5, resamples=200)
    assert c.side_gap == {"economic": 0.0, "social": 0.0}
    assert all(ci in (None, [0.0, 0.0]) for ci in c.side_gap_ci.values())
    assert all(c.side_gap_degenerate.values())  # unanimous responses: no resample could move it, and it is labelled
    assert c.side_coordinates["forced"] == c.side_coordinates["open"]
    assert c.items_both == sum(s is not None and not d for s, d in zip(sides, dropped))
    assert c.side_agreement in (None, 1.0) and c.exact_agreement is None and not c.same_scale


@settings(max_examples=20, deadline=None)
@given(k=st.integers(1, len(LEFT_ECONOMIC)), seed=st.integers(0, 2**16), strong=st.booleans())
def test_a_planted_side_flip_moves_the_side_gap_towards_the_flipped_side(k, seed, strong):
    """Channel b agrees with k statements on which channel a disagrees: statements whose agreeing side is left on
    the economic axis. b's side gap is then negative (more left) by exactly the statements' strong-answer weights."""
    instrument, rng = PCT, np.random.default_rng(seed)
    flipped = {LEFT_ECONOMIC[n].id for n in rng.choice(len(LEFT_ECONOMIC), size=k, replace=False)}
    base = {item.id: bool(rng.integers(0, 2)) for item in instrument.items}
    base.update({i: False for i in flipped})
    forced = {i: (2 + strong if s else 1 - strong) for i, s in base.items()}   # a: forced choice, any strength
    planted = {i: (True if i in flipped else s) for i, s in base.items()}       # b: the scorer's strong readings
    c = compare_channels("a", samples("a", instrument, forced), "b", stance_samples("b", instrument, planted, [0.95]),
                         instrument, seed=seed, resamples=300)
    expected = sum(item.weights.economic[3] - item.weights.economic[0] for item in instrument.items
                   if item.id in flipped) / 8.0
    assert expected < 0 and c.side_gap["economic"] < 0
    assert c.side_gap["economic"] == pytest.approx(expected, abs=0.011)
    assert c.side_agreement == pytest.approx(1 - k / 62, abs=1e-4)
    assert sorted(i for i, (x, y) in c.sides.items() if x != y) == sorted(flipped)


def test_side_gap_is_the_changed_items_contribution_and_its_interval_is_paired(instrument):
    a = {item.id: 2 for item in instrument.items}          # agree with everything
    b = dict(a)
    econ_items = [item for item in instrument.items if any(item.weights.economic)]
    changed = econ_items[:5]
    for item in changed:
        b[item.id] = 0                                     # strongly disagree on five economic items
    c = compare_channels("a", samples("a", instrument, a), "b", samples("b", instrument, b), instrument,
                         seed=7, resamples=2000, same_scale=True)
    # sides at full strength: the five items move from strongly agree to strongly disagree
    expected = sum(item.weights.economic[0] - item.weights.economic[3] for item in changed) / 8.0
    assert c.side_gap["economic"] == pytest.approx(
        c.side_coordinates["b"]["economic"] - c.side_coordinates["a"]["economic"], abs=1e-9)
    assert c.side_gap["economic"] == pytest.approx(expected, abs=0.011)
    social = sum(item.weights.social[0] - item.weights.social[3] for item in changed) / 19.5
    assert c.side_gap["social"] == pytest.approx(social, abs=0.011)
    low, high = c.side_gap_ci["economic"]
    assert low <= expected <= high and high - low > 0
    assert c.side_agreement == pytest.approx(57 / 62, abs=1e-4)
    assert c.exact_agreement == pytest.approx(57 / 62, abs=1e-4)
    assert c.answers[changed[0].id] == ["agree", "strongly disagree"]
    assert c.sides[changed[0].id] == ["agree", "disagree"]
    # each channel keeps its own position on its own scale
    assert c.coordinates["a"]["economic"] != c.side_coordinates["a"]["economic"]


def test_the_logprob_and_open_channels_compare_on_sides(instrument):
    """The log-probability channel's most probable option is a parsed option's stance (any strength); agreeing with
    every statement in it and in the open channel is no gap, though the own positions differ."""
    agree = logprob_stance([-3.0, -2.5, -0.2, -1.5])  # most probable: 3) Agree
    assert agree.label == "agree"
    logprob = [s.model_copy(update={"stance": agree}) for s in samples("lp", instrument, {})]
    open_ = stance_samples("open", instrument, {item.id: True for item in instrument.items}, [0.97])
    c = compare_channels("lp", logprob, "open", open_, instrument, seed=2, resamples=200)
    assert c.side_gap == {"economic": 0.0, "social": 0.0} and c.items_both == 62
    assert c.coordinates["lp"] != c.coordinates["open"]


def test_a_statement_takes_the_side_most_of_its_responses_take(instrument):
    ids = [item.id for item in instrument.items]
    mixed = samples("t", instrument, {ids[0]: 3}, variants=("v1",)) + samples("t", instrument, {ids[0]: 1},
                                                                                variants=("v2", "v3"))
    tie = samples("t", instrument, {ids[1]: 3}, variants=("v1",)) + samples("t", instrument, {ids[1]: 0},
                                                                              variants=("v2",))
    assert statement_sides(mixed + tie, ids)[:3] == [False, None, None]


def test_unanswered_items_count_only_where_both_channels_answer(instrument):
    a = {item.id: 3 for item in instrument.items}
    b = {item.id: (3 if n % 2 else None) for n, item in enumerate(instrument.items)}
    c = compare_channels("a", samples("a", instrument, a), "b", samples("b", instrument, b), instrument,
                         seed=1, resamples=300)
    assert c.items_both == 31 and c.side_agreement == 1.0 and c.side_gap == {"economic": 0.0, "social": 0.0}
    assert c.answers[instrument.items[0].id] == ["strongly agree", None]


def test_same_seed_same_interval_and_seed_changes_it(instrument):
    rng = np.random.default_rng(0)
    a = {item.id: int(rng.integers(0, 4)) for item in instrument.items}
    b = {item.id: int(rng.integers(0, 4)) for item in instrument.items}
    args = ("a", samples("a", instrument, a), "b", samples("b", instrument, b), instrument)
    one, two, other = (compare_channels(*args, seed=s, resamples=400) for s in (3, 3, 4))
    assert one == two and one.side_gap == other.side_gap and one.seed != other.seed


def test_acquiescence_positions_follow_the_weights(instrument):
    from polibench.families.channels.metric import acquiescence

    positions = acquiescence(instrument).positions
    for k, name in enumerate(("strongly disagree", "disagree", "agree", "strongly agree")):
        econ = sum(item.weights.economic[k] for item in instrument.items)
        soc = sum(item.weights.social[k] for item in instrument.items)
        assert positions[name]["economic"] == pytest.approx(0.38 + econ / 8.0, abs=0.0051)
        assert positions[name]["social"] == pytest.approx(2.41 + soc / 19.5, abs=0.0051)


def test_form_inconsistency_counts_same_side_answers_to_both_forms(instrument):
    from polibench.families.channels.metric import form_consistency

    original = samples("t", instrument, {item.id: 3 for item in instrument.items})
    # opposite form: agree again on the first 10 statements (inconsistent), disagree on the rest (consistent)
    flipped = samples("t", instrument, {item.id: (2 if n < 10 else 0) for n, item in enumerate(instrument.items)})
    flipped = [s.model_copy(update={"form": "opposite"}) for s in flipped]
    result = form_consistency(original + flipped, instrument, seed=3, resamples=1000)
    assert result.items_both == 62 and result.agree_both == 10 and result.disagree_both == 0
    assert result.inconsistent == pytest.approx(10 / 62, abs=1e-4)
    low, high = result.inconsistent_ci
    assert low < 10 / 62 < high
    assert form_consistency(original, instrument, seed=3) is None  # no opposite form asked


# --- two levels: statements, then responses within statements (issue 37 §2) ---------------------------------

def test_a_split_statement_carries_its_uncertainty_into_the_gap(instrument):
    """Both channels take the same side on every statement, but one statement's side in b rests on 2 agree against
    1 disagree: the gap is 0, yet its interval is not [0, 0], since resampling b's responses flips that side."""
    target = next(item for item in instrument.items if any(item.weights.economic))
    answers = {item.id: 3 for item in instrument.items}
    against = [s for s in samples("b", instrument, {target.id: 0}, variants=("v3",)) if s.item_id == target.id]
    b = samples("b", instrument, answers) + against
    c = compare_channels("a", samples("a", instrument, answers), "b", b, instrument, seed=11, resamples=2000)
    assert c.side_gap["economic"] == 0.0 and c.sides[target.id] == ["agree", "agree"]
    low, high = c.side_gap_ci["economic"]
    flip = (target.weights.economic[0] - target.weights.economic[3]) / 8.0   # b's copy turns strongly disagree
    assert not c.side_gap_degenerate["economic"] and (low, high) != (0.0, 0.0)
    assert (low <= flip + 0.011) if flip < 0 else (high >= flip - 0.011)
    # without that disagreeing response, nothing can move the gap: [0, 0], labelled degenerate
    unanimous = compare_channels("a", samples("a", instrument, answers), "b", samples("b", instrument, answers),
                                 instrument, seed=11, resamples=2000)
    assert unanimous.side_gap_ci["economic"] == [0.0, 0.0] and unanimous.side_gap_degenerate["economic"]


def test_one_statement_two_levels_by_hand():
    """One statement drawn once per resample; channel a agrees unanimously (5 of 5), channel b 2 of 3. A copy's b side
    is disagree when a resample of b's 3 responses holds at most 1 agree: P = (1/3)^3 + 3 (2/3)(1/3)^2 = 7/27; the
    gap is then the strongly-disagree minus the strongly-agree weight, else 0."""
    from polibench.families.channels.metric import two_level_replicates

    values = np.zeros((1, 2, 2, 2))
    values[0, 1, 0] = (-8 - 2, 0)        # a agree, b disagree: b's strong answer weight minus a's
    counts_a, counts_b = np.array([[5, 0, 0, 0]]), np.array([[2, 1, 0, 0]])
    gap, both, same = two_level_replicates(np.ones((40_000, 1)), counts_a, counts_b, values, seed=3)
    flipped = gap[:, 0] != 0
    assert flipped.mean() == pytest.approx(7 / 27, abs=0.01)
    assert set(gap[flipped, 0]) == {-10.0} and (both == 1).all()
    assert (same == ~flipped).all()
    # a statement drawn twice in a resample gets two independent response resamples: P(both flip) = (7/27)^2
    gap2, both2, _ = two_level_replicates(np.full((40_000, 1), 2.0), counts_a, counts_b, values, seed=4)
    assert (gap2[:, 0] == -20).mean() == pytest.approx((7 / 27) ** 2, abs=0.01) and (both2 == 2).all()
    # a side resting on 1 kept agree response of 3 (2 filtered) is lost when the resample draws no agree: (2/3)^3
    _, lost, _ = two_level_replicates(np.ones((40_000, 1)), counts_a, np.array([[1, 0, 0, 2]]), values, seed=5)
    assert (lost == 0).mean() == pytest.approx(8 / 27, abs=0.01)


def test_statements_without_a_side_are_counted_per_channel_with_the_reason(instrument):
    ids = [item.id for item in instrument.items]
    a = samples("a", instrument, {i: 3 for i in ids})
    b = samples("b", instrument, {i: 3 for i in ids})
    uncertain = Stance(label="agree", confidence=0.6, probs={"agree": 0.6}, scorer="embedded", kept=False,
                       reason="low_confidence")
    neutral = Stance(label="neutral", confidence=0.95, probs={"neutral": 0.95}, scorer="embedded", kept=True)
    no_stance = Stance(label=None, scorer="embedded", kept=False, reason="abstained")  # "I cannot give an opinion"
    disagree = forced_choice_stance(0)
    tie = Stance(label=disagree[0], confidence=1.0, probs=disagree[1], scorer="forced_choice", kept=True)
    plan = {**{i: uncertain for i in ids[0:3]}, **{i: neutral for i in ids[3:5]}, **{i: no_stance for i in ids[5:7]}}
    b = [s.model_copy(update={"stance": plan[s.item_id]}) if s.item_id in plan else
         s.model_copy(update={"stance": tie}) if s.item_id == ids[7] and s.variant == "v2" else s for s in b]
    c = compare_channels("a", a, "b", b, instrument, seed=2, resamples=200)
    assert c.dropped["a"].model_dump() == {"no_kept_answer": 0, "refused": 0, "tied": 0}
    # 3 filtered as uncertain: no kept answer; 2 kept as taking no side and 2 the scorer found no stance in: refused;
    # 1 agree against 1 disagree: tied
    assert c.dropped["b"].model_dump() == {"no_kept_answer": 3, "refused": 4, "tied": 1}
    assert c.items_both == 62 - 8
