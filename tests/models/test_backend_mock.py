"""The ``mock`` backend, the capability contract, and the evaluator's lifecycle: all responses are generated
and the backend is closed before any scorer exists."""

from __future__ import annotations

import json

import pytest

from polibench.cli.main import main
from polibench.errors import PolibenchError
from polibench.models.base import SCORE_CHOICES, UnsupportedCapability
from polibench.models.mock import DEFAULT_RESPONSES, MockBackend
from polibench.models.registry import create_backend
from polibench.pipeline.run import RunOptions, evaluate
from polibench.records import GenerationSettings, Prompt
from polibench.scorers.stance.lexical import LexicalScorer
from polibench.scoring.registry import SCORERS, register_scorer

GREEDY = GenerationSettings(samples=1, max_new_tokens=5, temperature=0)
SEEN: list[dict] = []  # what each RecordingScorer saw when it was created


class RecordingScorer(LexicalScorer):
    """The lexical scorer, remembering for each step (created, preflight, score) whether the model backend was
    already closed and how many generate calls it had seen."""

    name = "recording"
    backend: MockBackend | None = None

    def __init__(self, labels=("agree", "disagree"), **kwargs):
        super().__init__(labels, **kwargs)
        self.number = len({seen["scorer"] for seen in SEEN})  # not id(): a freed scorer's id may be reused
        self._record("created")

    def _record(self, step: str) -> None:
        SEEN.append({"step": step, "scorer": self.number, "backend_closed": RecordingScorer.backend.closed,
                     "generate_calls": len(RecordingScorer.backend.calls)})

    def preflight(self) -> None:
        self._record("preflight")

    def score(self, statements, responses, progress=None):
        self._record("score")
        return super().score(statements, responses, progress)


@pytest.fixture(autouse=True)
def _own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("POLIBENCH_CACHE", str(tmp_path / "cache"))


def test_responses_depend_only_on_the_seed_and_script_order_follows_calls():
    backend = create_backend("mock", None, {"responses": "yes|no|maybe", "shift": "1"})
    out = backend.generate([Prompt(text="a", seed=0), Prompt(text="b", seed=4)], GREEDY)
    assert [c.text for c in out] == ["no", "maybe"]  # (seed + 1) % 3
    again = backend.generate([Prompt(text="other", seed=4)], GREEDY)
    assert again[0].text == "maybe" and len(backend.calls) == 2
    script = MockBackend(responses=["one", "two"], order="script")
    texts = [c.text for c in script.generate([Prompt(text="x", seed=9)] * 3, GREEDY)]
    assert texts == ["one", "two", "one"]
    assert MockBackend().responses == list(DEFAULT_RESPONSES)


def test_capabilities_are_declared_and_unsupported_calls_are_one_clear_error():
    plain = MockBackend()
    assert not plain.supports(SCORE_CHOICES)
    with pytest.raises(UnsupportedCapability, match="backend 'mock' does not support 'score_choices'") as info:
        plain.score_choices([Prompt(text="p", seed=0)], [["a"]])
    assert isinstance(info.value, PolibenchError)
    scoring = MockBackend(score_choices="true")
    first = scoring.score_choices([Prompt(text="p", seed=0)], [["a", "b"]])
    assert first == scoring.score_choices([Prompt(text="p", seed=5)], [["a", "b"]])  # deterministic
    assert all(x < 0 for x in first[0]) and first[0][0] != first[0][1]
    with pytest.raises(PolibenchError, match="order"):
        MockBackend(order="random")


def test_prefer_given_on_the_command_line_as_a_number_still_marks_options_by_their_text():
    from polibench.cli.args import parse_value

    backend = create_backend("mock", None, {"score_choices": "true", "prefer": parse_value("2")})
    assert backend.score_choices([Prompt(text="p", seed=0)], [["1", "2", "3"]]) == [[-5.0, 0.0, -5.0]]


def test_evaluate_closes_the_backend_before_creating_any_scorer(tmp_path, request):
    register_scorer("recording", f"{__name__}:RecordingScorer", replace=True)
    request.addfinalizer(lambda: SCORERS.remove("recording"))  # registered for this test only
    backend = MockBackend("org/mock-model")
    RecordingScorer.backend = backend
    SEEN.clear()
    options = RunOptions(limit=3, samples_per_prompt=2, scorer="recording", threshold=0.5, show_progress=False)
    document = evaluate(["pct", "wvs"], _registry(), backend, tmp_path / "run", options)
    # The preflight builds and checks the scorers (pct and wvs ask for different labels) before generating ...
    checked = [seen for seen in SEEN if seen["step"] == "preflight"]
    assert len(checked) == 2 and all(seen["generate_calls"] == 0 and not seen["backend_closed"] for seen in checked)
    # ... and the scorers that score are created only after both tasks were generated and the backend closed.
    preflight_ids = {seen["scorer"] for seen in checked}
    scoring = [seen for seen in SEEN if seen["scorer"] not in preflight_ids]
    assert {seen["step"] for seen in scoring} == {"created", "score"}
    assert all(seen["backend_closed"] for seen in scoring)
    assert scoring[0]["generate_calls"] == len(backend.calls) >= 2
    assert document.model["backend"] == "mock" and document.model["model"] == "org/mock-model"
    lines = (tmp_path / "run" / "samples.jsonl").read_text().splitlines()
    assert len(lines) == document.n_samples["pct"] + document.n_samples["wvs"]
    assert {json.loads(line)["response"] for line in lines} <= set(DEFAULT_RESPONSES)


def test_a_failed_generation_still_closes_the_backend_and_publishes_nothing(tmp_path):
    backend = MockBackend(fail_after_calls=0)
    options = RunOptions(limit=2, samples_per_prompt=1, scorer="lexical", show_progress=False)
    with pytest.raises(PolibenchError, match="simulated failure"):
        evaluate(["pct"], _registry(), backend, tmp_path / "run", options)
    assert backend.closed
    assert not (tmp_path / "run" / "results.json").exists() and not (tmp_path / "run" / "samples.jsonl").exists()


def test_cli_runs_on_the_mock_backend_and_reuses_the_cache(tmp_path, capsys):
    args = ["run", "--backend", "mock", "--model-args", "responses=I agree.|I disagree.", "--tasks", "pct",
            "--limit", "2", "--samples", "2", "--scorer", "lexical", "--no-progress"]
    assert main([*args, "--output", str(tmp_path / "a")]) == 0
    assert "0 reused, 4 new" in capsys.readouterr().err
    assert main([*args, "--output", str(tmp_path / "b")]) == 0
    assert "4 reused, 0 new" in capsys.readouterr().err
    first, second = ((tmp_path / d / "samples.jsonl").read_text() for d in "ab")
    assert first == second
    assert {json.loads(line)["response"] for line in first.splitlines()} <= {"I agree.", "I disagree."}


def _registry():
    from polibench.taskspec.loader import load_registry

    return load_registry()
