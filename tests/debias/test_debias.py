"""Debiasing on a tiny GPT-2 built from a config: the two rewards, GRPO fine-tuning on TRL (the policy
moves, the checkpoint is probed by `polibench run`), the rerank baseline and held-out perplexity."""

import json
import math

import numpy as np
import pytest

from polibench.cli.main import main
from polibench.debias.calibrate import split_keywords, training_prompts
from polibench.debias.perplexity import perplexity
from polibench.debias.rerank import RerankBackend
from polibench.debias.rewards import JudgeReward, WordListReward
from polibench.models.mock import MockBackend
from polibench.records import GenerationSettings, Prompt
from polibench.scorers.ideology.judges import IdeologyScorer
from polibench.taskspec.loader import load_registry
from tests.tiny_models import tiny_gpt2_lm, tiny_ideology_classifier


class WordJudge(IdeologyScorer):
    """A test judge: 0 for 'left', 1 for 'right', 0.5 otherwise."""

    name = "word-judge"

    def judge(self, texts, progress=None):
        return [0.0 if "left" in t else 1.0 if "right" in t else 0.5 for t in texts]


@pytest.fixture(scope="module")
def gpt2(tmp_path_factory):
    return tiny_gpt2_lm(tmp_path_factory.mktemp("gpt2"))


@pytest.fixture(scope="module")
def encoder(tmp_path_factory):
    return tiny_ideology_classifier(tmp_path_factory.mktemp("enc"))


def test_training_keywords_are_half_of_every_option_and_never_evaluated():
    registry = load_registry()
    items = registry.instruments["liu-topic"].items
    train, held = split_keywords(items)
    assert {i.group for i in train} == {i.group for i in held} == {i.group for i in items}
    assert not {i.id for i in train} & {i.id for i in held} and len(train) + len(held) == len(items)
    prompts = training_prompts(registry.task("liu-topic"), registry)
    assert len(prompts) == len(train) * 10 and not any(i.text in p for i in held for p in prompts
                                                            if all(t.text not in p for t in train))


def test_rewards_prefer_neutral_continuations(encoder):
    judge_reward = JudgeReward(WordJudge())
    assert judge_reward(completions=["left", "right", "neither", ["not a string"]]) == [0.0, 0.0, 1.0, 1.0]
    words = WordListReward(str(encoder), liberal=["taxes", "poor"], conservative=["market", "freer"])
    rewards = words(completions=["taxes poor taxes", "market freer market", "taxes market"])
    assert rewards[2] > rewards[0] and rewards[2] > rewards[1]
    vector = words.embeddings[words.tokenizer("taxes market", add_special_tokens=False)["input_ids"]].mean(0)
    cos = [float(vector @ c / np.linalg.norm(vector) / np.linalg.norm(c)) for c in (words.liberal, words.conservative)]
    assert rewards[2] == pytest.approx(-abs(cos[0] - cos[1]), abs=1e-6)


def test_rerank_keeps_the_most_neutral_candidate():
    inner = MockBackend(responses=["left left", "right", "middle", "left"], order="script")
    backend = RerankBackend(inner, WordJudge(), candidates=4)
    out = backend.generate([Prompt(text="p", seed=1)], GenerationSettings(samples=1))
    assert [c.text for c in out] == ["middle"] and len(inner.calls[0]) == 4
    assert len({p.seed for p in inner.calls[0]}) == 4


def test_perplexity_is_the_exp_of_the_mean_token_loss(gpt2):
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    texts = ["i agree with this statement .", "please respond to the following statement"]
    tokenizer, lm = AutoTokenizer.from_pretrained(gpt2), AutoModelForCausalLM.from_pretrained(gpt2).eval()
    logprobs, count = 0.0, 0
    for text in texts:
        ids = tokenizer(text, return_tensors="pt")["input_ids"][0]
        with torch.no_grad():
            logits = lm(ids[None]).logits[0]
        log_softmax = torch.log_softmax(logits[:-1], -1)
        logprobs += log_softmax[torch.arange(len(ids) - 1), ids[1:]].sum().item()
        count += len(ids) - 1
    assert perplexity(str(gpt2), texts) == pytest.approx(math.exp(-logprobs / count), rel=1e-5)


@pytest.mark.parametrize("mode", ["judge", "words"])
def test_debias_trains_on_trl_and_run_probes_the_checkpoint(tmp_path, gpt2, encoder, mode):
    """Both reward modes train; the judge mode's checkpoint, guided by its evaluation judge (allowed), is then
    probed by `polibench run`, whose results.json and report.md say that the judge guided the model."""
    import torch
    from safetensors.torch import load_file

    out = tmp_path / "calibrated"
    judge_args = ["--scorer", "ideology_classifier", "--scorer-args", f"model={encoder},device=cpu"]
    extra = ["--guidance-scorer", "ideology_classifier", "--guidance-scorer-args", f"model={encoder},device=cpu",
             *judge_args, "--allow-same-judge"] if mode == "judge" else ["--encoder", str(encoder)]
    assert main(["debias", "--method", "grpo", "--model", str(gpt2), "--output", str(out), "--task", "liu-gender",
                 "--mode", mode,
                 "--steps", "2", "--generations", "2", "--prompts-per-step", "2", "--max-new-tokens", "6",
                 "--lr", "1e-2", *extra]) == 0
    before, after = load_file(gpt2 / "model.safetensors"), load_file(out / "model.safetensors")
    assert any(not torch.equal(before[k], after[k]) for k in before if k in after)  # the policy moved
    if mode == "words":
        return
    run = tmp_path / "run"
    assert main(["run", "--backend", "hf", "--model", str(out), "--tasks", "liu-gender", "--limit", "2",
                 "--samples", "1", *judge_args, "--output", str(run), "--no-progress", "--no-cache"]) == 0
    document = json.loads((run / "results.json").read_text())
    results = document["results"]["liu-gender"]
    assert results["coverage"]["responses"] == 2 * 10 and results["liu_bias"]["responses"] > 0
    assert json.loads((out / "debias.json").read_text())["same_judge"] is True
    [warning] = document["model"]["warnings"]
    assert "--allow-same-judge" in warning and "ideology_classifier" in warning
    assert f"**warning**: {warning}" in (run / "report.md").read_text()


def test_debias_refuses_bad_input_before_training(tmp_path, gpt2):
    used = tmp_path / "used"
    used.mkdir()
    (used / "x").write_text("x")
    assert main(["debias", "--model", str(gpt2), "--output", str(used)]) == 2
    assert main(["debias", "--model", str(gpt2), "--output", str(tmp_path / "o"), "--task", "pct"]) == 2
    assert main(["debias", "--model", str(tmp_path / "missing"), "--output", str(tmp_path / "o")]) == 2
    assert main(["debias", "--method", "grpo", "--model", str(gpt2), "--output", str(tmp_path / "o"),
                 "--generations", "1"]) == 2
    assert not (tmp_path / "o").exists()


def test_a_backends_warnings_are_described_but_never_part_of_its_cache_identity():
    from polibench.models.planted import PlantedBackend

    backend = PlantedBackend()
    identity = backend.cache_identity()
    assert "warnings" not in backend.describe()
    backend.warnings = ("guided by its own evaluation judge",)
    assert backend.describe()["warnings"] == ["guided by its own evaluation judge"]
    assert backend.cache_identity() == identity
