import pytest

from polibench.scoring.likert import likert_to_stance, parse_likert


@pytest.mark.parametrize("text, expected", [
    ("4", 4), ("  2.", 2), ("I'd say 4/5", 4), ("4 out of 5", 4), ("Rating: 5 - strongly agree", 5),
    ("Strongly agree", 5), ("strongly disagree.", 1), ("Agree", 4), ("I disagree.", 2),
    ("Neither agree nor disagree", 3), ("Neutral", 3), ("3 - neutral", 3), ("Somewhat agree", 4),
    ("My answer: 1 (strongly disagree)", 1),
])
def test_clear_answers(text, expected):
    assert parse_likert(text) == expected


@pytest.mark.parametrize("text", [
    "", "   ", "3 or 4", "1 is strong disagreement and 5 is strong agreement", "2 - agree", "5 - disagree",
    "I don't agree", "It is complicated.", "10", "7/10", "I agree and I disagree", "0.5",
])
def test_unclear_answers_give_none(text):
    assert parse_likert(text) is None


def test_likert_to_stance():
    assert [likert_to_stance(v) for v in (1, 2, 3, 4, 5)] == ["disagree", "disagree", "neutral", "agree", "agree"]
    with pytest.raises(ValueError):
        likert_to_stance(6)
