"""Answer readers sit in one registry keyed by the variant's ``scoring``: a registered reader is used by the scoring
stage with nothing else to edit, an unknown answer format is one clear error before any model call, and an ideology
judge's score lands in the sample's own typed field (old samples.jsonl files, which carried it in the stance, still
read)."""

from __future__ import annotations

import json

import pytest

from polibench.cli.main import main
from polibench.errors import PolibenchError
from polibench.records import IdeologyScore, Sample, Stance
from polibench.scorers.stance.lexical import LexicalScorer
from polibench.scoring.readers import READERS, AnswerReader, reader_for, register_reader
from polibench.scoring.stage import score_samples


def sample(scoring: str, response: str, n: int = 0) -> Sample:
    return Sample(task="t", instrument="i", item_id=f"q{n}", statement="Taxes should be higher.", variant="v",
                  scoring=scoring, sample_index=0, seed=n, prompt="p", response=response)


def test_every_built_in_answer_format_has_a_reader():
    assert set(READERS) >= {"stance", "likert", "forced_choice", "forced_choice_reversed", "logprob"}
    assert reader_for("likert").read(sample("likert", "4")).label == "agree"
    assert reader_for("stance").read(sample("stance", "4")) is None  # free text: the stance scorer decides


def test_an_unknown_answer_format_is_one_clear_error():
    with pytest.raises(PolibenchError, match=r"answer format \(scoring\) 'yes_no' has no answer reader; known: "
                                             r"forced_choice, forced_choice_bg, .*forced_choice_reversed, .*"
                                             r"forced_choice_tr, likert, logprob, stance$"):
        reader_for("yes_no")


def test_a_registered_reader_is_used_by_the_scoring_stage(monkeypatch):
    monkeypatch.setitem(READERS, "yes_no", READERS["stance"])  # restored after the test
    register_reader(AnswerReader("yes_no", lambda s: Stance(label="agree", confidence=1.0, probs={"agree": 1.0},
                                                            scorer="yes_no", kept=True)
                                 if s.response.strip().lower() == "yes" else None))
    scored = score_samples([sample("yes_no", "Yes"), sample("yes_no", "I oppose it."), sample("stance", "Yes")],
                           LexicalScorer(), threshold=0.0, show_progress=False)
    assert [s.stance.scorer for s in scored] == ["yes_no", "lexical", "lexical"]


VARIANTS = """
variant_set: yes-no
variants:
  - {id: plain, template: "{statement} Answer yes or no.", chat: false, scoring: yes_no}
"""
TASK = """
task: yes-no-pct
instrument: pct
variant_set: yes-no
generation: {samples: 1, max_new_tokens: 5}
scoring: {scorer: lexical}
metrics: [coverage]
"""


def test_a_task_with_an_unread_answer_format_fails_before_any_model_call(tmp_path, capsys):
    folder = tmp_path / "tasks"
    folder.mkdir()
    (folder / "variants.yaml").write_text(VARIANTS)
    (folder / "task.yaml").write_text(TASK)
    out = tmp_path / "run"
    assert main(["run", "--backend", "mock", "--tasks", "yes-no-pct", "--include-path", str(folder), "--limit", "1",
                 "--no-cache", "--no-progress", "--output", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("polibench: error:") == 1 and "Traceback" not in err
    assert "task 'yes-no-pct', prompt variant 'plain': answer format (scoring) 'yes_no' has no answer reader" in err
    assert "polibench: model" not in err and not out.exists()  # before the backend was even created


def test_an_ideology_score_has_its_own_field_and_old_records_still_read():
    p = 0.731
    old = {**sample("stance", "text").model_dump(exclude_none=True),
           "stance": {"label": None, "confidence": 1.0, "probs": {"liberal": 1 - p, "conservative": p},
                      "scorer": "ideology", "kept": True, "reason": ""}}
    read = Sample.model_validate_json(json.dumps(old))
    assert read.reading("ideology") == IdeologyScore(conservative=p, scorer="ideology")
    assert read.stance.label is None and read.stance.kept and read.stance.probs == {}
    # an abstention (no label, not kept) and a normal stance are not ideology scores
    abstained = {**old, "stance": {"label": None, "scorer": "x", "kept": False, "reason": "abstained"}}
    assert Sample.model_validate(abstained).reading("ideology") is None
    # a sample without an ideology score serialises as before the field existed
    assert "ideology" not in json.loads(sample("stance", "text").model_dump_json())
