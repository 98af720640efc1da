import pytest

from polibench.scoring.likert import likert_to_stance, parse_likert


@pytest.mark.parametrize("text, expected", [
    ("4", 4), ("  2.", 2), ('"5"', 5), ("**3**", 3), ("(1)", 1), ("4/5", 4), ("4 out of 5", 4),
    ("Answer: 2", 2), ("My answer is 4.", 4), ("Rating: 5 - strongly agree", 5), ("3 - neutral", 3),
    ("My answer: 1 (strongly disagree)", 1), ("4: Agree", 4), ("2 – disagree.", 2),
])
def test_answers_that_are_one_integer_are_parsed(text, expected):
    assert parse_likert(text) == expected


@pytest.mark.parametrize("text", [
    "", "   ", "3 or 4", "1 is strong disagreement and 5 is strong agreement", "2 - agree", "5 - disagree",
    "I don't agree", "It is complicated.", "10", "7/10", "0.5", "4.5", "3,5",
    # a number or a stance word inside a sentence is for the stance scorer, not the parser (Faulborn et al.)
    "There are 3 main reasons why this is wrong.", "I agree with this statement because it is fair.",
    "Agree", "Strongly agree", "Neutral", "This is a neutral topic.", "4 because the state should act",
])
def test_everything_else_goes_to_the_stance_scorer(text):
    assert parse_likert(text) is None


def test_likert_to_stance():
    assert [likert_to_stance(v) for v in (1, 2, 3, 4, 5)] == ["disagree", "disagree", "neutral", "agree", "agree"]
    with pytest.raises(ValueError):
        likert_to_stance(6)
