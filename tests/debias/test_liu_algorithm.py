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
    PAPER_LAMBDA_SWEEP,
    LiuCalibratedBackend,
    LiuSettings,
    adapt_lambda,
    mode1_token_rewards,
    neutrality,
    tfidf_words,
)
from polibench.debias.perplexity import perplexity
from polibench.errors import PolibenchError
from polibench.pipeline.plan import build_samples
from polibench.scorers.ideology.corpus import LabelledText
from polibench.scorers.ideology.judges import IdeologyScorer
from polibench.scorers.ideology.tfidf import TfidfIdeologyScorer
from polibench.taskspec.loader import load_registry
from polibench.taskspec.schema import VariantSet
from tests.tiny_models import tiny_gpt2_lm, tiny_ideology_classifier

TOY = [LabelledText("i agree with this statement", 0, "a"), LabelledText("disagree your response", 1, "b")]
TEXTS = ["i agree with this statement .", "please respond to the following statement", "your response ."]
MOVING_LR = 0.01  # Adam's rate for the mechanics tests: 15 steps at it move the toy head's distribution visibly


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


def test_settings_are_the_papers_by_default():
    settings = LiuSettings(mode=1)
    assert settings.kl_target == 0.02 and LiuSettings(mode=2).kl_target == 0.05
    assert settings.steps == 15 and settings.initial_lambda == 0.6 and settings.window == 5
    assert settings.optimizer == "adam" and settings.kl_cap is None and settings.safeguards() == []
    assert PAPER_LAMBDA_SWEEP == (0.1, 0.3, 0.5, 0.7, 0.9)
    guarded = LiuSettings(mode=1, optimizer="backtracking", kl_cap=1.5)
    assert len(guarded.safeguards()) == 2 and all("polibench" in s for s in guarded.safeguards())
    with pytest.raises(PolibenchError, match="--window"):
        LiuSettings(window=0).check()
    for bad, flag in ((dict(initial_lambda=-0.1), "--lambda"), (dict(kl_cap=0.0), "--kl-cap"),
                      (dict(optimizer="sgd"), "--optimizer"), (dict(lr=0.0), "--lr")):
        with pytest.raises(PolibenchError, match=flag):
            LiuSettings(**bad).check()
    LiuSettings(initial_lambda=0.0).check()  # 0 = no debiasing, allowed


# KL of each decoding step, in units of sigma, and the lambda the paper's rule gives after it (lambda_0 = 0.6):
# halve when KL >= 2 sigma, double when KL <= sigma / 2, else keep. The comments mark the steps where PPO's
# thresholds (x2 above 1.5 sigma, /2 below sigma / 1.5) or a KL-weight reading (lambda doubled when the KL is
# high) would move lambda otherwise.
KL_SEQUENCE = [
    (2.0, 0.3),     # exactly 2 sigma: halve
    (1.99, 0.3),    # just below: keep (PPO: x2)
    (1.6, 0.3),     # keep (PPO: x2)
    (0.5, 0.6),     # exactly sigma / 2: double
    (0.51, 0.6),    # keep
    (0.6, 0.6),     # keep (PPO: /2)
    (0.0, 1.2),     # no KL at all: double
    (0.1, 2.4),     # double
    (5.0, 1.2),     # far above: halve (a KL weight would double)
    (3.0, 0.6),     # halve
    (1.0, 0.6),     # at sigma: keep
]


def test_lambda_rises_and_falls_by_the_papers_thresholds():
    sigma, lam = 0.05, 0.6
    for kl_in_sigma, expected in KL_SEQUENCE:
        lam = adapt_lambda(lam, kl_in_sigma * sigma, sigma)
        assert lam == pytest.approx(expected), kl_in_sigma
    assert adapt_lambda(0.6, 0.001, 0.02, capped=True) == 0.3  # a token held at polibench's cap counts as above
    assert adapt_lambda(0.0, 0.0, 0.02) == 0.0  # lambda 0 stays 0: no debiasing


