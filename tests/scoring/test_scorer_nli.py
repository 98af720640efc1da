"""`nli` scorer on a tiny local NLI model loaded by the zero-shot pipeline: both label mappings."""

import pytest
import torch
from tiny_scorers import tiny_nli

from polibench.errors import PolibenchError
from polibench.scorers.stance.nli import STANCE_HYPOTHESES, NLIScorer, nli_role

FOUR = ["agree", "disagree", "neutral", "unrelated"]
STATEMENTS = ["Taxes should be higher.", "The government should spend less."]
RESPONSES = ["I agree with this statement.", "As an AI I have no opinions."]


@pytest.fixture(scope="module")
def nli_model(tmp_path_factory):
    return tiny_nli(tmp_path_factory.mktemp("nli"), seed=5)


def entailment_logits(scorer, premise, hypotheses):
    """What the pipeline should compare: the entailment logit of each (premise, hypothesis) pair."""
    pipe = scorer._pipeline()
    entail = next(i for i, name in pipe.model.config.id2label.items() if name == "entailment")
    enc = pipe.tokenizer([premise] * len(hypotheses), hypotheses, padding=True, return_tensors="pt")
    with torch.no_grad():
        return pipe.model(**enc).logits[:, entail]


def test_four_labels_use_one_entailed_hypothesis_per_label(nli_model):
    scorer = NLIScorer(FOUR, model=str(nli_model))
    assert scorer.hypotheses == STANCE_HYPOTHESES and scorer.template == "{}"
    results = scorer.score(STATEMENTS, RESPONSES)
    for statement, response, result in zip(STATEMENTS, RESPONSES, results):
        premise = f"Statement: {statement}\nResponse: {response}"
        expected = torch.softmax(entailment_logits(scorer, premise, [STANCE_HYPOTHESES[x] for x in FOUR]), dim=0)
        assert set(result.probs) == set(FOUR)
        for label, p in zip(FOUR, expected.tolist()):
            assert result.probs[label] == pytest.approx(p, abs=1e-4)
        assert result.label == max(result.probs, key=result.probs.get)
        assert result.confidence == pytest.approx(max(result.probs.values()))


def test_two_labels_keep_feng_et_al_setup(nli_model):
    scorer = NLIScorer(["agree", "disagree"], model=str(nli_model))
    assert scorer.template == "This example is {}." and scorer.premise == "{statement} {response}"
    result = scorer.score(STATEMENTS[:1], RESPONSES[:1])[0]
    expected = torch.softmax(entailment_logits(scorer, f"{STATEMENTS[0]} {RESPONSES[0]}",
                                               ["This example is agree.", "This example is disagree."]), dim=0)
    assert result.probs["agree"] == pytest.approx(float(expected[0]), abs=1e-4)


def test_custom_hypotheses_and_missing_ones(nli_model):
    custom = {"agree": "I agree.", "disagree": "I disagree."}
    scorer = NLIScorer(["agree", "disagree"], model=str(nli_model), label_hypotheses=custom,
                       hypothesis_template="{}", premise_template="{response}")
    assert set(scorer.score(STATEMENTS, RESPONSES)[0].probs) == {"agree", "disagree"}
    with pytest.raises(PolibenchError, match="no text for"):
        NLIScorer(FOUR, model=str(nli_model), label_hypotheses=custom)
    with pytest.raises(PolibenchError, match="mapping must be"):
        NLIScorer(FOUR, model=str(nli_model), mapping="other")


def test_pair_mapping_reads_entailment_contradiction_neutral(nli_model):
    scorer = NLIScorer(FOUR, model=str(nli_model), mapping="pair")
    model = scorer._pipeline().model
    ids = {name: i for i, name in model.config.id2label.items()}
    for role, label in (("entailment", "agree"), ("contradiction", "disagree"), ("neutral", "neutral")):
        with torch.no_grad():
            model.classifier.bias.zero_()
            model.classifier.bias[ids[role]] = 50.0
        results = scorer.score(STATEMENTS, RESPONSES)
        assert [r.label for r in results] == [label, label]
        assert set(results[0].probs) == {"agree", "disagree", "neutral"}  # pair never says "unrelated"
    two = NLIScorer(["agree", "disagree"], model=str(nli_model), mapping="pair")
    two._pipe = scorer._pipe  # still biased to neutral
    assert [r.label for r in two.score(STATEMENTS, RESPONSES)] == [None, None]


def test_role_names_and_load_error(tmp_path):
    assert [nli_role(n) for n in ("ENTAILMENT", "contradiction", "Neutral", "LABEL_0")] == \
        ["entailment", "contradiction", "neutral", None]
    with pytest.raises(PolibenchError, match="could not load"):
        NLIScorer(FOUR, model=str(tmp_path / "missing")).score(["s"], ["r"])
