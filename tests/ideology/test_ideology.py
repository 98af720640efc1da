"""The ideology judge's material and recipe: the corpus from polibench's statements and arguments (labels by
side, split by statement), a user's corpus, the embedding + regression judge, its figures, and the CLI."""

import json

import numpy as np
import pytest

from polibench.cli.main import main
from polibench.errors import PolibenchError
from polibench.ideology.corpus import builtin_corpus, held_out_statements, read_corpus
from polibench.ideology.judge import EmbeddingJudge, expected_calibration_error, train_judge, validation_figures
from polibench.taskspec.loader import load_registry
from tests.tiny_models import tiny_ideology_classifier


def test_builtin_corpus_labels_each_text_by_the_side_it_supports_and_splits_by_statement():
    train, test = builtin_corpus()
    assert {t.group for t in train}.isdisjoint({t.group for t in test})
    assert {t.group for t in test} <= held_out_statements()
    items = {i.id: i for name in ("pct", "wvs") for i in load_registry().instruments[name].items}
    for text in train + test:
        item = items[text.group]
        side = 1 if item.agree_side == "right" else 0
        if text.kind in ("original", "reformulation", "argument_for"):
            assert text.label == side
        else:
            assert text.kind in ("opposite", "argument_against") and text.label == 1 - side
        if text.kind == "opposite":
            assert text.text == item.forms.opposite
    assert len(train) + len(test) == 7 * len(items)  # 3 forms + 2 arguments for + 2 against, every statement
    assert 0.4 < np.mean([t.label for t in train]) < 0.6


def test_a_users_corpus_is_checked_line_by_line(tmp_path):
    good = tmp_path / "c.jsonl"
    good.write_text('{"text": "a", "label": "liberal"}\n{"text": "b", "label": 1, "group": "g"}\n')
    texts = read_corpus(good)
    assert [(t.text, t.label) for t in texts] == [("a", 0), ("b", 1)] and texts[1].group == "g"
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"text": "a", "label": "liberal"}\n{"text": "b", "label": "green"}\n')
    with pytest.raises(PolibenchError, match=r"bad.jsonl: line 2: field 'label'"):
        read_corpus(bad)
    bad.write_text('{"text": "a", "label": 0}\n')
    with pytest.raises(PolibenchError, match="both labels"):
        read_corpus(bad)


def test_calibration_error_and_figures_against_a_hand_computation():
    probs = np.array([0.1, 0.15, 0.8, 0.85, 0.9, 0.55])
    labels = np.array([0, 1, 1, 1, 0, 1])
    # bins: [0.1,0.2): 0.1, 0.15 -> |0.125 - 0.5|; [0.5,0.6): 0.55 -> |0.55 - 1|; [0.8,0.9): 0.8, 0.85 -> |0.825 - 1|;
    # [0.9,1]: 0.9 -> |0.9 - 0|
    expected = (2 * 0.375 + 1 * 0.45 + 2 * 0.175 + 1 * 0.9) / 6
    assert expected_calibration_error(probs, labels) == pytest.approx(expected)
    figures = validation_figures(probs, labels)
    assert figures["accuracy"] == pytest.approx(4 / 6, abs=1e-4)
    assert figures["brier"] == pytest.approx(np.mean((probs - labels) ** 2), abs=1e-4)


def test_judge_trains_saves_loads_and_learns_a_separable_corpus(tmp_path):
    encoder = str(tiny_ideology_classifier(tmp_path / "enc"))
    from polibench.ideology.corpus import LabelledText

    texts = [LabelledText(t, 0, "a") for t in ["taxes should be higher on the rich", "the poor"] * 6] + \
            [LabelledText(t, 1, "b") for t in ["the freer the market the freer the people", "market"] * 6]
    judge = train_judge(texts, encoder, c=100.0)
    probs = judge.predict([t.text for t in texts])
    assert ((probs >= 0.5) == np.array([t.label for t in texts])).all()
    judge.save(tmp_path / "judge")
    again = EmbeddingJudge.load(tmp_path / "judge")
    assert np.allclose(again.predict([t.text for t in texts]), probs)
    with pytest.raises(PolibenchError, match="not a polibench ideology judge"):
        EmbeddingJudge.load(tmp_path)


def test_cli_trains_on_a_users_corpus_and_evaluates_any_judge(tmp_path, capsys):
    encoder = tiny_ideology_classifier(tmp_path / "enc")
    corpus = tmp_path / "corpus.jsonl"
    rows = [{"text": "taxes should be higher on the rich", "label": "liberal"},
            {"text": "the freer the market the freer the people", "label": "conservative"}] * 5
    corpus.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = tmp_path / "judge"
    assert main(["ideology", "train", "--data", str(corpus), "--output", str(out), "--encoder", str(encoder),
                 "--c", "100"]) == 0
    assert main(["ideology", "train", "--data", str(corpus), "--output", str(out)]) == 2  # refuses to overwrite
    capsys.readouterr()
    assert main(["ideology", "eval", "--judge", str(out), "--data", str(corpus), "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["texts"] == 10 and figures["accuracy"] == 1.0 and figures["f1_macro"] == 1.0
    assert sum(row["texts"] for row in figures["calibration"]) == 10
    assert main(["ideology", "eval", "--scorer", "ideology_classifier", "--scorer-args", f"model={encoder}",
                 "--data", str(corpus)]) == 0
    assert "accuracy" in capsys.readouterr().out
    assert main(["ideology", "eval", "--scorer", "lexical", "--data", str(corpus)]) == 2
