"""Readings (issue 40): what a scorer writes into each sample besides its stance is a registered reading
(polibench.records.READINGS), stored under its name in samples.jsonl, and the scoring stage turns a scorer's results
into stances and records through its reading's verdict, with no branch per scorer kind.

tests/fixtures/readings/samples.jsonl was written by the Sample of before the readings (fixed ``ideology``,
``issue_stance`` and ``pair_grade`` fields, in that key order, absent when None): every line must read into
``Sample.readings`` and write back byte for byte.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import numpy as np
import pytest
from pydantic import ValidationError

from polibench.families.coverage.metric import answered_rows, coverage
from polibench.kit.registry import Family, families
from polibench.kit.strict import Strict
from polibench.metrics.columns import build_table
from polibench.records import READINGS, IdeologyScore, IssueStance, PairGrade, Reading, Sample, Stance
from polibench.scoring.base import StanceResult, StanceScorer
from polibench.scoring.registry import BUILTIN_SCORERS, SCORERS, reads
from polibench.scoring.stage import score_samples

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "readings" / "samples.jsonl"
BASE = dict(task="t", instrument="i", item_id="1", statement="S", variant="v", sample_index=0, seed=7, prompt="P",
            response="an answer")


def test_every_line_written_before_the_readings_reads_and_writes_back_byte_for_byte():
    lines = FIXTURE.read_bytes().splitlines()
    kinds = set()
    for line in lines:
        sample = Sample.model_validate_json(line)
        assert sample.model_dump_json().encode() == line
        assert set(sample.readings) == set(json.loads(line)) & {"ideology", "issue_stance", "pair_grade"}
        kinds |= set(sample.readings)
    assert kinds == {"ideology", "issue_stance", "pair_grade"} and len(lines) == 10
    first = Sample.model_validate_json(lines[0])
    assert isinstance(first.reading("ideology"), IdeologyScore) and first.reading("ideology").conservative == 0.731234
    assert first.reading("pair_grade") is None and "readings" not in first.model_dump()


def test_the_built_in_readings_are_declared_by_polibench_and_name_their_scorers_folder():
    assert READINGS.names()[:4] == ["stance", "ideology", "issue_stance", "pair_grade"]
    for name, record in (("ideology", IdeologyScore), ("issue_stance", IssueStance), ("pair_grade", PairGrade)):
        assert READINGS.target(name) == f"polibench.scorers.{name}.reading:READING"
        assert READINGS.get(name).model is record
    assert {reads(name) for name in BUILTIN_SCORERS} == {"stance", "ideology", "issue_stance", "pair_grade"}
    assert not any(hasattr(SCORERS.get(name), flag) for name in BUILTIN_SCORERS
                   for flag in ("judges_ideology", "judges_issue", "judges_pairs"))


def test_an_unknown_key_is_one_error_naming_it():
    line = json.loads(FIXTURE.read_bytes().splitlines()[0])
    with pytest.raises(ValidationError) as err:
        Sample.model_validate({**line, "ideolgy": line.pop("ideology")})
    assert "ideolgy" in str(err.value) and err.value.error_count() == 1
    with pytest.raises(ValidationError, match="unknown reading 'nowhere'"):
        Sample(**BASE, readings={"nowhere": {"x": 1}})


class Verdict(Strict):
    """A planted plugin reading: the share of vowels in an answer."""

    vowels: float
    scorer: str


def vowel_verdict(result, scorer: str, threshold: float) -> tuple[Stance, Optional[Verdict]]:
    return Stance(label=None, confidence=1.0, scorer=scorer, kept=True), Verdict(vowels=result.confidence,
                                                                               scorer=scorer)


class VowelScorer(StanceScorer):
    name = "vowels"
    reads = "vowels"

    def score(self, statements, responses, progress=None):
        return [StanceResult(None, round(sum(c in "aeiou" for c in r) / len(r), 6)) for r in responses]


def plant(monkeypatch, reading: Reading) -> None:
    """Declare ``reading`` in a plugin family (registered through the family, as an installed one is)."""
    planted = (*families(), Family(name="planted_vowels", readings=(reading,)))
    monkeypatch.setattr(READINGS, "_found", None)
    monkeypatch.setattr("polibench.kit.registry.families", lambda: planted)


@pytest.fixture
def planted_reading(monkeypatch):
    """A plugin family declaring the reading ``vowels``."""
    reading = Reading(name="vowels", model=Verdict, after="", verdict=vowel_verdict)
    plant(monkeypatch, reading)
    yield reading
    READINGS.remove("vowels")
    monkeypatch.setattr(READINGS, "_found", None)


def vowel_columns(records) -> dict[str, np.ndarray]:
    return {"vowel_share": np.array([np.nan if r is None else r.vowels for r in records])}


def many_vowels(columns: dict[str, np.ndarray]) -> np.ndarray:
    return columns["vowel_share"] > 0.25


@pytest.fixture
def columned_reading(monkeypatch, request):
    """The reading ``vowels`` with a column of the response table, ``vowel_share``; with ``answered`` (rows with
    more than a quarter vowels) when the test's parameter says so."""
    reading = Reading(name="vowels", model=Verdict, after="", verdict=vowel_verdict, columns=("vowel_share",),
                      to_columns=vowel_columns, answered=many_vowels if request.param else None)
    plant(monkeypatch, reading)
    yield reading
    READINGS.remove("vowels")
    monkeypatch.setattr(READINGS, "_found", None)


