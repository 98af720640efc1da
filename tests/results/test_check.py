"""One recompute-and-compare (``polibench.results.check``) behind ``score --check``, ``submit`` and ``leaderboard
verify``: the same tampering is caught by all three, with the same path in the message, and a float difference
below the one tolerance passes all three.

The run is a real one (scripted answers through the real pipeline, lexical scorer, real metrics); the entry is
made by ``submit`` from it, and each tampered run's files are shipped as that entry's (with the entry's hashes
updated, as a forger would), so ``verify`` reaches the recomputation."""

import json
import math
import shutil
from pathlib import Path

import pytest
from leaderboard_helpers import make_run

from polibench.cli.main import main
from polibench.leaderboard.artifacts import gzip_bytes
from polibench.leaderboard.verify import FAILED, VERIFIED, verify_path
from polibench.results.check import ABS_TOL, REL_TOL, Difference, check, describe, differences
from polibench.results.files import read_results, read_samples

ENTRY = "org-tiny-model__pct.json"


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("check")
    run = make_run(base / "run", model="org/tiny-model")
    entries = base / "entries"
    assert main(["submit", str(run), "--entries", str(entries), "--allow-partial"]) == 0
    return run, entries


@pytest.fixture
def run_and_entries(pristine, tmp_path) -> tuple[Path, Path]:
    run, entries = tmp_path / "run", tmp_path / "entries"
    shutil.copytree(pristine[0], run)
    shutil.copytree(pristine[1], entries)
    return run, entries


def scale_results(path: tuple[str, ...], factor: float):
    """Multiply one number of results.json by ``factor``."""
    def change(run: Path) -> None:
        document = json.loads((run / "results.json").read_text())
        node = document
        for key in path[:-1]:
            node = node[key]
        assert isinstance(node[path[-1]], float) and node[path[-1]] != 0
        node[path[-1]] *= factor
        (run / "results.json").write_text(json.dumps(document, indent=2))
    return change


def remove_last_sample(run: Path) -> None:
    lines = (run / "samples.jsonl").read_text().splitlines(keepends=True)
    (run / "samples.jsonl").write_text("".join(lines[:-1]))


ECONOMIC = ("results", "pct", "pct", "economic")
AGREE_SHARE = ("run_metrics", "controls", "pct", "agree_share", "share")


def three_verdicts(run: Path, entries: Path, capsys) -> dict[str, tuple[bool, str]]:
    """``score --check``, ``submit`` and ``leaderboard verify`` on the run (shipped as the entry's files for verify):
    per command, (passed, what it printed)."""
    capsys.readouterr()
    code = main(["score", str(run), "--check"])
    out = {"score --check": (code == 0, capsys.readouterr().out)}
    assert code in (0, 1)
    code = main(["submit", str(run), "--entries", str(run.parent / "submitted"), "--allow-partial"])
    out["submit"] = (code == 0, capsys.readouterr().err)
    assert code in (0, 2)
    entry_path = entries / ENTRY
    entry = json.loads(entry_path.read_text())
    for kind, name in (("samples", "samples.jsonl"), ("results", "results.json")):
        entry[kind] = gzip_bytes((run / name).read_bytes(), entries / entry[kind]["file"]).model_dump(mode="json")
    entry_path.write_text(json.dumps(entry, indent=2))
    outcome = verify_path(entry_path)
    assert outcome.status in (VERIFIED, FAILED)
    out["verify"] = (outcome.status == VERIFIED, outcome.detail)
    return out


def test_an_untouched_run_passes_all_three(run_and_entries, capsys):
    found = three_verdicts(*run_and_entries, capsys)
    assert all(passed for passed, _ in found.values()), found


@pytest.mark.parametrize("tamper, path", [
    (scale_results(ECONOMIC, 1 + 1e-6), "results.pct.pct.economic"),
    (scale_results(AGREE_SHARE, 1 + 1e-6), "run_metrics.controls.pct.agree_share.share"),
    (remove_last_sample, "n_samples.pct"),
], ids=["result-1e-6", "run-level-1e-6", "sample-removed"])
def test_a_tampered_run_is_caught_by_all_three_naming_the_same_path(run_and_entries, capsys, tamper, path):
    run, entries = run_and_entries
    tamper(run)
    first = check(read_results(run), read_samples(run / "samples.jsonl")).differences[0]
    assert first.path == path
    said = describe([first])  # e.g. "results.pct.pct.economic: stored 0.94000094, recomputed 0.94"
    found = three_verdicts(run, entries, capsys)
    for command, (passed, printed) in found.items():
        assert not passed, f"{command} accepted a run with {said}"
        assert said in printed and "DIFFERS from the numbers recomputed from samples.jsonl" in printed, \
            (command, printed)


@pytest.mark.parametrize("path", [ECONOMIC, AGREE_SHARE], ids=["result", "run-level"])
def test_a_change_below_the_tolerance_passes_all_three(run_and_entries, capsys, path):
    run, entries = run_and_entries
    before = (run / "results.json").read_text()
    scale_results(path, 1 + 1e-13)(run)
    assert (run / "results.json").read_text() != before  # the change reached the file
    found = three_verdicts(run, entries, capsys)
    assert all(passed for passed, _ in found.values()), found


def test_rescoring_refuses_a_run_whose_samples_disagree_with_its_counts(run_and_entries, tmp_path, capsys):
    """The fourth user of the one sample-count check: ``score --scorer X --output NEW`` reads the responses back."""
    run, _ = run_and_entries
    remove_last_sample(run)
    code = main(["score", str(run), "--scorer", "lexical", "--output", str(tmp_path / "new")])
    err = capsys.readouterr().err
    assert code == 2 and "n_samples.pct: results.json 12, samples.jsonl 11" in err, err
    assert not (tmp_path / "new").exists()


def test_the_one_tolerance():
    assert REL_TOL == 1e-9 and ABS_TOL == 1e-12
    assert differences({"x": 0.94}, {"x": 0.94 * (1 + 1e-10)}) == []            # within 1e-9 relative
    assert differences({"x": 0.94}, {"x": 0.94 * (1 + 1e-8)}) != []             # beyond it
    assert differences({"x": 0.0}, {"x": 5e-13}) == []                          # near zero: the absolute floor
    assert differences({"x": 0.0}, {"x": 5e-12}) == [Difference("x", 0.0, 5e-12)]
    assert differences({"x": math.nan}, {"x": math.nan}) == []                  # NaN matches NaN
    assert [d.path for d in differences({"x": math.nan}, {"x": 0.0})] == ["x"]   # but nothing else
    assert differences({"x": True}, {"x": False}) == [Difference("x", True, False)]  # booleans: equal or not
    assert differences({"a": [1, 2]}, {"a": [1, 2, 3]}) == [Difference("a", "2 values", "3 values")]
    assert differences({"a": 1}, {"b": 1}) == [Difference("a", 1, "(missing)"), Difference("b", "(missing)", 1)]
    assert differences({"s": "agree"}, {"s": "Agree"}) != []                    # anything else: equal or not


def test_describe_names_the_first_differences_and_counts_the_rest():
    found = [Difference(f"results.t.m.v{i}", 1.5, 0.38) for i in range(5)]
    text = describe(found)
    assert text.startswith("results.t.m.v0: stored 1.5, recomputed 0.38; results.t.m.v1:")
    assert "v3" not in text and text.endswith("(and 2 more)")
    assert describe(found[:1], what="entry") == "results.t.m.v0: entry 1.5, recomputed 0.38"
