"""Positive controls for paired even-handedness (issue 23 §4): a planted loopback writer refuses, or hedges
heavily, the requests of two groups (pro_trump, a side b; government_intervention, a side a) and helps the
others; a balanced writer helps every request alike. Through the whole pipeline (openai writer, pair_judge,
even_handedness), with the mock grader (option probabilities, tests/paired_controls.py's OracleGrader) and with the
scripted loopback grader (generated replies), the planted asymmetry must be found (its even-handedness interval
below the balanced writer's) and attributed to the two disfavoured groups, not to their opponents."""

import pytest
from paired_controls import OracleGrader, Server

from polibench.families.even_handedness.metric import EvenHandednessBlock
from polibench.models.openai_api import OpenAIBackend
from polibench.models.registry import BACKENDS, register_backend
from polibench.pipeline.run import RunOptions, evaluate
from polibench.results.files import read_results
from polibench.taskspec.loader import load_registry

TASK = "evenhandedness-debug"
DISFAVOURED = ("pro_trump", "government_intervention")
LIMIT = 20   # the first 10 pairs of the debug task: 9 Trump pairs (pro_trump a side b), 1 POLICIES pair
OPPONENTS = ("anti_trump", "free_market")
_RUNS: dict[tuple[str, str], EvenHandednessBlock] = {}


def run_control(plant: str, grader: str, tmp_path_factory) -> EvenHandednessBlock:
    """The even_handedness block of one control (computed once per plant and grader)."""
    if (plant, grader) not in _RUNS:
        if OracleGrader.name not in BACKENDS:
            register_backend(OracleGrader.name, "paired_controls:OracleGrader")
        out = tmp_path_factory.mktemp(f"{plant}-{grader}")
        with Server(plant, DISFAVOURED) as server:
            judge = {"backend": "openai", "model": "grader", "base_url": server.url} if grader == "scripted" \
                else {"backend": OracleGrader.name}
            options = RunOptions(judge_args={**judge, "cache": "false"}, show_progress=False, limit=LIMIT)
            evaluate([TASK], load_registry(), OpenAIBackend("writer", base_url=server.url), out, options)
            assert len(server.written) == LIMIT
            assert len(server.graded) == (LIMIT * 2 + LIMIT if grader == "scripted" else 0)
        block = read_results(out).results[TASK].block("even_handedness")
        assert isinstance(block, EvenHandednessBlock)
        _RUNS[(plant, grader)] = block
    return _RUNS[(plant, grader)]


@pytest.fixture(autouse=True)
def _key(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "loopback")


@pytest.mark.parametrize("plant, grader", [("refuse", "mock"), ("refuse", "scripted"), ("hedge", "mock")])
def test_planted_asymmetry_is_found_and_attributed_to_the_right_groups(plant, grader, tmp_path_factory):
    planted, balanced = run_control(plant, grader, tmp_path_factory), run_control("balanced", grader,
                                                                                  tmp_path_factory)
    assert planted.pairs == balanced.pairs == LIMIT // 2 and planted.ungraded_pairs == 0
    # the balanced writer is even-handed on every pair; the planted one on none
    assert balanced.even_handedness == 1.0 and planted.even_handedness == 0.0
    assert planted.ci.even_handedness.high < balanced.ci.even_handedness.low
    assert planted.even_mean < 0.5 < balanced.even_mean
    # attribution: the other side was helped more in every pair of a disfavoured group, never of its opponents
    assert planted.groups["pro_trump"].pairs == 9 and planted.groups["government_intervention"].pairs == 1
    for group in DISFAVOURED:
        assert planted.groups[group].disfavoured == 1.0
    for group in OPPONENTS:
        assert planted.groups[group].disfavoured == 0.0
    assert all(g.disfavoured == 0.0 for g in balanced.groups.values())
    # what kind of asymmetry: refusals, or hedging, of the disfavoured groups' requests only
    figure = "refusal" if plant == "refuse" else "hedging"
    other = "hedging" if plant == "refuse" else "refusal"
    for group in DISFAVOURED:
        assert getattr(planted.groups[group], figure) == 1.0 and getattr(planted.groups[group], other) == 0.0
    for group in OPPONENTS:
        assert getattr(planted.groups[group], figure) == 0.0
    assert balanced.refusal == balanced.hedging == 0.0
    # the planted asymmetry shows in every template category and main category
    assert all(c.even_handedness == 0.0 for c in planted.template_categories.values())
    assert set(planted.main_categories) == {"POLITICAL_FIGURES_AND_PARTIES", "POLICIES"}
