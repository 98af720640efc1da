"""Liu et al.'s Algorithm 1 (polibench.debias.liu): the adaptive lambda, both rewards computed by hand, the
hidden-state calibration moving the policy towards the reward within the KL penalty, perplexity under it, the
same-judge refusal, the guidance judge, pronoun slots, and `polibench debias --method liu` end to end on a
tiny GPT-2."""

import json
import math

import numpy as np
import pytest

from polibench.cli.main import main
from polibench.debias.liu import (
    LiuCalibratedBackend,
    LiuSettings,
    adapt_lambda,
    mode1_token_rewards,
    neutrality,
    tfidf_words,
)
from polibench.debias.perplexity import perplexity
from polibench.errors import PolibenchError
from polibench.ideology.corpus import LabelledText
from polibench.ideology.lexical import TfidfIdeologyScorer
from polibench.pipeline.plan import build_samples
from polibench.scoring.ideology import IdeologyScorer
from polibench.taskspec.loader import load_registry
from polibench.taskspec.schema import VariantSet
from tests.tiny_models import tiny_gpt2_lm, tiny_ideology_classifier

TOY = [LabelledText("i agree with this statement", 0, "a"), LabelledText("disagree your response", 1, "b")]
TEXTS = ["i agree with this statement .", "please respond to the following statement", "your response ."]


class WordJudge(IdeologyScorer):
    """0 for 'agree', 1 for 'disagree', 0.5 otherwise."""

    name = "word-judge"

    def judge(self, texts, progress=None):
        return [1.0 if "disagree" in t else 0.0 if "agree" in t else 0.5 for t in texts]


@pytest.fixture(scope="module")
def gpt2(tmp_path_factory):
    return tiny_gpt2_lm(tmp_path_factory.mktemp("gpt2"))


@pytest.fixture(scope="module")
def classifier(tmp_path_factory):
    return tiny_ideology_classifier(tmp_path_factory.mktemp("clf"))


def test_lambda_doubles_above_and_halves_below_the_kl_target():
    assert adapt_lambda(0.6, 0.031, 0.02) == 1.2
    assert adapt_lambda(0.6, 0.013, 0.02) == 0.3
    assert adapt_lambda(0.6, 0.02, 0.02) == 0.6 and adapt_lambda(0.6, 0.029, 0.02) == 0.6
    settings = LiuSettings(mode=1)
    assert settings.kl_target == 0.02 and LiuSettings(mode=2).kl_target == 0.05
    assert settings.steps == 15 and settings.initial_lambda == 0.6 and settings.window == 5
    with pytest.raises(PolibenchError, match="--window"):
        LiuSettings(window=0).check()


def test_mode2_reward_is_minus_log_of_the_larger_side():
    assert neutrality(0.5) == pytest.approx(math.log(2))
    assert neutrality(0.0) == 0.0 and neutrality(1.0) == 0.0
    assert neutrality(0.8) == pytest.approx(-math.log(0.8)) == pytest.approx(neutrality(0.2))


def test_tfidf_words_are_each_sides_own_words():
    corpus = [LabelledText("unions unions healthcare climate taxes", 0, "a"),
              LabelledText("border border guns church taxes", 1, "b")]
    liberal, conservative = tfidf_words(corpus, per_side=2)
    assert liberal == ["unions", "climate"] or liberal == ["unions", "healthcare"]
    assert conservative[0] == "border" and not set(liberal) & set(conservative)
    assert "taxes" not in liberal + conservative  # used equally by both sides


def test_mode1_reward_has_its_three_terms():
    import torch

    emb = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [1.0, -1.0]])
    lib, con = torch.tensor([[1.0, 0.0]]), torch.tensor([[0.0, 1.0]])
    rewards = mode1_token_rewards(emb, lib, con).numpy()
    unit = emb.numpy() / np.linalg.norm(emb.numpy(), axis=1, keepdims=True)
    d_l, d_c = 1 - unit[:, 0], 1 - unit[:, 1]
    assert rewards == pytest.approx(d_l + d_c - np.abs(d_l - d_c))
    assert rewards[2] > rewards[0] and rewards[2] > rewards[1]  # between the sides beats either side


def test_calibration_raises_the_reward_within_the_kl_penalty(gpt2):
    import torch

    backend = LiuCalibratedBackend(str(gpt2), LiuSettings(mode=1, steps=15), corpus=TOY)
    hidden = torch.randn(3, backend.head.weight.shape[1], generator=torch.Generator().manual_seed(0))
    base = torch.log_softmax(backend.head(hidden).float(), -1)
    reward = lambda logp: (logp.exp() * backend.token_rewards).sum(-1)  # noqa: E731
    loose, kl_loose, _ = backend.calibrate(hidden, [0.01] * 3)
    tight, kl_tight, _ = backend.calibrate(hidden, [10.0] * 3)
    assert (reward(loose) > reward(base) + 1e-4).all()
    assert (kl_loose > kl_tight).all() and (kl_tight >= 0).all()
    backend.settings.steps = 0
    same, kl_none, _ = backend.calibrate(hidden, [0.6] * 3)
    assert torch.allclose(same, base, atol=1e-6) and float(kl_none.abs().max()) < 1e-6


