"""Restated stances: the embedded scorer reads "<marker> that <statement>" answers for every built-in statement.

Chat models asked to take a side often answer by restating the statement after a stance marker ("I agree that
...", "It is not true that ..."). For every statement of every built-in instrument (items whose text is a
sentence: PCT, WVS, Röttger et al.'s PCT wording, and any statement instrument added later; Liu et al.'s keyword
lists are not statements), hypothesis draws one agree and one disagree marker per statement, and the
session-trained ``embedded`` scorer must read every answer with the right label, at a confidence of at least
0.9 (the default filter) as each test states. All answers of one
hypothesis example are scored in one batch; hypothesis does not shrink (each example scores ~200 answers).

Two marker sets, two tests:

* ``test_restated_answers_with_the_gold_markers_...``: the agree/disagree marker pairs of the gold data
  (tools/stance/restated.py, ``PAIRS``, 34 pairs) whose two markers both occur in the *train* split
  (``TRAIN_PAIRS``). Since gold v4 (issue 37 §6) a marker frame belongs to one split only, so the pairs of the
  dev and test splits are unseen wording, measured by benchmarks/bench_stance_dev.py and docs/stance.md, not
  here. The statements are not all seen (test-split statements, Röttger's wording, later instruments), so this
  checks that restating reads right on every statement. It must pass. The v1 scorer (before issue 27) fails
  it: it read "I agree that X" as unrelated. (The v4 scorer misreads 17 of 500 answers when the dev and test
  frames are included, e.g. "It is undeniable that X" read as disagree at 0.95.)
* ``test_restated_answers_with_held_out_markers_...``: markers drawn only from
  ``polibench.scorers.stance.restated.AGREE_HELDOUT`` / ``DISAGREE_HELDOUT``, phrasings used nowhere in the gold data
  (checked below, with the ``FRESH`` set that benchmarks/bench_stance_dev.py reports), i.e. generalisation to
  unseen markers. **It does not hold** for the default (gold v2) and is marked ``xfail(strict=True)``: it reads
  "It is untrue that X" and "I'm unpersuaded that X" as agree; docs/stance.md, "Restated stances", has the
  per-marker figures (``python benchmarks/bench_stance_restated.py``). When a better scorer reads them, strict
  xfail turns the pass into a failure and the marker is removed.

Both use one tolerance: at most 1 % of the answers misread and at most 5 % read right but below 0.9
(``assert_read_at_the_filter``).
"""

from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st
from scripts import load_script

from polibench.scorers.stance import restated
from polibench.scorers.stance.data import StanceExample, load_examples
from polibench.scorers.stance.restated import AGREE_HELDOUT, DISAGREE_HELDOUT, marker, restate, restated_examples

