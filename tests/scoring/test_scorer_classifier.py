"""`classifier` scorer on a tiny local 4-label BERT: pairs in, softmax out, batching-invariant, label checks."""

import pytest
import torch
from tiny_scorers import tiny_bert

from polibench.errors import PolibenchError
from polibench.scorers.stance.classifier import ClassifierScorer, encode_pairs
from polibench.scoring.registry import create_scorer

STATEMENTS = ["Taxes should be higher.", "The government should spend less.", "Taxes should be higher."]
RESPONSES = ["I agree with this statement.", "I disagree.", "As an AI I have no opinions, taxes people world."]


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory):
    return tiny_bert(tmp_path_factory.mktemp("clf"), seed=3)


def test_probs_are_the_softmax_of_the_pair_logits(checkpoint):
    scorer = create_scorer("classifier", ["agree", "disagree", "neutral", "unrelated"], model=str(checkpoint))
    results = scorer.score(STATEMENTS, RESPONSES)
    tokenizer, model, id2label = scorer.load()
    with torch.no_grad():
        enc = encode_pairs(tokenizer, STATEMENTS, RESPONSES, padding=True, return_tensors="pt")
        expected = torch.softmax(model(**enc).logits, dim=-1)
    assert enc["token_type_ids"][0].max() == 1  # statement and response are a sentence pair
    for result, row in zip(results, expected):
        assert set(result.probs) == {"agree", "disagree", "neutral", "unrelated"}
        assert sum(result.probs.values()) == pytest.approx(1.0, abs=1e-5)
        assert result.confidence == max(result.probs.values())
        assert result.label == max(result.probs, key=result.probs.get)
        for i, label in id2label.items():
            assert result.probs[label] == pytest.approx(float(row[i]), abs=1e-5)


def test_batch_size_does_not_change_results(checkpoint):
    one = ClassifierScorer(model=str(checkpoint), batch_size=1).score(STATEMENTS, RESPONSES)
    many = ClassifierScorer(model=str(checkpoint), batch_size=8).score(STATEMENTS, RESPONSES)
    for a, b in zip(one, many):
        assert a.label == b.label
        assert a.confidence == pytest.approx(b.confidence, abs=1e-5)


def test_top_label_outside_the_task_labels_abstains(checkpoint):
    scorer = ClassifierScorer(labels=("agree", "disagree"), model=str(checkpoint))
    _, model, id2label = scorer.load()
    neutral = next(i for i, name in id2label.items() if name == "neutral")
    with torch.no_grad():
        model.classifier.bias[neutral] = 50.0  # every response now looks neutral
    results = scorer.score(STATEMENTS, RESPONSES)
    assert all(r.label is None for r in results)
    assert all(r.probs["neutral"] > 0.99 for r in results)


def test_checkpoint_without_stance_labels_is_refused(tmp_path):
    folder = tiny_bert(tmp_path / "nli", {0: "entailment", 1: "neutral", 2: "contradiction"})
    with pytest.raises(PolibenchError, match="not the stance labels"):
        ClassifierScorer(model=str(folder)).score(["s"], ["r"])
    with pytest.raises(PolibenchError, match="could not load"):
        ClassifierScorer(model=str(tmp_path / "missing")).score(["s"], ["r"])
    with pytest.raises(PolibenchError, match="needs a checkpoint"):
        ClassifierScorer().score(["s"], ["r"])
