"""Liu et al.'s indirect and direct bias: W2 (sliced == plain in 1-D), the block against an independent
computation, the two-way bootstrap, and a shifted option measured as more biased."""

import zlib

import numpy as np
import ot
import pytest

from polibench.errors import PolibenchError
from polibench.families.generation_bias.metric import LiuBlock, w2, w2_batch
from polibench.metrics.compute import compute_task_results
from polibench.records import IdeologyScore, Sample, Stance
from polibench.taskspec.loader import load_registry


def exact_w2(u, v, uw=None, vw=None) -> float:
    """W2 from the two quantile functions, integrated exactly over the union of their breakpoints."""
    uw = np.ones(len(u)) if uw is None else np.asarray(uw, float)
    vw = np.ones(len(v)) if vw is None else np.asarray(vw, float)
    iu, iv = np.argsort(u), np.argsort(v)
    u, v, uw, vw = np.asarray(u)[iu], np.asarray(v)[iv], uw[iu] / uw.sum(), vw[iv] / vw.sum()
    cu, cv = np.cumsum(uw), np.cumsum(vw)
    knots = np.unique(np.concatenate([[0.0], cu, cv, [1.0]]).clip(0, 1))
    total = 0.0
    for a, b in zip(knots[:-1], knots[1:]):
        mid = (a + b) / 2
        qu = u[min(np.searchsorted(cu, mid), len(u) - 1)]
        qv = v[min(np.searchsorted(cv, mid), len(v) - 1)]
        total += (b - a) * (qu - qv) ** 2
    return float(np.sqrt(total))


def test_sliced_w2_is_plain_w2_in_one_dimension():
    rng = np.random.default_rng(3)
    u, v = rng.beta(2, 5, 60), rng.beta(5, 2, 45)
    plain = w2(u, v)
    sliced = float(ot.sliced_wasserstein_distance(u[:, None], v[:, None], n_projections=7, p=2, seed=0))
    assert plain == pytest.approx(sliced, rel=1e-9)
    assert plain == pytest.approx(exact_w2(u, v), rel=1e-9)
    same = rng.random(50)  # equal sizes: sorted samples pair up
    other = rng.random(50)
    assert w2(same, other) == pytest.approx(np.sqrt(np.mean((np.sort(same) - np.sort(other)) ** 2)))


def test_weighted_w2_is_w2_of_repeated_samples_and_batches():
    rng = np.random.default_rng(4)
    u, v = rng.random(8), rng.random(5)
    uw, vw = rng.integers(0, 4, 8).astype(float), rng.integers(1, 4, 5).astype(float)
    repeated = w2(np.repeat(u, uw.astype(int)), np.repeat(v, vw.astype(int)))
    assert w2(u, v, uw, vw) == pytest.approx(repeated, rel=1e-9)
    batch = w2_batch(u, v, np.stack([uw, np.ones(8)]), np.stack([vw, np.ones(5)]))
    assert batch[0] == pytest.approx(repeated) and batch[1] == pytest.approx(exact_w2(u, v))


def test_batched_w2_equals_pot_column_by_column():
    rng = np.random.default_rng(5)
    u, v = rng.random(40).round(2), rng.random(90).round(2)  # ties included
    uw, vw = rng.integers(0, 3, (40, 25)).astype(float), rng.integers(0, 3, (90, 25)).astype(float)
    uw[0], vw[0] = 1.0, 1.0  # every column has mass
    pot = np.sqrt(ot.wasserstein_1d(np.tile(u[:, None], (1, 25)), np.tile(v[:, None], (1, 25)), uw / uw.sum(0),
                                   vw / vw.sum(0), p=2))
    assert np.allclose(w2_batch(u, v, uw.T, vw.T), pot, atol=1e-10)


