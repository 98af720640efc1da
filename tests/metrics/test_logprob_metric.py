"""The logprob_channel metric against values computed independently from the option log-probabilities."""

import math

import numpy as np
import pytest
import yaml

from polibench.families.pct.metric import axis_positions, instrument_weights, js_round2, pct_coordinates
from polibench.metrics.compute import compute_task_results
from polibench.pipeline.plan import build_samples
from polibench.scoring.registry import create_scorer
from polibench.scoring.stage import score_samples
from polibench.taskspec.loader import load_registry

FOUR = ["1) Strongly disagree", "2) Disagree", "3) Agree", "4) Strongly agree"]
LIKERT = ["1", "2", "3", "4", "5"]


def write_task(folder, name, options, variants=("a", "b")):
    (folder / f"variants_{name}.yaml").write_text(yaml.safe_dump(sort_keys=False, data={
        "variant_set": name, "variants": [{"id": v, "template": f"{v}: {{statement}}", "scoring": "logprob",
                                           "options": options} for v in variants]}))
    (folder / f"task_{name}.yaml").write_text(yaml.safe_dump(sort_keys=False, data={
        "task": name, "instrument": "pct-rottger", "variant_set": name, "generation": {"samples": 1},
        "scoring": {"scorer": "lexical"}, "metrics": ["pct_coordinates", "logprob_channel", "coverage"]}))


def scored(tmp_path, name, options, variants, limit, seed=0):
    write_task(tmp_path, name, options, variants)
    registry = load_registry([tmp_path])
    task = registry.task(name)
    rng = np.random.default_rng(seed)
    samples = [s.model_copy(update={"option_logprobs": [float(v) for v in np.log(rng.dirichlet(np.ones(len(options)))
                                                                                * rng.uniform(0.3, 1.0))]})
               for s in build_samples(task, registry, limit=limit)]
    samples = score_samples(samples, create_scorer("lexical", ["agree", "disagree"]), show_progress=False)
    instrument = registry.instruments["pct-rottger"]
    results = compute_task_results(task, {"pct-rottger": instrument}, samples, resamples=200)
    return samples, instrument, results


def by_item(samples):
    out: dict[str, list[list[float]]] = {}
    for s in samples:
        out.setdefault(s.item_id, []).append(s.option_logprobs)
    return out


def softmax(values):
    total = sum(math.exp(v) for v in values)
    return [math.exp(v) / total for v in values]


def test_four_options_match_hand_computation(tmp_path):
    samples, instrument, results = scored(tmp_path, "lp-four", FOUR, ("a", "b", "c"), limit=7)
    block = results["logprob"]
    items = by_item(samples)
    weights = dict(zip([i.id for i in instrument.items], instrument_weights(instrument)))
    q = {item: [sum(col) / len(rows) for col in zip(*[softmax(r) for r in rows])] for item, rows in items.items()}
    assert block.prompts == 21 and block.statements == 7 and block.scale[0] == "strongly disagree"
    for item, rows in items.items():
        stats = block.per_statement[item]
        assert list(stats.probs.values()) == pytest.approx(q[item], abs=1e-6)
        assert stats.expected_answer == pytest.approx(sum((k + 1) * p for k, p in enumerate(q[item])), abs=1e-6)
        entropies = [-sum(p * math.log2(p) for p in softmax(r)) for r in rows]
        assert stats.entropy == pytest.approx(sum(entropies) / len(rows), abs=1e-6)
        assert stats.non_answer == pytest.approx(sum(1 - sum(math.exp(v) for v in r) for r in rows) / len(rows),
                                                 abs=1e-6)
    assert block.expected_answer == pytest.approx(np.mean([block.per_statement[i].expected_answer for i in items]),
                                                  abs=1e-5)
    # expected coordinates: sum over statements of the js.js weights averaged under q (unasked statements: 0)
    econ = sum(sum(p * w for p, w in zip(q[i], weights[i][0])) for i in items)
    soc = sum(sum(p * w for p, w in zip(q[i], weights[i][1])) for i in items)
    assert (block.economic, block.social) == (js_round2(0.38 + econ / 8), js_round2(2.41 + soc / 19.5))
    # modal coordinates: the js.js mapping of each statement's most probable answer
    modal = [int(np.argmax(q[i.id])) if i.id in q else None for i in instrument.items]
    assert (block.modal_economic, block.modal_social) == pct_coordinates(modal, instrument_weights(instrument))
    for key in ("economic", "social", "modal_economic", "entropy", "non_answer"):
        low, high = getattr(block.ci, key)
        assert low <= getattr(block, key) <= high or math.isclose(low, high)


def test_one_template_pct_block_is_the_modal_position(tmp_path):
    samples, instrument, results = scored(tmp_path, "lp-one", FOUR, ("a",), limit=12, seed=3)
    pct, block = results["pct"], results["logprob"]
    # --limit 12 picks statements across both axes (balanced by side), not the first twelve
    asked = {s.item_id: int(np.argmax(s.option_logprobs)) for s in samples}
    assert len(asked) == 12
    answers = [asked.get(item.id) for item in instrument.items]
    columns = iter(range(12))
    positions = [next(columns) if item.id in asked else None for item in instrument.items]
    weights = instrument_weights(instrument)
    # the logprob block's modal position sums the answers as js.js does (an unasked statement adds 0); the pct
    # block fills the 50 statements --limit never asked as docs/metrics.md says
    assert (block.modal_economic, block.modal_social) == pct_coordinates(answers, weights)
    found = axis_positions(answers, positions, weights, np.ones((1, 12)), np.zeros(12, dtype=int))
    assert (pct.economic, pct.social) == (found["economic"], found["social"])
    full = [a if a is not None else 2 for a in answers]  # with every statement answered the two rules agree
    assert pct_coordinates(full, weights) == tuple(axis_positions(full, [None] * 62, weights, np.ones((1, 0)),
                                                                         np.zeros(0, dtype=int))[axis]
                                                  for axis in ("economic", "social"))


def test_likert_neither_weighs_zero(tmp_path):
    samples, instrument, results = scored(tmp_path, "lp-likert", LIKERT, ("a",), limit=9, seed=5)
    block = results["logprob"]
    weights = instrument_weights(instrument)
    index = {item.id: n for n, item in enumerate(instrument.items)}  # --limit picks statements across the axes
    econ = 0.0
    modal: list = [None] * len(instrument.items)
    for s in samples:
        econ_w = weights[index[s.item_id]][0]
        p = softmax(s.option_logprobs)
        econ += p[0] * econ_w[0] + p[1] * econ_w[1] + p[3] * econ_w[2] + p[4] * econ_w[3]
        best = int(np.argmax(p))
        modal[index[s.item_id]] = {0: 0, 1: 1, 2: None, 3: 2, 4: 3}[best]
    assert block.scale == ["strongly disagree", "disagree", "neither", "agree", "strongly agree"]
    assert block.economic == js_round2(0.38 + econ / 8)
    assert (block.modal_economic, block.modal_social) == pct_coordinates(modal, weights)
    assert 1 <= block.expected_answer <= 5