def vowel_samples() -> list[Sample]:
    """Three scored by the vowel scorer (shares 3/9, 0, 3/6) and one unscored."""
    answers = ("an answer", "xyz", "aeibcd")
    samples = [Sample(**{**BASE, "item_id": str(k), "response": r}) for k, r in enumerate(answers)]
    return [*score_samples(samples, VowelScorer(), show_progress=False), Sample(**{**BASE, "item_id": "9"})]


@pytest.mark.parametrize("columned_reading", [True], indirect=True)
def test_a_plugin_readings_column_reaches_the_response_table_and_coverage(columned_reading):
    table = build_table(vowel_samples())
    assert np.allclose(table.column("vowel_share"), [round(3 / 9, 6), 0.0, 0.5, np.nan], equal_nan=True)
    assert table.column("ideology") is None and table.column("pair_grade") is None  # declared, in no row
    with pytest.raises(KeyError, match="no registered reading declares a column 'vowel_shares'"):
        table.column("vowel_shares")
    # the vowel stances carry no label: only the reading's `answered` makes rows 0 and 2 answered
    assert answered_rows(table).tolist() == [True, False, True, False]
    assert coverage(table)["items_answered"] == 2 and coverage(table)["answered_share"] == 0.5


@pytest.mark.parametrize("columned_reading", [False], indirect=True)
def test_a_reading_without_answered_counts_no_row_answered(columned_reading):
    table = build_table(vowel_samples())
    assert table.column("vowel_share") is not None
    assert not answered_rows(table).any() and coverage(table)["answered_share"] == 0.0


def test_a_reading_giving_a_column_it_does_not_declare_is_refused(monkeypatch):
    reading = Reading(name="vowels", model=Verdict, after="", verdict=vowel_verdict, columns=("vowels_declared",),
                      to_columns=vowel_columns)
    plant(monkeypatch, reading)
    try:
        with pytest.raises(TypeError, match="reading 'vowels' gave columns it does not declare.*vowel_share"):
            build_table(vowel_samples())
    finally:
        READINGS.remove("vowels")
        monkeypatch.setattr(READINGS, "_found", None)


def test_the_built_in_readings_columns_are_what_the_families_read():
    grade = PairGrade(refusal=0.1, hedging=0.2, even=0.9, favours_this=0.3, favours_other=0.4, pair_refusal=0.0,
                      pair_hedging=0.5, even_orders=[0.8, 1.0], favours_other_orders=[0.3, 0.5],
                      binarised="per_order", scorer="g")
    samples = [Sample(**BASE, stance=Stance(label=None, confidence=1.0, scorer="g", kept=True),
                      readings={"ideology": IdeologyScore(conservative=0.75, scorer="j"),
                                "issue_stance": IssueStance(label="refusal", confidence=0.9, scorer="i"),
                                "pair_grade": grade}),
               Sample(**{**BASE, "item_id": "2"}, stance=Stance(label=None, confidence=0.0, scorer="g", kept=False),
                      readings={"issue_stance": IssueStance(label=None, confidence=0.0, scorer="i")})]
    table = build_table(samples)
    assert np.allclose(table.column("ideology"), [0.75, np.nan], equal_nan=True)
    assert table.column("issue_label").tolist() == [5, -1]
    assert np.allclose(table.column("pair_grade")[0], [0.1, 0.2, 0.9, 0.3, 0.4, 0.0, 0.5])
    assert np.isnan(table.column("pair_grade")[1]).all()
    assert np.allclose(table.column("pair_orders")[0], [0.8, 1.0, 0.3, 0.5])
    assert table.column("pair_per_order").tolist() == [True, False]
    assert answered_rows(table).tolist() == [True, False]
    # no record with a label: no issue_label column (the issue-bias block then has nothing to read)
    unlabelled = build_table(samples[1:])
    assert unlabelled.column("issue_label") is None and unlabelled.column("pair_grade") is None


def test_a_plugin_reading_is_scored_stored_and_read_back_with_no_change_to_the_stage(planted_reading):
    samples = [Sample(**BASE), Sample(**{**BASE, "item_id": "2", "response": "xyz"})]
    scored = score_samples(samples, VowelScorer(), show_progress=False)
    assert [s.reading("vowels").vowels for s in scored] == [round(3 / 9, 6), 0.0]
    assert all(s.stance.kept and s.stance.label is None for s in scored)
    line = scored[0].model_dump_json()
    assert json.loads(line)["vowels"] == {"vowels": round(3 / 9, 6), "scorer": "vowels"}
    assert line.endswith('"vowels":{"vowels":0.333333,"scorer":"vowels"}}')  # no `after`: at the end of the line
    back = Sample.model_validate_json(line)
    assert back == scored[0] and back.model_dump_json() == line


def test_rescoring_replaces_the_reading_of_the_scorer_before():
    judged = Sample(**BASE, readings={"ideology": IdeologyScore(conservative=0.2, scorer="ideology")})

    class Agrees(StanceScorer):
        name = "agrees"

        def score(self, statements, responses, progress=None):
            return [StanceResult("agree", 0.95) for _ in responses]

    again = score_samples([judged], Agrees(), show_progress=False)[0]
    assert again.readings == {} and again.stance.label == "agree" and again.stance.kept
    assert judged.with_reading("ideology", None).readings == {}
