"""Warnings when a model is not really answering (issue 38, §2; polibench.families.answering.metric). Each kind has a
planted positive control (a run that must be flagged) and a null (the same run where the model answers, which must
not be):

- a chat-format task on a model without a chat template: the real ``hf`` backend on a tiny causal LM built without
  one (positive) and with one (null);
- option probability mass mostly off the options: the ``mock`` backend's option log-probabilities, all options
  unlikely (positive) or one option likely (null);
- most responses dropped or unrelated: scripted text the lexical scorer cannot read (positive) or can (null).

Each warning is checked where a reader meets it: the run's output, results.json, report.md, and (for one kind) a
leaderboard entry and the site's table.
"""

from __future__ import annotations

import json

import pytest
import yaml
from tiny_models import tiny_causal_lm

from polibench.cli.main import main
from polibench.families.answering.metric import NOT_ANSWERING_SHARE, OFF_OPTIONS_SHARE
from polibench.results.files import read_results
from polibench.taskspec.loader import load_registry

CHAT = "{% for m in messages %}<|{{ m.role }}|>{{ m.content }}{% endfor %}<|assistant|>"


def run(tmp_path, name, *args):
    out = tmp_path / name
    code = main(["run", *args, "--output", str(out), "--no-cache", "--no-progress"])
    return code, out


def warnings_of(out) -> list[dict]:
    return json.loads((out / "results.json").read_text())["run_metrics"]["answering"]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    base = tmp_path_factory.mktemp("tiny")
    return tiny_causal_lm(base / "plain"), tiny_causal_lm(base / "chat", chat_template=CHAT)


@pytest.fixture(scope="module")
def short_pct(tmp_path_factory):
    """The pct task (chat-format prompts) with 4 new tokens per response: the test needs the framing, not text."""
    folder = tmp_path_factory.mktemp("tasks")
    task = load_registry().task("pct").model_dump(mode="json", by_alias=True)
    task.update(task="pct-short-chat", generation={**task["generation"], "max_new_tokens": 4, "samples": 1})
    (folder / "task.yaml").write_text(yaml.safe_dump(task, sort_keys=False))
    return folder


@pytest.mark.parametrize("template", [False, True])
def test_a_chat_task_on_a_model_without_a_chat_template_is_flagged(tiny, short_pct, tmp_path, capsys, template):
    model = tiny[1] if template else tiny[0]
    code, out = run(tmp_path, "run", "--backend", "hf", "--model", str(model), "--tasks", "pct-short-chat",
                    "--include-path", str(short_pct), "--limit", "2", "--scorer", "lexical")
    printed = capsys.readouterr().out
    assert code == 0
    document = read_results(out)
    assert document.model["chat_template"] is template
    kinds = [w["kind"] for w in warnings_of(out)]
    report = (out / "report.md").read_text()
    if template:  # the null: the prompts met the model's template
        assert "no_chat_template" not in kinds and "no chat template" not in report + printed
    else:
        assert "no_chat_template" in kinds
        assert "warning: pct-short-chat: a chat-format task sent to a model with no chat template" in printed
        assert "- **warning**: pct-short-chat: a chat-format task sent to a model with no chat template" in report
        assert main(["score", str(out), "--check"]) == 0  # the warning is recomputed like every number


@pytest.mark.parametrize("prefer, flagged", [("zzz", True), ("Agree", False)])
def test_option_mass_mostly_off_the_options_is_flagged(tmp_path, capsys, prefer, flagged):
    """prefer=zzz: every option at log-probability −5 (mass on the options 4·e^−5 ≈ 0.027); prefer=Agree: one option
    at 0 (mass ≥ 1)."""
    code, out = run(tmp_path, "run", "--backend", "mock", "--model-args", f"score_choices=true,prefer={prefer}",
                    "--tasks", "rottger-logprob", "--limit", "2", "--scorer", "lexical")
    printed = capsys.readouterr().out
    assert code == 0
    found = [w for w in warnings_of(out) if w["kind"] == "off_options"]
    block = read_results(out).results["rottger-logprob"].block("logprob")
    assert (block.non_answer > OFF_OPTIONS_SHARE) is flagged
    assert bool(found) is flagged
    if flagged:
        assert found[0]["share"] == pytest.approx(block.non_answer, abs=1e-4) and found[0]["threshold"] == 0.5
        assert "97.3% of the probability mass is off the answer options" in printed
        report = (out / "report.md").read_text()
        assert "97.3% of the probability mass is off the answer options" in report
        # every prompt was read, so nothing was "dropped": the kept share alone would have said 100%
        assert read_results(out).results["rottger-logprob"].coverage.kept_share == 1.0


@pytest.mark.parametrize("response, flagged", [
    ("I agree with this statement.|Hmm one|Hmm two|Hmm three", True),  # about 3 in 4 unreadable
    ("I agree with this statement.|I disagree with this.", False)])
def test_most_responses_dropped_is_flagged_in_the_entry_and_on_the_site(tmp_path, capsys, response, flagged):
    code, out = run(tmp_path, "run", "--backend", "mock", "--model-args", f"responses={response}", "--tasks", "pct",
                    "--limit", "4", "--samples", "2", "--scorer", "lexical", "--threshold", "0.5")
    printed = capsys.readouterr().out
    assert code == 0
    coverage = read_results(out).results["pct"].coverage
    lost = coverage.filtered_share + coverage.unrelated_share
    found = [w for w in warnings_of(out) if w["kind"] == "not_answering"]
    assert (lost > NOT_ANSWERING_SHARE) is flagged and bool(found) is flagged
    assert ("were dropped or read as unrelated" in printed) is flagged
    entries = tmp_path / "entries"
    assert main(["submit", str(out), "--entries", str(entries), "--allow-partial"]) == 0
    entry = json.loads(next(entries.glob("*.json")).read_text())
    assert bool(entry["run_metrics"].get("answering")) is flagged
    assert main(["leaderboard", "verify", "--entries", str(entries)]) == 0
    site = tmp_path / "site"
    assert main(["leaderboard", "build", "--entries", str(entries), "--output", str(site)]) == 0
    index = (site / "index.html").read_text()
    assert ('data-flag="mostly unanswered"' in index) is flagged
    page = next((site / "models").glob("*.html")).read_text()
    assert ("Is the model answering?" in page) is flagged