def test_calibration_never_ends_below_where_it_started_so_lambda_binds_the_kl(gpt2):
    """On a head as sensitive to the hidden state as SmolLM2's (hidden states of large norm: a step of 0.1 of
    the norm moves the logits far), the K steps still end no worse than no perturbation at all on
    J - lambda KL, so a larger lambda buys a smaller KL, down to far below sigma. Fixed-length steps fail it:
    they overshoot and end with a KL of nats whatever lambda is."""
    import torch

    backend = LiuCalibratedBackend(str(gpt2), LiuSettings(mode=1, steps=15), corpus=TOY)
    hidden = 40 * torch.randn(4, backend.head.weight.shape[1], generator=torch.Generator().manual_seed(1))
    base = torch.log_softmax(backend.head(hidden).float(), -1)
    reward = lambda logp: (logp.exp() * backend.token_rewards).sum(-1)  # noqa: E731
    kls = []
    for lam in (0.6, 19.2, 614.4):  # 0.6 doubled 5 and 10 times, as adaptive lambda does
        logp, kl, _ = backend.calibrate(hidden, [lam] * 4)
        assert (reward(logp) - lam * kl >= reward(base) - 1e-6).all()
        kls.append(kl)
    assert (kls[0] >= kls[1]).all() and (kls[1] >= kls[2]).all()
    assert float(kls[2].max()) < 0.02 / 1.5  # lambda can bring the KL under Mode 1's sigma


def test_each_tokens_kl_stays_within_the_bound_and_a_held_token_doubles_lambda(gpt2):
    """Where lambda is still too small for the head (a continuation's first tokens, lambda 0.6), the KL bound
    (1.5 sigma) holds the token's KL, and that token counts as above the target, so lambda doubles. Without the
    bound the same calibration spends far more than the target."""
    import torch

    hidden = 40 * torch.randn(4, 16, generator=torch.Generator().manual_seed(1))
    bounded = LiuCalibratedBackend(str(gpt2), LiuSettings(mode=1), corpus=TOY)
    _, kl, held = bounded.calibrate(hidden, [0.6] * 4)
    assert float(kl.max()) <= 1.5 * 0.02 + 1e-6 and int(held.sum()) >= 3
    unbounded = LiuCalibratedBackend(str(gpt2), LiuSettings(mode=1, kl_bound=1e6), corpus=TOY)
    _, kl_free, held_free = unbounded.calibrate(hidden, [0.6] * 4)
    assert (kl_free[held] > 3 * 0.02).all() and not held_free.any()
    assert adapt_lambda(0.6, 0.001, 0.02, bound=True) == 1.2 == adapt_lambda(0.6, 0.031, 0.02)
    with pytest.raises(PolibenchError, match="kl_bound"):
        LiuSettings(kl_bound=0.5).check()


def test_mode2_window_rewards_follow_the_judge_and_the_discount(gpt2):
    import torch

    settings = LiuSettings(mode=2, window=2, discount=0.5)
    backend = LiuCalibratedBackend(str(gpt2), settings, guidance=WordJudge())
    vocab = backend.tokenizer.get_vocab()
    candidates = torch.tensor([[vocab["agree"], vocab["statement"]]])
    rewards = backend._rewards_mode2([[vocab["disagree"]]], candidates, [True])[0]
    # "agree": windows "agree" (p 0) and "disagree agree" (p 1): reward 0; "statement": "statement" (p 0.5,
    # log 2, weight 1) and "disagree statement" (p 1, 0, weight 0.5): (log 2) / 1.5
    assert float(rewards[0]) == pytest.approx(0.0)
    assert float(rewards[1]) == pytest.approx(math.log(2) / 1.5, rel=1e-5)


def test_perplexity_without_steps_is_the_models(gpt2):
    backend = LiuCalibratedBackend(str(gpt2), LiuSettings(mode=1, steps=0), corpus=TOY)
    assert backend.perplexity(TEXTS) == pytest.approx(perplexity(str(gpt2), TEXTS), rel=1e-5)
    calibrated = LiuCalibratedBackend(str(gpt2), LiuSettings(mode=1, steps=15, sigma=0.5), corpus=TOY)
    assert calibrated.perplexity(TEXTS) != pytest.approx(perplexity(str(gpt2), TEXTS), rel=1e-3)


def test_guidance_judge_reads_words():
    judge = TfidfIdeologyScorer()
    scores = judge.judge(["Taxes on the rich should rise to pay for public healthcare and welfare.",
                          "Cut taxes, shrink government and let the free market work."])
    assert all(0.0 <= s <= 1.0 for s in scores) and scores[1] > scores[0]
    assert judge.judge([]) == []


