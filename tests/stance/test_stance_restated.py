"""Restated stances: the embedded scorer reads "<marker> that <statement>" answers for every built-in statement.

Chat models asked to take a side often answer by restating the statement after a stance marker ("I agree that
...", "It is untrue that ..."). For every item of every built-in instrument (tasks/instruments/*.yaml: PCT, WVS,
and any instrument added later), hypothesis draws one agree marker and one disagree marker per statement and the
session-trained ``embedded`` scorer must read **every** answer with the right label **and** a confidence of at
least 0.9, the default filter: an answer it misreads, or reads right but too unsure to be counted, fails.

The markers are drawn only from ``polibench.stance.restated.AGREE_HELDOUT`` / ``DISAGREE_HELDOUT``, phrasings
that are *not* used anywhere in the gold stance data the scorer is trained on (the first test checks that), so
this tests generalisation to unseen markers, not memorised templates. All answers of one hypothesis example are
scored in one batch.
"""

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from polibench.stance.data import load_examples
from polibench.stance.restated import AGREE_HELDOUT, DISAGREE_HELDOUT, marker, restate, restated_examples
from polibench.taskspec.loader import load_registry

STATEMENTS = sorted({item.text for inst in load_registry().instruments.values() for item in inst.items})
N = len(STATEMENTS)
AGREE_ROUND_ROBIN = [i % len(AGREE_HELDOUT) for i in range(N)]
DISAGREE_ROUND_ROBIN = [i % len(DISAGREE_HELDOUT) for i in range(N)]


def choices(pool):
    return st.lists(st.integers(0, len(pool) - 1), min_size=N, max_size=N)


def test_builtin_instruments_are_covered():
    assert N >= 89  # 62 PCT + 27 WVS at least; every instrument added later joins automatically


def test_heldout_markers_are_not_in_the_gold_data():
    responses = [e.response.lower() for split in ("gold:train", "gold:test") for e in load_examples(split)]
    for template in AGREE_HELDOUT + DISAGREE_HELDOUT:
        words = marker(template).lower()
        assert words and not any(words in r for r in responses), f"held-out marker {words!r} is in the gold data"


def test_restating_keeps_the_statement_and_its_capitals():
    assert restate("I concur that {s}.", "The rich are too taxed.") == "I concur that the rich are too taxed."
    assert restate("{S} I concur.", "Abortion is justifiable") == "Abortion is justifiable. I concur."
    assert restate("It is untrue that {s}.", "I'd always support my country.") == \
        "It is untrue that I'd always support my country."


@pytest.fixture(scope="module")
def scorer(trained_default):
    from polibench.stance.embedded import EmbeddedStanceScorer

    return EmbeddedStanceScorer(show_progress=False, batch_size=64)


@pytest.mark.slow
@settings(max_examples=2, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@example(agree=AGREE_ROUND_ROBIN, disagree=DISAGREE_ROUND_ROBIN)  # every held-out marker on many statements
@given(agree=choices(AGREE_HELDOUT), disagree=choices(DISAGREE_HELDOUT))
def test_restated_agree_and_disagree_answers_are_read_at_the_filter(scorer, agree, disagree):
    examples = restated_examples(STATEMENTS, agree, disagree)
    results = scorer.score([e.statement for e in examples], [e.response for e in examples])
    wrong = [(e.response, r.label, round(r.confidence, 3)) for e, r in zip(examples, results)
             if r.label != e.label or r.confidence < 0.9]
    assert not wrong, f"{len(wrong)} of {len(examples)} restated answers misread or below 0.9: {wrong[:5]}"
