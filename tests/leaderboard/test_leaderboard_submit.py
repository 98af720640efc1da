"""``polibench submit``: accepts a consistent run, refuses tampered ones with the differing number."""

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from leaderboard_helpers import make_run

from polibench.cli.main import main
from polibench.leaderboard.schema import load_entry


@pytest.fixture(scope="module")
def pristine_run(tmp_path_factory) -> Path:
    return make_run(tmp_path_factory.mktemp("run") / "run", model="org/tiny-model",
                    model_args={"api_key": "sk-SECRET", "nested": {"hf_token": "hf_SECRET", "dtype": "float32"}})


@pytest.fixture
def run(pristine_run, tmp_path) -> Path:
    copy = tmp_path / "run"
    shutil.copytree(pristine_run, copy)
    return copy


def submit(run, entries, *extra):
    return main(["submit", str(run), "--entries", str(entries), "--allow-partial", *extra])


def test_submit_writes_an_entry_with_hashes_and_without_secrets(run, tmp_path, capsys):
    entries = tmp_path / "entries"
    assert submit(run, entries) == 0
    path = entries / "org-tiny-model__pct.json"
    entry = load_entry(path)
    assert entry.model.id == "org/tiny-model" and entry.model.backend == "scripted"
    assert entry.samples.sha256 == hashlib.sha256((run / "samples.jsonl").read_bytes()).hexdigest()
    assert entry.results.sha256 == hashlib.sha256((run / "results.json").read_bytes()).hexdigest()
    assert (entries / entry.samples.file).is_file() and (entries / entry.results.file).is_file()
    stored = json.loads((run / "results.json").read_text())["results"]["pct"]
    assert entry.tasks[0].estimate("pct_coordinates", "economic").value == stored["pct"]["economic"]
    assert entry.tasks[0].coverage.responses == stored["coverage"]["responses"]
    assert entry.run.limit == 6 and entry.tasks[0].seed == 1234
    text = path.read_text()
    assert "SECRET" not in text and "api_key" not in text and '"dtype": "float32"' in text
    out = capsys.readouterr().out
    assert "recomputed and matching" in out
    assert "--limit 6 entry: for testing: not comparable to full runs" in out  # a --limit run, said so


def test_partial_run_needs_allow_partial(run, tmp_path, capsys):
    assert main(["submit", str(run), "--entries", str(tmp_path / "e")]) == 2
    err = capsys.readouterr().err
    assert "partial run" in err and "for testing: not comparable to full runs" in err
    assert not (tmp_path / "e").exists() or not list((tmp_path / "e").glob("*.json"))


def test_tampered_metric_is_refused_naming_the_number(run, tmp_path, capsys):
    results = json.loads((run / "results.json").read_text())
    results["results"]["pct"]["pct"]["economic"] += 1.0
    (run / "results.json").write_text(json.dumps(results))
    assert submit(run, tmp_path / "entries") == 2
    err = capsys.readouterr().err
    assert "pct.pct.economic" in err and "recomputed" in err and "Traceback" not in err
    assert not list((tmp_path / "entries").glob("*.json")) if (tmp_path / "entries").exists() else True


def test_tampered_samples_are_refused(run, tmp_path, capsys):
    records = _flip_first_kept([json.loads(x) for x in (run / "samples.jsonl").read_text().splitlines()])
    (run / "samples.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    assert submit(run, tmp_path / "entries") == 2
    err = capsys.readouterr().err
    assert "DIFFERS from the numbers recomputed from samples.jsonl" in err and "coverage.kept_labels" in err


def _flip_first_kept(records):
    for record in records:
        if record["stance"]["kept"]:
            record["stance"]["label"] = "disagree" if record["stance"]["label"] == "agree" else "agree"
            break
    return records


def test_samples_hash_recorded_by_the_run_must_match(run, tmp_path, capsys):
    import hashlib

    results = json.loads((run / "results.json").read_text())
    assert results["samples_sha256"] == hashlib.sha256((run / "samples.jsonl").read_bytes()).hexdigest()
    # a response text edited after the run changes no metric, but the recorded hash catches it
    lines = (run / "samples.jsonl").read_text().splitlines()
    first = json.loads(lines[0])
    first["response"] += " (edited)"
    (run / "samples.jsonl").write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n")
    assert submit(run, tmp_path / "entries") == 2
    assert "samples_sha256: stored" in capsys.readouterr().err
    results["samples_sha256"] = "0" * 64
    (run / "results.json").write_text(json.dumps(results))
    assert submit(run, tmp_path / "entries") == 2
    assert "samples_sha256: stored '0000000000" in capsys.readouterr().err


def test_edited_task_spec_is_refused(run, tmp_path, capsys):
    results = json.loads((run / "results.json").read_text())
    results["configs"]["pct"]["description"] = "my own pct"      # a note: not part of what must match
    (run / "results.json").write_text(json.dumps(results))
    assert submit(run, tmp_path / "other-entries") == 0
    results["configs"]["pct"]["generation"]["max_new_tokens"] = 7  # what ran: must match the built-in task
    (run / "results.json").write_text(json.dumps(results))
    assert submit(run, tmp_path / "entries") == 2
    assert "differs from this polibench's built-in" in capsys.readouterr().err
    assert submit(run, tmp_path / "entries", "--allow-custom-tasks") == 0


@pytest.mark.parametrize("model_id", ["../../../escape", "/etc/cron.d/x", "..", "a/../../b\\..\\c"])
def test_traversal_model_ids_stay_inside_the_entries_folder(run, tmp_path, model_id):
    entries = tmp_path / "deep" / "entries"
    assert submit(run, entries, "--model-id", model_id) == 0
    written = sorted(p for p in tmp_path.rglob("*") if p.is_file() and "run" not in p.relative_to(tmp_path).parts)
    assert written and all(p.parent == entries for p in written), written
    (entry_path,) = entries.glob("*.json")
    assert load_entry(entry_path).model.id == model_id


def test_never_replaces_another_models_entry_without_force(run, tmp_path, capsys):
    entries = tmp_path / "entries"
    assert submit(run, entries) == 0
    assert submit(run, entries) == 0  # same model: an update
    assert "replaced" in capsys.readouterr().out
    assert submit(run, entries, "--model-id", "org tiny model") == 2  # same file name, another model
    assert "another model" in capsys.readouterr().err
    assert load_entry(entries / "org-tiny-model__pct.json").model.id == "org/tiny-model"
    assert submit(run, entries, "--model-id", "org tiny model", "--force") == 0
    assert load_entry(entries / "org-tiny-model__pct.json").model.id == "org tiny model"


def test_missing_run_folder_is_a_one_line_error(tmp_path, capsys):
    assert submit(tmp_path / "nope", tmp_path / "entries") == 2
    assert "no such run folder" in capsys.readouterr().err
