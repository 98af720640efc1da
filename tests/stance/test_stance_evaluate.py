"""`polibench stance eval`: metrics at each confidence threshold, tables, JSON and plot outputs."""

import json

import pytest

from polibench.cli.main import main
from polibench.scorers.stance.data import StanceExample
from polibench.scorers.stance.evaluate import THRESHOLDS, evaluate_scorer, format_report, row_at, threshold_rows
from polibench.scoring.base import StanceResult, StanceScorer


class FixedScorer(StanceScorer):
    """Returns preset results, so the expected metrics can be worked out by hand."""

    name = "fixed"

    def __init__(self, results):
        super().__init__(("agree", "disagree", "neutral", "unrelated"))
        self.results = results

    def score(self, statements, responses, progress=None):
        if progress:
            progress(len(statements))
        return list(self.results)


def examples(*labels):
    return [StanceExample("s", f"r{i}", label) for i, label in enumerate(labels)]


def test_threshold_rows_by_hand():
    gold = examples("agree", "agree", "disagree", "neutral")
    results = [StanceResult("agree", 0.95, {}), StanceResult("disagree", 0.55, {}),
               StanceResult("disagree", 0.92, {}), StanceResult(None, 0.0, {})]
    rows = threshold_rows(gold, results)
    assert [r["threshold"] for r in rows] == list(THRESHOLDS)
    low, high = rows[0], rows[9]
    # threshold 0: 3 labelled (the abstention is never retained), 2 right
    assert low["retained"] == 3 and low["retained_share"] == 0.75 and low["accuracy"] == pytest.approx(2 / 3, abs=1e-4)
    assert low["per_class"]["agree"] == {"precision": 1.0, "recall": 0.5, "f1": pytest.approx(2 / 3, abs=1e-4),
                                         "support": 2}
    assert low["per_class"]["disagree"]["precision"] == 0.5
    # threshold 0.9: the two confident, correct answers; neutral has no support so F1 0 in the macro
    assert high["retained"] == 2 and high["accuracy"] == 1.0
    assert high["macro_f1"] == pytest.approx((1 + 1 + 0) / 3, abs=1e-4)
    assert "unrelated" not in high["per_class"]  # absent from the gold labels


def test_evaluate_scorer_report_and_format():
    gold = examples("agree", "disagree")
    scorer = FixedScorer([StanceResult("agree", 0.8, {"agree": 0.8}), StanceResult("agree", 0.6, {"agree": 0.6})])
    report, predictions = evaluate_scorer(scorer, gold, data="x.jsonl", show_progress=False)
    assert report["n"] == 2 and report["abstained"] == 0
    assert row_at(report, 0.7)["retained"] == 1
    assert predictions[1]["predicted"] == "agree" and predictions[1]["label"] == "disagree"
    text = format_report(report)
    assert "confidence >= 0.9: 0/2 retained" in text and "macro" in text


def write_gold(path):
    rows = [
        {"statement": "Taxes should rise.", "response": "I agree with this.", "label": "agree"},
        {"statement": "Taxes should rise.", "response": "I disagree.", "label": "disagree"},
        {"statement": "Taxes should rise.", "response": "I neither agree nor disagree.", "label": "neutral"},
        {"statement": "Taxes should rise.", "response": "The weather is nice.", "label": "unrelated"},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_cli_eval_lexical_writes_json_and_plots(tmp_path, capsys):
    data = write_gold(tmp_path / "gold.jsonl")
    out = tmp_path / "out"
    assert main(["stance", "eval", "--scorer", "lexical", "--data", str(data), "--output", str(out),
                 "--no-progress"]) == 0
    printed = capsys.readouterr().out
    assert "confidence >= 0.9: 3/4 retained (75.0%)" in printed
    report = json.loads((out / "eval.json").read_text())
    assert report["scorer"]["scorer"] == "lexical"
    assert row_at(report, 0.0)["accuracy"] == 1.0
    assert len((out / "predictions.jsonl").read_text().splitlines()) == 4
    assert (out / "thresholds.png").read_bytes()[:4] == b"\x89PNG"
    assert "<svg" in (out / "thresholds.svg").read_text()[:2000]


def test_cli_eval_bad_data_is_one_line_exit_2(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"statement": "s", "response": "r"}\n', encoding="utf-8")
    assert main(["stance", "eval", "--scorer", "lexical", "--data", str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}: line 1: field 'label': missing" in err and "Traceback" not in err
    assert main(["stance", "eval", "--scorer", "nope", "--data", str(write_gold(tmp_path / "g.jsonl"))]) == 2
    assert "unknown scorer 'nope'" in capsys.readouterr().err


def test_cli_eval_without_output_writes_under_runs(tmp_path, capsys, monkeypatch):
    data = write_gold(tmp_path / "gold.jsonl")
    monkeypatch.chdir(tmp_path)
    assert main(["stance", "eval", "--scorer", "lexical", "--data", str(data), "--no-progress"]) == 0
    assert "runs/stance-eval/lexical-gold/eval.json" in capsys.readouterr().out
    assert (tmp_path / "runs" / "stance-eval" / "lexical-gold" / "thresholds.png").is_file()