def test_decoding_adapts_lambda_along_a_constructed_kl_sequence(gpt2, monkeypatch):
    """The decoding loop hands each step's KL to the rule and the next step's calibration gets the new lambda:
    the calibration is replaced by one that reports the constructed KL sequence (and always picks one word)."""
    import torch

    from polibench.records import GenerationSettings, Prompt

    backend = LiuCalibratedBackend(str(gpt2), LiuSettings(mode=1), corpus=TOY)
    word = backend.tokenizer.get_vocab()["statement"]
    sigma, seen = backend.settings.kl_target, []

    def constructed(hidden, lam, candidates=None, rewards=None):
        step = len(seen)
        seen.append(list(lam))
        logits = torch.full((hidden.shape[0], backend.head.weight.shape[0]), -30.0)
        logits[:, word] = 0.0
        kl = torch.full((hidden.shape[0],), KL_SEQUENCE[step][0] * sigma, dtype=torch.float64)  # exact at 2 sigma
        return torch.log_softmax(logits, -1), kl, torch.zeros(hidden.shape[0], dtype=torch.bool)

    monkeypatch.setattr(backend, "calibrate", constructed)
    backend.generate([Prompt(text="i agree", seed=1), Prompt(text="your response", seed=2)],
                     GenerationSettings(samples=1, max_new_tokens=len(KL_SEQUENCE)))
    assert [row[0] for row in seen] == pytest.approx([0.6] + [lam for _, lam in KL_SEQUENCE[:-1]])
    assert all(row[0] == row[1] for row in seen)
    assert backend.stats.lambdas_final == pytest.approx([KL_SEQUENCE[-1][1]] * 2)
    summary = backend.stats.summary(sigma)
    assert summary["share_kl_at_or_above_2_sigma"] == pytest.approx(3 / 11, abs=1e-4)
    assert summary["share_kl_at_or_below_half_sigma"] == pytest.approx(3 / 11, abs=1e-4)


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


@pytest.mark.parametrize("optimizer", ["adam", "backtracking"])
def test_lambda_zero_changes_nothing(gpt2, optimizer):
    """lambda is the debias strength: at 0, Eq. 9 is max -KL, whose maximiser is Delta = 0, and the calibrated
    distribution is the model's own, bit for bit, for either optimiser (such rows are left at Delta = 0 rather
    than handed to Adam, which would step on the rounding of a zero gradient); a whole decoding at
    lambda_0 = 0 writes what no calibration (K = 0) writes, and perplexity under it is the model's. A reading
    with lambda on the KL fails test_a_larger_lambda_buys_more_reward_for_more_kl and the Adam test below."""
    import torch

    from polibench.records import GenerationSettings, Prompt

    backend = LiuCalibratedBackend(str(gpt2), LiuSettings(mode=1, initial_lambda=0.0, optimizer=optimizer),
                                   corpus=TOY)
    hidden = torch.randn(3, backend.head.weight.shape[1], generator=torch.Generator().manual_seed(0))
    base = torch.log_softmax(backend.head(hidden).float(), -1)
    logp, kl, capped = backend.calibrate(hidden, [0.0] * 3)
    assert torch.equal(logp, base) and float(kl.abs().max()) == 0.0 and not capped.any()
    moved, kl_moved, _ = backend.calibrate(hidden, [0.6] * 3)  # the same rows do move at lambda 0.6
    assert float(kl_moved.min()) > 0 and not torch.equal(moved, base)
    prompts = [Prompt(text="i agree with", seed=3), Prompt(text="please respond", seed=4)]
    settings = GenerationSettings(samples=1, max_new_tokens=6)
    plain = LiuCalibratedBackend(str(gpt2), LiuSettings(mode=1, steps=0), corpus=TOY)  # no calibration at all
    assert [c.text for c in backend.generate(prompts, settings)] == [c.text for c in plain.generate(prompts, settings)]
    assert backend.stats.kl_sum == 0.0 and backend.stats.lambdas_final == [0.0, 0.0]
    assert backend.perplexity(TEXTS[:2]) == plain.perplexity(TEXTS[:2])  # the model's (test below)


