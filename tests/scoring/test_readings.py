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

import pytest
from pydantic import ValidationError

from polibench.kit.registry import Family, families
from polibench.kit.strict import Strict
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


@pytest.fixture
def planted_reading(monkeypatch):
    """A plugin family declaring the reading ``vowels`` (registered through the family, as an installed one is)."""
    reading = Reading(name="vowels", model=Verdict, after="", verdict=vowel_verdict)
    planted = (*families(), Family(name="planted_vowels", readings=(reading,)))
    monkeypatch.setattr(READINGS, "_found", None)
    monkeypatch.setattr("polibench.kit.registry.families", lambda: planted)
    yield reading
    READINGS.remove("vowels")
    monkeypatch.setattr(READINGS, "_found", None)


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
