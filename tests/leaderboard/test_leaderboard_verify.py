"""``polibench leaderboard verify``: reproduces shipped entries, catches edited numbers and files."""

import gzip
import shutil
from pathlib import Path

import pytest
from leaderboard_helpers import edit_gz_lines, edit_json, make_run

from polibench.cli.main import main
from polibench.leaderboard.artifacts import sha256_bytes
from polibench.leaderboard.verify import FAILED, UNAVAILABLE, VERIFIED, verify_dir

ENTRY = "org-tiny-model__pct"


@pytest.fixture(scope="module")
def pristine_entries(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("verify")
    entries = base / "entries"
    run = make_run(base / "run", model="org/tiny-model")
    assert main(["submit", str(run), "--entries", str(entries), "--allow-partial"]) == 0
    return entries


@pytest.fixture
def entries(pristine_entries, tmp_path) -> Path:
    copy = tmp_path / "entries"
    shutil.copytree(pristine_entries, copy)
    return copy


def only(outcomes):
    (outcome,) = outcomes
    return outcome


def test_a_fresh_entry_verifies(entries, capsys):
    assert only(verify_dir(entries)).status == VERIFIED
    assert main(["leaderboard", "verify", "--entries", str(entries)]) == 0
    assert "1 verified, 0 failed" in capsys.readouterr().out


def test_an_edited_entry_number_fails(entries, capsys):
    edit_json(entries / f"{ENTRY}.json",
              lambda d: d["tasks"][0]["estimates"]["pct_coordinates"]["economic"].update(value=-9.5))
    outcome = only(verify_dir(entries))
    assert outcome.status == FAILED and "-9.5" in outcome.detail
    assert "tasks[0].estimates.pct_coordinates.economic.value" in outcome.detail
    assert main(["leaderboard", "verify", "--entries", str(entries)]) == 1
    assert "1 failed" in capsys.readouterr().out


def test_edited_shipped_samples_fail_on_the_hash(entries):
    edit_gz_lines(entries / f"{ENTRY}.samples.jsonl.gz", lambda i, r: r.update(response="edited") if i == 0 else None)
    outcome = only(verify_dir(entries))
    assert outcome.status == FAILED and "SHA-256" in outcome.detail


def test_edited_samples_with_a_matching_hash_fail_on_the_recomputation(entries):
    """A forger who also updates the entry's hash is caught by recomputing from the samples."""
    def flip(i, record):
        if record["stance"]["kept"] and not flip.done:
            record["stance"]["label"] = "disagree" if record["stance"]["label"] == "agree" else "agree"
            flip.done = True
    flip.done = False
    path = entries / f"{ENTRY}.samples.jsonl.gz"
    edit_gz_lines(path, flip)
    data = gzip.decompress(path.read_bytes())
    edit_json(entries / f"{ENTRY}.json", lambda d: d["samples"].update(sha256=sha256_bytes(data), bytes=len(data)))
    outcome = only(verify_dir(entries))
    assert outcome.status == FAILED and "DIFFERS from the numbers recomputed from samples.jsonl" in outcome.detail


def test_samples_other_than_the_ones_results_json_was_computed_from_fail_on_its_recorded_hash(entries):
    """An edit that moves no number (a response's text; its stance stays) with the entry's hash updated: the numbers
    still recompute, but results.json records the SHA-256 of the samples it was computed from, and verify holds the
    shipped samples to it."""
    path = entries / f"{ENTRY}.samples.jsonl.gz"
    edit_gz_lines(path, lambda i, r: r.update(response=r["response"] + " (edited)") if i == 0 else None)
    data = gzip.decompress(path.read_bytes())
    edit_json(entries / f"{ENTRY}.json", lambda d: d["samples"].update(sha256=sha256_bytes(data), bytes=len(data)))
    outcome = only(verify_dir(entries))
    assert outcome.status == FAILED and "samples_sha256" in outcome.detail


def test_entries_without_shipped_samples_are_reported_not_failed(entries, capsys):
    (entries / f"{ENTRY}.samples.jsonl.gz").unlink()
    assert only(verify_dir(entries)).status == UNAVAILABLE
    assert main(["leaderboard", "verify", "--entries", str(entries)]) == 0
    assert main(["leaderboard", "verify", "--entries", str(entries), "--strict"]) == 1
    assert "1 without samples" in capsys.readouterr().out


def test_a_broken_entry_file_fails_without_traceback(entries, capsys):
    (entries / "broken__pct.json").write_text("{not json")
    statuses = {o.path.name: o.status for o in verify_dir(entries)}
    assert statuses == {"broken__pct.json": FAILED, f"{ENTRY}.json": VERIFIED}
    assert main(["leaderboard", "verify", "--entries", str(entries)]) == 1
    assert "Traceback" not in capsys.readouterr().err


def test_missing_entries_folder_is_a_user_error(tmp_path, capsys):
    assert main(["leaderboard", "verify", "--entries", str(tmp_path / "none")]) == 2
    assert "no such entries folder" in capsys.readouterr().err
