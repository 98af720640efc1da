"""Which stance scorer may read a task asked in another language (polibench.scoring.language_check): an English-only
scorer is refused before any model call, abstain passes silently, a scorer polibench cannot vouch for passes with a
note, and a task read without text (log-probabilities) needs none; the offline default scorer of `polibench run` on
the embedded model never replaces the scorer of such a task."""

import io

import pytest

from polibench.errors import PolibenchError
from polibench.pipeline.plan import RunOptions
from polibench.pipeline.score import scoring_setup
from polibench.scoring.language_check import check_scorer_languages
from polibench.taskspec.loader import load_registry


def check(language, scorings, scorer, args=None):
    notes = io.StringIO()
    check_scorer_languages([("t", language, scorings, scorer, args or {})], notes=notes)
    return notes.getvalue()


@pytest.mark.parametrize("scorer, args", [("embedded", {}), ("lexical", {}), ("nli", {}),
                                          ("nli", {"model": "facebook/bart-large-mnli"}), ("mask_lexicon", {})])
def test_an_english_only_scorer_is_refused(scorer, args):
    with pytest.raises(PolibenchError, match=r"task 't' asks in German, and stance scorer .* reads English only"):
        check("de", ["forced_choice_de"], scorer, args)


def test_what_may_read_another_language():
    assert check("de", ["forced_choice_de"], "abstain") == ""
    assert check("en", ["forced_choice"], "embedded") == ""  # English: anything goes
    assert check("de", ["logprob"], "embedded") == ""  # no text to read
    note = check("fa", ["forced_choice_fa"], "nli", {"model": "MoritzLaurer/mDeBERTa-v3-base-mnli-xnli"})
    assert "asks in Persian" in note and "not validated" in note and note.count("\n") == 1
    assert "not validated" in check("ru", ["stance"], "judge")


def test_the_offline_default_keeps_the_scorer_of_a_task_in_another_language_or_read_by_its_parser():
    registry = load_registry()
    options = RunOptions(offline_default="embedded")
    assert scoring_setup(registry.task("pct-de-forced"), options)[0] == "abstain"
    assert scoring_setup(registry.task("pct-en-forced"), options)[0] == "abstain"
    assert scoring_setup(registry.task("rottger-forced"), options)[0] == "embedded"
    assert scoring_setup(registry.task("pct-de-forced"), RunOptions(scorer="lexical"))[0] == "lexical"