TOOLS = Path(__file__).resolve().parents[2] / "tools" / "stance"
BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
# English claims only: the scorer reads English, and the PCT's translations (tasks/languages, issue 43) are read by
# option tables, never by the stance scorer; a question cannot be restated as a claim. One list, shared with
# benchmarks/bench_stance_restated.py, which reports the per-marker figures on the same statements.
STATEMENTS = load_script(BENCHMARKS / "bench_stance_restated.py", "bench_stance_restated").builtin_statements()
N = len(STATEMENTS)
SETTINGS = settings(max_examples=1, deadline=None, derandomize=True, database=None,
                    phases=[Phase.explicit, Phase.generate],  # no shrinking: each example scores ~200 answers
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def gold_pairs() -> list[tuple[str, str]]:
    """The marker pairs of the gold data (restated.py; restated_broad.py's are not in the shipped data)."""
    return list(load_script(TOOLS / "restated.py", "gold_restated", beside=True).PAIRS)


PAIRS = gold_pairs()


def _in_train(template: str, responses: list[str]) -> bool:
    words = marker(template).lower()
    return any(words in r for r in responses)


_TRAIN_RESPONSES = [e.response.lower() for e in load_examples("gold:train")]
TRAIN_PAIRS = [(a, d) for a, d in PAIRS if _in_train(a, _TRAIN_RESPONSES) and _in_train(d, _TRAIN_RESPONSES)]


def choices(pool):
    return st.lists(st.integers(0, len(pool) - 1), min_size=N, max_size=N)


def read(scorer, examples):
    """``(wrong label, right but below 0.9)``: (response, label, confidence) of each such answer."""
    results = scorer.score([e.statement for e in examples], [e.response for e in examples])
    found = [(e.response, r.label, round(r.confidence, 3), r.label == e.label) for e, r in zip(examples, results)]
    return [f[:3] for f in found if not f[3]], [f[:3] for f in found if f[3] and f[2] < 0.9]


def assert_read_at_the_filter(scorer, examples):
    """The tolerance of both tests: at most 1 % misread and at most 5 % read right but below 0.9. The scorer is
    trained afresh on each machine; a fresh training (CI, 2026-11-25) misread 2 of 340 gold-marker answers
    (unrelated at 0.56 and 0.6: below the filter, so dropped, not counted on the wrong side)."""
    wrong, unsure = read(scorer, examples)
    assert len(wrong) <= 0.01 * len(examples), \
        f"{len(wrong)} of {len(examples)} restated answers misread: {wrong[:5]}"
    assert len(unsure) <= 0.05 * len(examples), f"{len(unsure)} read right but below 0.9: {unsure[:5]}"


def test_most_gold_marker_pairs_are_in_the_train_split():
    assert 20 <= len(TRAIN_PAIRS) < len(PAIRS)


def test_builtin_statements_are_covered():
    assert N >= 89  # 62 PCT + 27 WVS at least; every statement instrument added later joins automatically
    assert "Jake" not in STATEMENTS  # Liu et al.'s keyword lists are not statements


def test_heldout_markers_are_not_in_the_gold_data():
    """The held-out markers (this test's generalisation check) and the fresh ones (bench_stance_dev's untouched
    measure) occur in no gold response."""
    responses = [e.response.lower() for split in ("gold:train", "gold:test") for e in load_examples(split)]
    for template in AGREE_HELDOUT + DISAGREE_HELDOUT + restated.AGREE_FRESH + restated.DISAGREE_FRESH:
        words = marker(template).lower()
        assert words and not any(words in r for r in responses), f"held-out marker {words!r} is in the gold data"


def test_restating_keeps_the_statement_and_its_capitals():
    assert restate("I concur that {s}.", "The rich are too taxed.") == "I concur that the rich are too taxed."
    assert restate("{S} I concur.", "Abortion is justifiable") == "Abortion is justifiable. I concur."
    assert restate("It is untrue that {s}.", "I'd always support my country.") == \
        "It is untrue that I'd always support my country."


@pytest.fixture(scope="module")
def scorer(trained_default):
    from polibench.scorers.stance.embedded import EmbeddedStanceScorer

    return EmbeddedStanceScorer(show_progress=False, batch_size=64)


@pytest.mark.slow
@SETTINGS
@example(pairs=[i % len(TRAIN_PAIRS) for i in range(N)])  # every train-split marker pair on many statements
@given(pairs=choices(TRAIN_PAIRS))
def test_restated_answers_with_the_gold_markers_are_read_at_the_filter(scorer, pairs):
    examples = []
    for statement, i in zip(STATEMENTS, pairs):
        agree, disagree = TRAIN_PAIRS[i]
        examples += [StanceExample(statement, restate(agree, statement), "agree"),
                     StanceExample(statement, restate(disagree, statement), "disagree")]
    assert_read_at_the_filter(scorer, examples)


@pytest.mark.slow
@pytest.mark.xfail(strict=True, reason="the embedded scorer does not yet read every unseen marker at 0.9 "
                                       "(docs/stance.md, 'Restated stances')")
@SETTINGS
# every held-out marker on about N / 11 statements: hypothesis draws indices far from uniformly (small values and
# boundaries more often), so its one draw alone may miss a marker the scorer misreads ("It is untrue that X")
@example(agree=[i % len(AGREE_HELDOUT) for i in range(N)], disagree=[i % len(DISAGREE_HELDOUT) for i in range(N)])
@given(agree=choices(AGREE_HELDOUT), disagree=choices(DISAGREE_HELDOUT))
def test_restated_answers_with_held_out_markers_are_read_at_the_filter(scorer, agree, disagree):
    assert_read_at_the_filter(scorer, restated_examples(STATEMENTS, agree, disagree))