def test_the_optimiser_is_adam_with_k_steps(gpt2, monkeypatch):
    """K calls of torch.optim.Adam's step per decoding step, and the result is K Adam updates (written out here,
    torch's defaults: betas 0.9 / 0.999, eps 1e-8) on u, Delta = rms(h) u, descending -(lambda R - KL)."""
    import torch

    calls = []
    original = torch.optim.Adam.step

    def counted(self, *args, **kwargs):
        calls.append(self)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(torch.optim.Adam, "step", counted)
    backend = LiuCalibratedBackend(str(gpt2), LiuSettings(mode=1, steps=7), corpus=TOY)
    hidden = 3 * torch.randn(2, backend.head.weight.shape[1], generator=torch.Generator().manual_seed(2))
    lam = torch.tensor([0.4, 2.0])
    logp, kl, _ = backend.calibrate(hidden, lam.tolist())
    assert len(calls) == 7 and len(set(map(id, calls))) == 1  # one Adam, K steps

    base = torch.log_softmax(backend.head(hidden), -1)
    scale = hidden.pow(2).mean(-1, keepdim=True).sqrt()
    u, m, v = torch.zeros_like(hidden), torch.zeros_like(hidden), torch.zeros_like(hidden)
    rate, beta1, beta2, eps = backend.settings.step_size, 0.9, 0.999, 1e-8
    for t in range(1, 8):
        u_ = u.clone().requires_grad_(True)
        q = torch.log_softmax(backend.head(hidden + scale * u_), -1)
        value = lam * (q.exp() * backend.token_rewards).sum(-1) - (q.exp() * (q - base)).sum(-1)
        (grad,) = torch.autograd.grad(-value.sum(), u_)
        m = beta1 * m + (1 - beta1) * grad
        v = beta2 * v + (1 - beta2) * grad ** 2
        u = u - rate * (m / (1 - beta1 ** t)) / ((v / (1 - beta2 ** t)).sqrt() + eps)
    expected = torch.log_softmax(backend.head(hidden + scale * u), -1)
    assert torch.allclose(logp, expected, atol=1e-4)
    assert torch.allclose(kl, (expected.exp() * (expected - base)).sum(-1), atol=1e-5)


def test_a_larger_lambda_buys_more_reward_for_more_kl(gpt2):
    """lambda weights the reward: the larger it is, the higher the reward the K steps reach and the more KL they
    spend (the paper's 'debias strength'). At Adam's rate 0.01 (MOVING_LR): at ADAM_LR (0.001) the 15 steps move
    this toy head's distribution too little for the differences to stand above float noise."""
    import torch

    backend = LiuCalibratedBackend(str(gpt2), LiuSettings(mode=1, steps=15, lr=MOVING_LR), corpus=TOY)
    hidden = torch.randn(3, backend.head.weight.shape[1], generator=torch.Generator().manual_seed(0))
    base = torch.log_softmax(backend.head(hidden).float(), -1)
    reward = lambda logp: (logp.exp() * backend.token_rewards).sum(-1)  # noqa: E731
    weak, kl_weak, _ = backend.calibrate(hidden, [0.1] * 3)
    strong, kl_strong, _ = backend.calibrate(hidden, [10.0] * 3)
    assert (reward(weak) > reward(base)).all() and (reward(strong) > reward(weak) + 1e-4).all()
    assert (kl_strong > kl_weak).all() and (kl_weak >= 0).all()
    backend.settings.steps = 0
    same, kl_none, _ = backend.calibrate(hidden, [0.6] * 3)
    assert torch.allclose(same, base, atol=1e-6) and float(kl_none.abs().max()) < 1e-6


