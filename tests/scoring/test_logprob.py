"""The log-probability channel's per-prompt definitions and stance (polibench.scoring.logprob)."""

import math

import numpy as np
import pytest

from polibench.records import Sample
from polibench.scoring.forced_choice import forced_choice_stance
from polibench.scoring.logprob import logprob_stance, option_distribution, per_prompt
from polibench.scoring.registry import create_scorer
from polibench.scoring.stage import score_samples


def test_definitions_against_hand_computed_values():
    logprobs = [math.log(0.1), math.log(0.2), math.log(0.3), math.log(0.2)]  # 0.8 on the options
    probs = option_distribution(logprobs)
    assert probs == pytest.approx([0.125, 0.25, 0.375, 0.25])
    rows, expected, entropy, non_answer = per_prompt(np.array([logprobs]))  # what the metric computes
    assert rows[0] == pytest.approx(probs)
    assert expected[0] == pytest.approx(1 * 0.125 + 2 * 0.25 + 3 * 0.375 + 4 * 0.25)
    assert entropy[0] == pytest.approx(-(0.125 * math.log2(0.125) + 2 * 0.25 * math.log2(0.25)
                                         + 0.375 * math.log2(0.375)))
    assert non_answer[0] == pytest.approx(0.2)
    assert per_prompt(np.log(np.full((1, 4), 0.25)))[2][0] == pytest.approx(2.0)
    assert per_prompt(np.array([[0.0, -np.inf, -np.inf, -np.inf]]))[2][0] == 0.0
    # very negative log-probabilities do not underflow the softmax
    assert option_distribution([-2000.0, -2001.0]) == pytest.approx([1 / (1 + math.e ** -1), 1 / (1 + math.e)])
    assert per_prompt(np.array([[-2000.0, -2001.0]]))[0][0] == pytest.approx([1 / (1 + math.e ** -1), 1 / (1 + math.e)])


def test_stance_is_the_most_probable_option_mapped_as_the_text_channels_map_it():
    stance = logprob_stance([-3.0, -2.0, -0.5, -4.0])
    label, probs = forced_choice_stance(2)
    assert (stance.label, stance.probs, stance.kept, stance.scorer) == (label, probs, True, "logprob:agree")
    assert stance.confidence == pytest.approx(option_distribution([-3.0, -2.0, -0.5, -4.0])[2], abs=1e-6)
    likert = logprob_stance([-5.0, -4.0, -0.1, -3.0, -6.0])  # Likert 3 is neither
    assert (likert.label, likert.scorer, likert.kept) == ("neutral", "logprob:neither", True)
    assert logprob_stance([-5.0, -4.0, -3.0, -3.0, -0.2]).label == "agree"
    assert logprob_stance(None).kept is False


def test_scoring_stage_never_sends_logprob_samples_to_the_scorer():
    sample = Sample(task="t", instrument="i", item_id="1", statement="s", variant="v", scoring="logprob",
                    sample_index=0, seed=1, prompt="p", options=["a", "b", "c", "d"],
                    option_logprobs=[-0.1, -3.0, -4.0, -5.0])

    class Refuses:
        name = "refuses"

        def score_samples(self, samples, progress=None):
            raise AssertionError("the stance scorer was called")

    (scored,) = score_samples([sample], Refuses(), show_progress=False)  # type: ignore[arg-type]
    assert scored.stance.scorer == "logprob:strongly disagree" and scored.stance.kept
    assert create_scorer("lexical", ["agree", "disagree"])  # the usual scorers still build


def test_samples_without_options_serialise_as_before():
    plain = Sample(task="t", instrument="i", item_id="1", statement="s", variant="v", sample_index=0, seed=1,
                   prompt="p", response="r")
    dumped = plain.model_dump(mode="json")
    assert "options" not in dumped and "option_logprobs" not in dumped and "mask_fills" not in dumped
    with_options = Sample.model_validate_json(Sample(
        task="t", instrument="i", item_id="1", statement="s", variant="v", scoring="logprob", sample_index=0, seed=1,
        prompt="p", options=["x", "y", "z", "w"], option_logprobs=[-1.0, -2.0, -3.0, -4.0]).model_dump_json())
    assert with_options.option_logprobs == [-1.0, -2.0, -3.0, -4.0]