def samples_for(task_name: str, score_of) -> list[Sample]:
    """One scored response per (keyword, prompt, index); ``score_of(group, trigger, index, item)`` is its score."""
    registry = load_registry()
    task = registry.task(task_name)
    out = []
    for item in registry.instruments[task.instruments[0]].items:
        for variant in registry.variant_sets[task.variant_set].variants:
            for index in range(3):
                p = score_of(item.group, variant.id.split("-")[0], index, f"{item.id}/{variant.id}")
                out.append(Sample(task=task.task, instrument=task.instruments[0], item_id=item.id,
                                  statement=item.text, variant=variant.id, sample_index=index, seed=index,
                                  prompt=variant.template.replace("{statement}", item.text), response="text",
                                  stance=Stance(label=None, confidence=1.0, scorer="ideology", kept=True),
                                  ideology=IdeologyScore(conservative=p, scorer="ideology")))
    return registry, task, out


def liu(task_name: str, score_of, resamples: int = 200) -> LiuBlock:
    registry, task, samples = samples_for(task_name, score_of)
    blocks = compute_task_results(task, registry.instruments, samples, resamples=resamples)
    return blocks["liu_bias"]


def test_block_matches_an_independent_computation():
    def score_of(group, trigger, index, item):  # male continuations lean conservative under conservative triggers
        base = {"indirect": 0.5, "liberal": 0.3, "conservative": 0.6}[trigger]
        return base + (0.2 if group == "male" and trigger != "liberal" else 0.0) + 0.05 * index

    block = liu("liu-gender", score_of)
    registry, task, samples = samples_for("liu-gender", score_of)
    group = {i.id: i.group for i in registry.instruments["liu-gender"].items}

    def distance(option, trigger):
        rows = [s for s in samples if s.variant.startswith(trigger)]
        mine = [s.reading("ideology").conservative for s in rows if group[s.item_id] == option]
        return exact_w2(mine, [s.reading("ideology").conservative for s in rows])

    for option in ("male", "female"):
        part = block.per_option[option]
        assert part.indirect == pytest.approx(distance(option, "indirect"), abs=1e-6)
        assert part.direct == pytest.approx(abs(distance(option, "liberal") - distance(option, "conservative")),
                                            abs=1e-6)
        assert part.keywords == 17 and part.responses == 17 * 10 * 3
        low, high = part.ci.indirect
        assert low <= high
    for measure in ("indirect", "direct"):
        mean = np.mean([getattr(block.per_option[o], measure) for o in ("male", "female")])
        assert getattr(block, measure) == pytest.approx(mean, abs=1e-6)
    assert block.direct > 0.01  # the conservative trigger separates the options, the liberal one does not


def test_a_shifted_option_is_measured_as_biased_and_a_fair_attribute_is_not():
    rng = np.random.default_rng(0)
    noise = rng.random(50_000)
    counter = iter(range(50_000))

    def fair(group, trigger, index, item):
        return float(noise[next(counter)])

    def shifted(group, trigger, index, item):
        return float(noise[next(counter)] * 0.5 + (0.5 if group == "red" else 0.0))

    unbiased, biased = liu("liu-location", fair), liu("liu-location", shifted)
    assert biased.per_option["red"].indirect > 0.15
    assert biased.per_option["red"].ci.indirect.low > unbiased.per_option["red"].ci.indirect.high
    assert unbiased.indirect < 0.1


def test_intervals_are_reproducible_and_change_with_the_seed():
    def score_of(group, trigger, index, item):
        return (zlib.crc32(f"{item}/{index}".encode()) % 97) / 97

    registry, task, samples = samples_for("liu-topic", score_of)
    a = compute_task_results(task, registry.instruments, samples, resamples=100)["liu_bias"]
    b = compute_task_results(task, registry.instruments, samples, resamples=100)["liu_bias"]
    c = compute_task_results(task, registry.instruments, samples, seed=99, resamples=100)["liu_bias"]
    assert a == b
    assert a.indirect == c.indirect and a.ci.indirect != c.ci.indirect
    assert list(a.per_option) == ["domestic-policy", "foreign-policy", "economics", "electoral", "healthcare",
                                  "immigration", "social"]


def test_a_prompt_without_a_trigger_is_one_clear_error():
    registry, task, samples = samples_for("liu-gender", lambda g, t, i, item: 0.5)
    renamed = [s.model_copy(update={"variant": "other-1"}) if s.variant == "indirect-1" else s for s in samples]
    with pytest.raises(PolibenchError, match="'other-1' must start with one of indirect, liberal, conservative"):
        compute_task_results(task, registry.instruments, renamed, resamples=10)
