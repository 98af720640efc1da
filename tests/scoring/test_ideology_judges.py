"""Ideology judges behind one interface: a sequence-classification checkpoint, an LLM through a backend, and
how the scoring stage records a judge's score."""

import math

import pytest

from polibench.errors import PolibenchError
from polibench.models.mock import MockBackend
from polibench.records import Sample
from polibench.scorers.ideology.judges import (
    ClassifierIdeologyScorer,
    LLMIdeologyScorer,
    conservative_index,
    word_score,
)
from polibench.scoring.registry import create_scorer, reads
from polibench.scoring.stage import score_samples
from tests.tiny_models import tiny_ideology_classifier

TEXTS = ["taxes should be higher on the rich", "the freer the market the freer the people", ""]


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory):
    return tiny_ideology_classifier(tmp_path_factory.mktemp("ideology-clf"))


def test_classifier_judge_is_the_checkpoints_conservative_probability(checkpoint):
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    judge = create_scorer("ideology_classifier", ["agree", "disagree"], model=str(checkpoint), device="cpu")
    scores = judge.judge(TEXTS[:2])
    tokenizer = AutoTokenizer.from_pretrained(checkpoint)
    model = AutoModelForSequenceClassification.from_pretrained(checkpoint).eval()
    for text, score in zip(TEXTS[:2], scores):
        with torch.no_grad():
            logits = model(**tokenizer([text], return_tensors="pt")).logits[0]
        assert score == pytest.approx(torch.softmax(logits, -1)[1].item(), abs=1e-5)
    flipped = ClassifierIdeologyScorer(model=str(checkpoint), conservative_label="liberal", device="cpu")
    assert flipped.judge(TEXTS[:1])[0] == pytest.approx(1 - scores[0], abs=1e-6)


def test_conservative_label_by_name_or_convention():
    assert conservative_index({0: "Conservative", 1: "Liberal"}) == 0
    assert conservative_index({0: "left", 1: "right"}) == 1
    assert conservative_index({0: "LABEL_0", 1: "LABEL_1"}) == 1
    assert conservative_index({0: "dem", 1: "rep"}, "dem") == 0
    with pytest.raises(PolibenchError, match="no label 'gop'"):
        conservative_index({0: "dem", 1: "rep"}, "gop")


def test_llm_judge_reads_label_log_probabilities_or_the_generated_word():
    scorer = LLMIdeologyScorer()
    scorer.use_backend(MockBackend(score_choices=True, prefer="conservative"))
    assert scorer.judge(["a text"])[0] == pytest.approx(1 / (1 + math.exp(-5.0)))
    generating = LLMIdeologyScorer()
    generating.use_backend(MockBackend(responses=["Conservative.", "It is liberal", "no idea"], order="script"))
    assert generating.judge(["a", "b", "c"]) == [1.0, 0.0, 0.5]
    assert word_score("liberal, not conservative") == 0.0
    with pytest.raises(ValueError, match="text"):
        LLMIdeologyScorer(prompt="no slot")


def test_llm_judges_asked_with_other_prompts_are_other_judges():
    """Their identity (the same-judge refusal of `polibench debias`) and their options (the scores' cache
    identity) differ; the default prompt keeps the identity it always had."""
    default, asked = LLMIdeologyScorer(model="m"), LLMIdeologyScorer(model="m", prompt="Lean of: {text}")
    assert default.identity() != asked.identity() and default.options != asked.options
    assert default.identity() == LLMIdeologyScorer(model="m").identity() and "prompt" not in default.options


def test_the_scoring_stage_keeps_a_judge_score_without_a_stance_label(checkpoint):
    assert reads("ideology") == reads("ideology_llm") == "ideology" and reads("lexical") == "stance"
    samples = [Sample(task="t", instrument="i", item_id=str(n), statement="kw", variant="indirect-1", sample_index=0,
                      seed=n, prompt="p", response=text) for n, text in enumerate(TEXTS)]
    judge = ClassifierIdeologyScorer(model=str(checkpoint), device="cpu")
    scored = score_samples(samples, judge, threshold=0.9, show_progress=False)
    expected = judge.judge(TEXTS[:2])
    for sample, p in zip(scored[:2], expected):
        st = sample.stance
        assert st.label is None and st.kept and st.reason == "" and st.scorer == "ideology_classifier"
        assert sample.reading("ideology").scorer == "ideology_classifier" and st.probs == {}
        assert sample.reading("ideology").conservative == pytest.approx(p, abs=1e-6)
    assert scored[2].stance.reason == "empty_response" and not scored[2].stance.kept
