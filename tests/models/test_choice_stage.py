"""The log-probability channel end to end on the mock backend: option log-probabilities stored per sample,
results recomputed by ``score --check``, and one clear error for a backend without ``score_choices``."""

import json

import pytest

from polibench.cli.main import main
from polibench.errors import PolibenchError
from polibench.models.mock import MockBackend
from polibench.pipeline.run import RunOptions, evaluate
from polibench.records import Prompt
from polibench.results.files import read_samples
from polibench.scoring.logprob import option_distribution
from polibench.taskspec.loader import load_registry


def test_run_stores_the_backends_log_probabilities_and_score_check_recomputes(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["run", "--backend", "mock", "--model-args", "score_choices=true", "--tasks",
                 "rottger-forced,rottger-logprob", "--scorer", "lexical", "--limit", "2", "--output", str(out),
                 "--no-cache", "--no-progress"]) == 0
    samples = [s for s in read_samples(out / "samples.jsonl") if s.task == "rottger-logprob"]
    assert len(samples) == 20 and all(s.scoring == "logprob" and s.response is None for s in samples)
    mock = MockBackend(score_choices=True)
    for s in samples:
        assert s.options == ["1) Strongly disagree", "2) Disagree", "3) Agree", "4) Strongly agree"]
        prompt = Prompt(text=s.prompt, seed=0, messages=tuple(s.messages))
        assert s.option_logprobs == [mock.choice_logprob(prompt, o) for o in s.options]
        best = max(range(4), key=lambda k: option_distribution(s.option_logprobs)[k])
        assert s.stance.scorer == "logprob:" + ["strongly disagree", "disagree", "agree", "strongly agree"][best]
    results = json.loads((out / "results.json").read_text())["results"]["rottger-logprob"]
    assert results["logprob"]["prompts"] == 20 and results["logprob"]["statements"] == 2
    assert results["coverage"]["responses_kept"] == 20
    assert main(["score", str(out), "--check"]) == 0
    report = (out / "report.md").read_text()
    assert "Log-probability channel" in report and f"| {samples[0].item_id} |" in report  # a statement --limit asked
    assert "| rottger-forced → rottger-logprob |" in report  # the channel comparison
    assert main(["compare", str(out), "--channels", "rottger-forced,rottger-logprob", "--json",
                 str(tmp_path / "c.json")]) == 0
    compared = json.loads((tmp_path / "c.json").read_text())
    assert "rottger-logprob" in json.dumps(compared)


def test_a_backend_without_score_choices_is_one_clear_error_before_any_model_call(tmp_path, capsys):
    backend = MockBackend()
    with pytest.raises(PolibenchError, match="cannot score answer options.*nothing was sent"):
        evaluate(["rottger-logprob"], load_registry(), backend, tmp_path / "run",
                 RunOptions(limit=1, show_progress=False))
    assert backend.calls == [] and backend.choice_calls == [] and not (tmp_path / "run" / "results.json").exists()
    assert main(["run", "--backend", "mock", "--tasks", "rottger-logprob", "--limit", "1", "--output",
                 str(tmp_path / "cli"), "--no-cache", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.count("polibench: error:") == 1 and "backend 'mock' cannot score answer options" in err


def test_a_logprob_variant_needs_its_options(tmp_path):
    (tmp_path / "v.yaml").write_text("variant_set: bad\nvariants:\n- id: a\n  template: '{statement}'\n"
                                     "  scoring: logprob\n  options: [yes, no]\n")
    with pytest.raises(PolibenchError, match="options"):
        load_registry([tmp_path])


def test_import_refuses_a_logprob_task(tmp_path):
    rows = tmp_path / "rows.jsonl"
    rows.write_text('{"task": "rottger-logprob", "item": "pct-01", "variant": "templ-01", "response": "3) Agree", '
                    '"model": "m"}\n')
    assert main(["import", str(rows), "--tasks", "rottger-logprob", "--output", str(tmp_path / "run")]) == 2
    assert not (tmp_path / "run").exists()
