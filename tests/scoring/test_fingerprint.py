"""A trained stance scorer's fingerprint (issue 36 §2): weights hash and canary readings, recorded where it read."""

import pytest
import torch
from tiny_scorers import tiny_bert

from polibench.scorers.stance.classifier import ClassifierScorer
from polibench.scoring import fingerprint as fp


def test_weights_digest_sees_one_flipped_bit_and_ignores_order():
    state = {"b": torch.tensor([1.0, 2.0]), "a": torch.tensor([[0.5]], dtype=torch.float64)}
    same = {"a": state["a"].clone(), "b": state["b"].clone()}
    assert fp.weights_digest(state) == fp.weights_digest(same)
    flipped = state["b"].clone()
    flipped.view(torch.int32)[0] ^= 1  # the last bit of one float32
    assert fp.weights_digest({**state, "b": flipped}) != fp.weights_digest(state)
    assert len(fp.weights_digest(state)) == 16


def test_canary_digest_hashes_labels_and_kept_flags_not_last_bits():
    probs = [{"agree": 0.95, "disagree": 0.05}, {"agree": 0.2, "disagree": 0.8}]
    nudged = [{"agree": 0.9500001, "disagree": 0.0499999}, {"agree": 0.21, "disagree": 0.79}]
    assert fp.canary_digest(probs) == fp.canary_digest(nudged)  # same label, same side of 0.9
    assert fp.canary_digest(probs) != fp.canary_digest([probs[0], {"agree": 0.55, "disagree": 0.45}])  # label
    assert fp.canary_digest(probs) != fp.canary_digest([{"agree": 0.85, "disagree": 0.15}, probs[1]])  # kept
    assert fp.readings(probs) == [["agree", True], ["disagree", False]]


def test_a_classifier_records_its_fingerprint_once_it_has_read(tmp_path):
    model = tiny_bert(tmp_path / "m", seed=3)
    scorer = ClassifierScorer(model=str(model))
    assert "fingerprint" not in scorer.describe()  # nothing loaded, nothing read: no fingerprint claimed
    scorer.score(["Taxes should be higher."], ["I agree."])
    found = scorer.describe()["fingerprint"]
    assert set(found) == {"weights", "canary"} and all(len(v) == 16 for v in found.values())
    other = ClassifierScorer(model=str(tiny_bert(tmp_path / "o", seed=4)))
    other.score(["Taxes should be higher."], ["I agree."])
    assert other.describe()["fingerprint"]["weights"] != found["weights"]
    again = ClassifierScorer(model=str(model))
    again.score(["x"], ["y"])
    assert again.describe()["fingerprint"] == found  # the same checkpoint, the same fingerprint


REF = {"weights": "0123456789abcdef", "canary": "fedcba9876543210"}


@pytest.fixture
def reference(monkeypatch):
    monkeypatch.setitem(fp.REFERENCE, "embedded", {**REF, "recipe_version": 0, "trained_on": "test"})


def test_readings_name_what_is_not_the_reference(reference):
    same = fp.Reading("embedded", dict(REF))
    retrained = fp.Reading("embedded", {"weights": "1" * 16, "canary": REF["canary"]})
    drifted = fp.Reading("embedded", {"weights": "1" * 16, "canary": "2" * 16})
    old = fp.Reading("embedded", None)
    lexical = fp.Reading("lexical", None)
    assert same.is_reference and same.why_not_reference() == ""
    assert "reads the canary answers alike" in retrained.why_not_reference()
    assert "reads the canary answers differently" in drifted.why_not_reference()
    assert "no fingerprint recorded" in old.why_not_reference()
    assert "no reference fingerprint" in lexical.why_not_reference() and not lexical.is_reference
    assert not fp.differ(same, fp.Reading("embedded", dict(REF)))
    assert fp.differ(same, retrained) and fp.differ(same, old) and fp.differ(old, fp.Reading("embedded", None))
    assert fp.differ(same, lexical) and not fp.differ(lexical, fp.Reading("lexical", None))
