"""The offline issue-stance scorer (``issue``): its gold set, a planted positive control on a tiny encoder (the side
follows ``topic_pro`` / ``topic_con``, not the wording), ``stance eval --scorer issue`` figures recomputed from its
predictions, bad input, and ``polibench run --tasks issuebench-debug --scorer issue`` feeding issue_bias.

The tiny model (a 1-layer random BERT, tests/tiny_models.py) is trained in seconds; the default model (MiniLM-L6
on the gold set) is trained on first use outside the suite (docs/writing-bias.md has its figures)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from polibench.cli.main import main
from polibench.errors import PolibenchError
from polibench.records import ISSUE_LABELS
from polibench.scorers.issue_stance.data import GOLD_SPLITS, THREE_WAY, IssueExample, load_issue_examples
from polibench.scorers.issue_stance.model import IssueStanceModel, split_sentences, train_model
from tests.tiny_models import tiny_encoder

ROOT = Path(__file__).resolve().parents[2]
GOOD, BAD = ["wonderful", "helpful", "great", "fair"], ["terrible", "harmful", "awful", "unfair"]
NAMES = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa"]
WORDS = GOOD + BAD + NAMES + "plan is for people being a good bad thing however sorry i cannot write about".split()


def response(name: str, label: str) -> str:
    good = [f"plan {name} is {w} for people" for w in GOOD]
    bad = [f"plan {name} is {w} for people" for w in BAD]
    lines = {"1": good, "2": good[:3] + [f"however plan {name} is {BAD[0]}"], "3": good[:2] + ["however"] + bad[:2],
             "4": bad[:3] + [f"however plan {name} is {GOOD[0]}"], "5": bad,
             "refusal": [f"sorry i cannot write about plan {name}"]}[label]
    return "\n".join(lines)


def example(name: str, label: str) -> IssueExample:
    return IssueExample(f"plan {name} being a good thing", f"plan {name} being a bad thing", f"plan {name}",
                        response(name, label), label, meta={"issue_id": name})


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("issue-model")
    encoder = tiny_encoder(folder / "encoder", WORDS)
    train = [example(name, label) for name in NAMES[:8] for label in ISSUE_LABELS]
    model = train_model(str(encoder), train, sentence_c=1.0, head_c=1.0, embeddings=False)
    model.save(folder / "model")
    return folder / "model"


def test_the_gold_set_is_split_by_issue_and_rebuilds_from_its_tool():
    splits = {split: load_issue_examples(f"gold:{split}") for split in GOLD_SPLITS}
    issues = {split: {e.group for e in rows} for split, rows in splits.items()}
    assert not issues["train"] & issues["dev"] and not issues["train"] & issues["test"] and not issues["dev"] & \
        issues["test"]
    for rows in splits.values():
        assert {e.label for e in rows} == set(ISSUE_LABELS)
        assert any(len(e.response) > 2000 for e in rows)  # long answers, as real ones are
    assert subprocess.run([sys.executable, str(ROOT / "tools/issue_stance/build_gold.py"), "--check"]).returncode == 0


def test_long_responses_are_read_sentence_by_sentence_up_to_a_cap():
    text = "\n\n".join(f"Paragraph {i} says one thing. It says another thing too!" for i in range(100))
    sentences = split_sentences(text, limit=64)
    assert len(sentences) == 64 and sentences[0] == "Paragraph 0 says one thing." and sentences[-1] == \
        "It says another thing too!"
    assert split_sentences("") == [""]


def test_planted_sides_are_read_relative_to_the_framings(tiny_model):
    model = IssueStanceModel.load(tiny_model)
    assert model.kind == "two-stage"  # the default recipe's kind (the single-stage kind misreads 2 of these 12)
    held_out = [example(name, label) for name in NAMES[8:] for label in ISSUE_LABELS]
    predicted = [ISSUE_LABELS[i] for i in model.predict(held_out).argmax(1)]
    assert [THREE_WAY[p] for p in predicted] == [THREE_WAY[e.label] for e in held_out]
    # the same texts with topic_pro and topic_con swapped: a praising text is now against topic_pro
    mirrored = [ISSUE_LABELS[i] for i in model.predict([e.mirrored() for e in held_out]).argmax(1)]
    assert [THREE_WAY[p] for p in mirrored] == [THREE_WAY[e.mirrored().label] for e in held_out]
    assert {"pro", "con"} <= {THREE_WAY[p] for p in predicted}


def write_rows(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def test_stance_eval_reports_six_and_three_way_macro_f1_at_thresholds(tiny_model, tmp_path, capsys):
    from sklearn.metrics import f1_score

    rows = [{"topic_pro": e.topic_pro, "topic_con": e.topic_con, "topic_neutral": e.topic_neutral,
             "response": e.response, "label": int(e.label) if e.label != "refusal" else e.label}
            for e in (example(name, label) for name in NAMES[7:] for label in ISSUE_LABELS)]
    data, out = write_rows(tmp_path / "rows.jsonl", rows), tmp_path / "eval"
    assert main(["stance", "eval", "--scorer", "issue", "--scorer-args", f"model={tiny_model}", "--data", str(data),
                 "--output", str(out), "--no-progress"]) == 0
    printed = capsys.readouterr().out
    assert "six-way" in printed and "three-way" in printed and "3-way F1" in printed
    report = json.loads((out / "eval.json").read_text())
    predictions = [json.loads(line) for line in (out / "predictions.jsonl").read_text().splitlines()]
    gold, predicted = [p["label"] for p in predictions], [p["predicted"] for p in predictions]
    first = report["thresholds"][0]
    assert first["threshold"] == 0.0 and first["retained"] == len(rows)
    assert first["six_way"]["macro_f1"] == round(f1_score(gold, predicted, labels=list(ISSUE_LABELS),
                                                          average="macro", zero_division=0), 4)
    assert first["three_way"]["macro_f1"] == round(f1_score([THREE_WAY[g] for g in gold],
                                                            [THREE_WAY[p] for p in predicted],
                                                            labels=["pro", "neutral", "con"], average="macro",
                                                            zero_division=0), 4)
    for row in report["thresholds"]:
        kept = [p for p in predictions if p["confidence"] >= row["threshold"] - 1e-9]
        assert row["retained"] == len(kept)
        # the classes with a retained gold response, printed beside the macro-F1 that counts the others as 0
        assert row["six_way"]["classes_retained"] == len({p["label"] for p in kept})
        assert row["three_way"]["classes_retained"] == len({THREE_WAY[p["label"]] for p in kept})
    assert f"{first['six_way']['macro_f1']:.3f} (6/6)" in printed


@pytest.mark.parametrize("row, message", [
    ({"topic_pro": "a", "topic_neutral": "c", "response": "r", "label": "1"}, "line 1: field 'topic_con': missing"),
    ({"topic_pro": "a", "topic_con": "b", "topic_neutral": "c", "response": "r", "label": "agree"},
     "line 1: field 'label': expected one of 1, 2, 3, 4, 5, refusal"),
    ({"topic_pro": "a", "topic_con": "b", "topic_neutral": "c", "response": 3, "label": 6},
     "line 1: field 'label'"),
])
def test_bad_rows_stop_with_one_message(tmp_path, capsys, row, message):
    data, out = write_rows(tmp_path / "bad.jsonl", [row]), tmp_path / "eval"
    assert main(["stance", "eval", "--scorer", "issue", "--data", str(data), "--output", str(out),
                 "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and not out.exists()
    with pytest.raises(PolibenchError, match="bad.jsonl: line 1"):
        load_issue_examples(data)


def test_issuebench_run_reads_its_stances_from_the_issue_scorer(tiny_model, tmp_path):
    out = tmp_path / "run"
    assert main(["run", "--tasks", "issuebench-debug", "--backend", "mock", "--issues", "129", "--scorer", "issue",
                 "--scorer-args", f"model={tiny_model}", "--output", str(out), "--no-progress", "--no-cache"]) == 0
    document = json.loads((out / "results.json").read_text())
    block = document["results"]["issuebench-debug"]["issue_bias"]
    assert block["graded"] == 30 and document["scoring"]["issuebench-debug"]["scorer"] == "issue"
    samples = [json.loads(line) for line in (out / "samples.jsonl").read_text().splitlines()]
    labels = [s["issue_stance"]["label"] for s in samples]
    assert all(s["issue_stance"]["scorer"] == "issue" for s in samples) and set(labels) <= set(ISSUE_LABELS)
    share = block["refusal_share"]
    assert share == pytest.approx(labels.count("refusal") / len(labels), abs=1e-3)
