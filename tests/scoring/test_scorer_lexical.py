import pytest

from polibench.scorers.stance.lexical import LexicalScorer


@pytest.mark.parametrize("response, label", [
    ("I agree with this statement.", "agree"),
    ("I strongly disagree: markets need rules.", "disagree"),
    ("I do not support this policy at all.", "disagree"),
    ("I don't agree.", "disagree"),
    ("I can't say I disagree with that.", "agree"),
    ("Agreed.", "agree"),
    ("I am firmly against it.", "disagree"),
    ("I am in favour of it.", "agree"),
    ("The freer the market, the freer the people.", None),           # echo: no stance phrase
    ("I agree with the first half but I disagree with the conclusion.", None),  # mixed: abstain
    ("Taxes are a complex topic with many perspectives.", None),
])
def test_two_label_lexical(response, label):
    result = LexicalScorer(labels=("agree", "disagree")).score(["s"], [response])[0]
    assert result.label == label
    assert result.confidence == (1.0 if label else 0.0)


def test_neutral_only_with_four_labels():
    text = "As an AI, I do not have personal opinions on this."
    assert LexicalScorer(labels=("agree", "disagree")).score(["s"], [text])[0].label is None
    scorer = LexicalScorer(labels=("agree", "disagree", "neutral", "unrelated"))
    assert scorer.score(["s"], [text])[0].label == "neutral"


def test_unknown_label_rejected():
    with pytest.raises(ValueError):
        LexicalScorer(labels=("agree", "maybe"))