def test_backtracking_safeguard_never_ends_below_where_it_started(gpt2):
    """polibench's own --optimizer backtracking (not the paper's): on a head as sensitive to the hidden state as
    SmolLM2's (hidden states of large norm), the K steps end no worse than no perturbation on lambda R - KL, so
    a smaller lambda buys a smaller KL. Fixed-length steps fail it: they overshoot and end with a KL of nats
    whatever lambda is."""
    import torch

    backend = LiuCalibratedBackend(str(gpt2), LiuSettings(mode=1, steps=15, optimizer="backtracking"), corpus=TOY)
    hidden = 40 * torch.randn(4, backend.head.weight.shape[1], generator=torch.Generator().manual_seed(1))
    base = torch.log_softmax(backend.head(hidden).float(), -1)
    reward = lambda logp: (logp.exp() * backend.token_rewards).sum(-1)  # noqa: E731
    kls = []
    for lam in (1.0, 1 / 32, 1 / 1024):  # halved 5 and 10 times, as the adaptive rule does
        logp, kl, _ = backend.calibrate(hidden, [lam] * 4)
        assert (lam * reward(logp) - kl >= lam * reward(base) - 1e-6).all()
        kls.append(kl)
    assert (kls[0] >= kls[1]).all() and (kls[1] >= kls[2]).all()
    assert float(kls[2].max()) < 0.02 / 2  # lambda can bring the KL under sigma / 2


@pytest.mark.parametrize("optimizer", ["adam", "backtracking"])
def test_kl_cap_safeguard_holds_each_token_and_a_capped_token_halves_lambda(gpt2, optimizer):
    """polibench's own --kl-cap (off by default, not the paper's): with a cap of 1.5 sigma no token's KL goes
    above it, and a token held there halves lambda. Without it the same calibration spends more than that."""
    import torch

    hidden = 40 * torch.randn(4, 16, generator=torch.Generator().manual_seed(1))
    lr = MOVING_LR if optimizer == "adam" else None  # a rate at which the free steps go past the cap
    capped_backend = LiuCalibratedBackend(str(gpt2), LiuSettings(mode=1, optimizer=optimizer, kl_cap=1.5, lr=lr),
                                          corpus=TOY)
    _, kl, held = capped_backend.calibrate(hidden, [5.0] * 4)
    assert float(kl.max()) <= 1.5 * 0.02 + 1e-6 and int(held.sum()) >= 3
    free = LiuCalibratedBackend(str(gpt2), LiuSettings(mode=1, optimizer=optimizer, lr=lr), corpus=TOY)
    _, kl_free, held_free = free.calibrate(hidden, [5.0] * 4)
    assert (kl_free[held] > 1.5 * 0.02).all() and not held_free.any()
    assert adapt_lambda(5.0, float(kl[0]), 0.02, capped=True) == 2.5


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
    calibrated = LiuCalibratedBackend(str(gpt2), LiuSettings(mode=1, steps=15, initial_lambda=5.0, lr=MOVING_LR),
                                      corpus=TOY)
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
    from polibench.scorers.ideology.embedded import EmbeddedIdeologyScorer, default_judge_dir
    from polibench.scorers.ideology.tfidf import SHIPPED_CORPUS

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
    assert record["paper_algorithm"] is True and record["polibench_safeguards"] == []
    assert record["settings"]["model_args"]["optimizer"] == "adam"
    assert record["settings"]["model_args"]["initial_lambda"] == 0.6
    results = json.loads((out / "results.json").read_text())["results"]["liu-gender"]
    assert results["coverage"]["responses"] == 2 * 10 and results["liu_bias"]["responses"] > 0
    same = tmp_path / "same"
    assert main(["debias", "--model", str(gpt2), "--output", str(same), "--task", "liu-gender", "--limit", "2",
                 "--samples", "1", "--max-new-tokens", "2", "--steps", "1", "--no-progress", "--allow-same-judge",
                 "--optimizer", "backtracking", "--kl-cap", "1.5",
                 "--guidance-scorer", "ideology_classifier", "--guidance-scorer-args",
                 f"model={classifier},device=cpu", *judge]) == 0
    record = json.loads((same / "debias.json").read_text())
    assert record["same_judge"] is True and "guided" in record["warning"]
    assert record["paper_algorithm"] is False and len(record["polibench_safeguards"]) == 2
    assert record["settings"]["model_args"]["kl_cap"] == 1.5
    assert json.loads((same / "results.json").read_text())["model"]["warnings"] == [record["warning"]]
    assert f"**warning**: {record['warning']}" in (same / "report.md").read_text()
    assert "warning" not in json.loads((out / "results.json").read_text())["model"]  # different judges: none
    assert "**warning**" not in (out / "report.md").read_text()