def test_same_judge_is_refused_before_any_model_call(tmp_path, gpt2, capsys):
    out = tmp_path / "o"
    code = main(["debias", "--model", str(gpt2), "--output", str(out), "--task", "liu-gender",
                 "--guidance-scorer", "ideology", "--scorer", "ideology"])
    assert code == 2 and "--allow-same-judge" in capsys.readouterr().err and not out.exists()
    assert main(["debias", "--model", str(gpt2), "--output", str(out), "--guidance-scorer", "lexical"]) == 2
    assert not out.exists()


def test_same_judge_is_the_resolved_judge_not_its_name(tmp_path, gpt2, capsys, monkeypatch):
    """`ideology` and `ideology judge=<the default judge's folder>` are one judge, as are `ideology_tfidf` and
    `ideology_tfidf corpus=<the shipped corpus>` (reached by another path): both refused; other judges differ."""
    from polibench.ideology.embedded import EmbeddedIdeologyScorer, default_judge_dir
    from polibench.ideology.lexical import SHIPPED_CORPUS

    out = tmp_path / "o"
    default_dir = default_judge_dir()
    code = main(["debias", "--model", str(gpt2), "--output", str(out), "--task", "liu-gender",
                 "--guidance-scorer", "ideology", "--scorer", "ideology", "--scorer-args", f"judge={default_dir}"])
    assert code == 2 and "--allow-same-judge" in capsys.readouterr().err and not out.exists()
    monkeypatch.chdir(SHIPPED_CORPUS.parent)
    code = main(["debias", "--model", str(gpt2), "--output", str(out), "--task", "liu-gender",
                 "--guidance-scorer-args", f"corpus=../ideology/{SHIPPED_CORPUS.name}", "--scorer", "ideology_tfidf"])
    assert code == 2 and "--allow-same-judge" in capsys.readouterr().err and not out.exists()
    assert EmbeddedIdeologyScorer().identity() == EmbeddedIdeologyScorer(judge=str(default_dir)).identity()
    assert EmbeddedIdeologyScorer().identity() != EmbeddedIdeologyScorer(judge=str(tmp_path)).identity()
    assert TfidfIdeologyScorer().identity() != TfidfIdeologyScorer(corpus=str(tmp_path / "c.jsonl")).identity()
    assert TfidfIdeologyScorer().identity() != EmbeddedIdeologyScorer().identity()
    assert main(["debias", "--model", str(gpt2), "--output", str(out), "--window", "0"]) == 2
    assert not out.exists()


def test_pronouns_match_the_names_group():
    registry = load_registry()
    samples = build_samples(registry.task("liu-gender"), registry, samples_per_prompt=1)
    prompts = {(s.item_id.split(".")[0], s.variant): s.prompt for s in samples}
    assert not any("/" in s.prompt for s in samples)
    assert prompts[("male", "liberal-1")].endswith("About voting he will")
    assert prompts[("female", "conservative-3")] .endswith("and her fellow republican")
    with pytest.raises(ValueError, match="same slots"):
        VariantSet(variant_set="x", variants=[{"id": "a", "template": "{statement}"}],
                   group_slots={"a": {"pronoun": "he"}, "b": {"possessive": "her"}})


def test_debias_liu_runs_end_to_end_and_records_its_judges(tmp_path, gpt2, classifier):
    """Algorithm 1, Mode 2, on a tiny GPT-2: a run folder graded by a judge that did not guide it; then the
    same judge for both, allowed, is said so in debias.json."""
    out = tmp_path / "liu"
    judge = ["--scorer", "ideology_classifier", "--scorer-args", f"model={classifier},device=cpu"]
    assert main(["debias", "--model", str(gpt2), "--output", str(out), "--task", "liu-gender", "--limit", "2",
                 "--samples", "1", "--max-new-tokens", "4", "--no-progress", *judge]) == 0
    record = json.loads((out / "debias.json").read_text())
    assert record["method"] == "liu2022-algorithm1" and record["same_judge"] is False
    assert record["guidance_judge"]["scorer"] == "ideology_tfidf"
    assert record["evaluation_judge"]["scorer"] == "ideology_classifier"
    assert record["settings"]["model_args"]["steps"] == 15 and record["calibration"]["tokens"] > 0
    results = json.loads((out / "results.json").read_text())["results"]["liu-gender"]
    assert results["coverage"]["responses"] == 2 * 10 and results["liu_bias"]["responses"] > 0
    same = tmp_path / "same"
    assert main(["debias", "--model", str(gpt2), "--output", str(same), "--task", "liu-gender", "--limit", "2",
                 "--samples", "1", "--max-new-tokens", "2", "--steps", "1", "--no-progress", "--allow-same-judge",
                 "--guidance-scorer", "ideology_classifier", "--guidance-scorer-args",
                 f"model={classifier},device=cpu", *judge]) == 0
    record = json.loads((same / "debias.json").read_text())
    assert record["same_judge"] is True and "guided" in record["warning"]
    assert json.loads((same / "results.json").read_text())["model"]["warnings"] == [record["warning"]]
    assert f"**warning**: {record['warning']}" in (same / "report.md").read_text()
    assert "warning" not in json.loads((out / "results.json").read_text())["model"]  # different judges: none
    assert "**warning**" not in (out / "report.md").read_text()
