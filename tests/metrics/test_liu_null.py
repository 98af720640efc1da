"""The permutation null of Liu et al.'s bias: its mean against an exact enumeration of every relabelling of
the keywords, a planted difference found (p < 0.05, excess above 0), exchangeable keywords not flagged more
often than the nominal rate, and keyword-level clustering that a response-level shuffle would mistake for bias."""

import itertools

import numpy as np
import pytest

from polibench.families.generation_bias.null import ALPHA, permutation_p
from polibench.metrics.compute import compute_task_results
from polibench.records import Sample, Stance
from polibench.taskspec.loader import load_registry
from tests.metrics.test_generation_bias import exact_w2


def scored_samples(task_name: str, score_of, keep=None, per_prompt: int = 2):
    """One response per (keyword, prompt, index) with score ``score_of(item, trigger, index)``; ``keep(items)``
    chooses the keywords (default: all)."""
    registry = load_registry()
    task = registry.task(task_name)
    items = registry.instruments[task.instruments[0]].items
    items = items if keep is None else keep(items)
    out = []
    for item in items:
        for variant in registry.variant_sets[task.variant_set].variants:
            for index in range(per_prompt):
                p = float(np.clip(score_of(item, variant.id.split("-")[0], index), 0.0, 1.0))
                out.append(Sample(task=task.task, instrument=task.instruments[0], item_id=item.id,
                                  statement=item.text, variant=variant.id, sample_index=index, seed=index,
                                  prompt=variant.template.replace("{statement}", item.text), response="text",
                                  stance=Stance(label=None, confidence=1.0, scorer="ideology", kept=True,
                                                probs={"liberal": 1 - p, "conservative": p})))
    return registry, task, items, out


def liu(task_name, score_of, keep=None, resamples=200, per_prompt=2, seed=None):
    registry, task, items, samples = scored_samples(task_name, score_of, keep, per_prompt)
    return compute_task_results(task, registry.instruments, samples, seed=seed, resamples=resamples)["liu_bias"]


def keyword_effects(seed: int, spread: float = 0.25, noise: float = 0.05):
    """Exchangeable scores with a random effect per keyword (its responses share it) and per-response noise."""
    rng = np.random.default_rng(seed)
    offset: dict[str, float] = {}

    def score_of(item, trigger, index):
        if item.id not in offset:
            offset[item.id] = rng.normal(0.0, spread)
        return 0.5 + offset[item.id] + rng.normal(0.0, noise)
    return score_of


def test_the_null_mean_and_p_value_match_an_exact_enumeration_of_relabellings():
    def first_three_of_each(items):
        return [i for i in items if i.group == "male"][:3] + [i for i in items if i.group == "female"][:3]

    score_of = keyword_effects(seed=11, spread=0.2)
    registry, task, items, samples = scored_samples("liu-gender", score_of, first_three_of_each)
    block = compute_task_results(task, registry.instruments, samples, resamples=1000)["liu_bias"]
    assert block.permutations == 1000
    indirect = [s for s in samples if s.variant.startswith("indirect")]
    score = {id(s): s.reading("ideology").conservative for s in indirect}
    everything = list(score.values())
    ids = [i.id for i in items]
    draws = []
    for males in itertools.combinations(ids, 3):  # all 20 ways to choose the 3 "male" keywords
        draws.append(exact_w2([score[id(s)] for s in indirect if s.item_id in males], everything))
    observed = exact_w2([score[id(s)] for s in indirect if s.item_id in ids[:3]], everything)
    male = block.per_option["male"]
    assert male.indirect == pytest.approx(observed, abs=1e-6)
    spread = np.std(draws) / np.sqrt(1000)
    assert male.indirect_null == pytest.approx(np.mean(draws), abs=4 * spread + 1e-6)
    assert male.indirect_excess == pytest.approx(male.indirect - male.indirect_null, abs=2e-6)
    exact_p = np.mean(np.array(draws) >= observed - 1e-9)
    assert male.indirect_p == pytest.approx(exact_p, abs=0.05)


def test_a_planted_option_is_found_above_the_null():
    rng = np.random.default_rng(5)

    def planted(item, trigger, index):  # red keywords' continuations lean conservative, under every prompt
        return rng.beta(4, 4) + (0.12 if item.group == "red" else 0.0)

    block = liu("liu-location", planted)
    red = block.per_option["red"]
    assert red.indirect_p < ALPHA and red.indirect_excess > 0 and red.ci.indirect_excess.low > 0
    for part in (*block.per_option.values(), block):  # each interval holds its excess
        assert part.ci.indirect_excess.low <= part.indirect_excess <= part.ci.indirect_excess.high
        # the interval is the observed value's spread, moved onto the excess
        assert part.ci.indirect_excess.high - part.ci.indirect_excess.low == pytest.approx(
            part.ci.indirect.high - part.ci.indirect.low, abs=2e-6)
    assert block.indirect_p < ALPHA and block.indirect_excess > 0
    assert red.indirect_null < red.indirect  # the null is what chance alone gives, below the planted value

    def direct(item, trigger, index):  # only the liberal trigger separates blue from the other options
        return rng.beta(4, 4) + (0.15 if item.group == "blue" and trigger == "liberal" else 0.0)

    block = liu("liu-location", direct)
    assert block.per_option["blue"].direct_p < ALPHA and block.per_option["blue"].direct_excess > 0
    assert block.direct_p < ALPHA
    assert block.per_option["blue"].indirect_p >= ALPHA  # the indirect prompts carry nothing


def test_exchangeable_keywords_are_not_flagged_more_than_the_nominal_rate():
    # keyword effects make responses of one keyword alike: a null that shuffled single responses instead of
    # keywords would be far too narrow and flag nearly every one of these
    blocks = [liu("liu-gender", keyword_effects(seed), per_prompt=1, resamples=100) for seed in range(8)]
    for measure in ("indirect", "direct"):
        ps = [getattr(b, f"{measure}_p") for b in blocks]
        excess = [getattr(b, f"{measure}_excess") for b in blocks]
        nulls = [getattr(b, f"{measure}_null") for b in blocks]
        assert sum(p < ALPHA for p in ps) <= 2, (measure, ps)  # binomial(8, 0.05): P(3 or more) < 1%
        assert 0.2 < np.mean(ps) < 0.8, (measure, ps)  # roughly uniform
        assert abs(np.mean(excess)) < 0.5 * np.mean(nulls), (measure, excess)  # near 0 on the noise floor's scale
        covered = [getattr(b.ci, f"{measure}_excess").low <= 0 <= getattr(b.ci, f"{measure}_excess").high
                   for b in blocks]
        assert sum(covered) >= 6, (measure, covered)  # the excess's interval holds 0 (95% each, 8 seeds)


def test_the_permutation_p_value_has_the_plus_one_correction():
    draws = np.array([0.1, 0.2, 0.3, np.nan])
    assert permutation_p(0.5, draws) == pytest.approx(1 / 4)  # never 0
    assert permutation_p(0.2, draws) == pytest.approx(3 / 4)  # ties count as "at or above"
    assert permutation_p(float("nan"), draws) is None
