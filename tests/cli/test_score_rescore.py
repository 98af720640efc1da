"""``polibench score RUN --scorer X --output NEW``: a finished run's responses scored again with another scorer,
without generating. Re-scoring must give exactly the records and numbers a fresh run with that scorer gives,
record where its responses came from, and refuse bad input with one message (exit code 2), writing nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from polibench.cli.main import main
from polibench.hashing import file_sha256
from polibench.results.folder import RunFolder

RUN = ["--backend", "mock", "--tasks", "pct,rottger-forced", "--limit", "3", "--samples", "2", "--seed", "7",
       "--no-cache", "--no-progress"]
# the judge on the mock backend: cheap, deterministic, and it reads other stances than the lexical scorer
JUDGE = ["--scorer", "judge", "--scorer-args", "backend=mock,score_choices=true"]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """(lexical run, fresh judge run, the lexical run re-scored by the judge)."""
    root = tmp_path_factory.mktemp("rescore")
    lexical, fresh, rescored = root / "lexical", root / "fresh", root / "rescored"
    assert main(["run", *RUN, "--scorer", "lexical", "--output", str(lexical)]) == 0
    assert main(["run", *RUN, *JUDGE, "--output", str(fresh)]) == 0
    assert main(["score", str(lexical), *JUDGE, "--output", str(rescored), "--no-progress"]) == 0
    return lexical, fresh, rescored


def _document(path: Path) -> dict:
    return json.loads((path / "results.json").read_text(encoding="utf-8"))


def test_rescoring_gives_the_records_and_numbers_of_a_fresh_run_with_that_scorer(runs):
    lexical, fresh, rescored = runs
    assert (rescored / "samples.jsonl").read_bytes() == (fresh / "samples.jsonl").read_bytes()
    new, ref = _document(rescored), _document(fresh)
    assert new["results"] == ref["results"] and new["scoring"] == ref["scoring"]
    for key in ("configs", "instruments", "variant_sets", "model", "n_samples"):
        assert new[key] == ref[key], key
    assert {k: v for k, v in new["run"].items() if k not in ("command", "rescored_from")} == \
        {k: v for k, v in ref["run"].items() if k != "command"}
    # positive control: the scorer really changed the stances (the comparison above is not vacuous)
    stances = lambda path: [s.stance for s in RunFolder(path).samples if s.stance.scorer != "none"]  # noqa: E731
    before, after = stances(lexical), stances(rescored)
    assert {s.scorer for s in before} == {"lexical"} and "judge" in {s.scorer for s in after}
    assert [s.label for s in before] != [s.label for s in after]
    assert [s.response for s in RunFolder(lexical).samples] == [s.response for s in RunFolder(rescored).samples]


def test_the_new_run_records_where_its_responses_came_from(runs):
    lexical, _, rescored = runs
    source = _document(rescored)["run"]["rescored_from"]
    assert source == {"run": str(lexical), "results_sha256": file_sha256(lexical / "results.json"),
                      "samples_sha256": file_sha256(lexical / "samples.jsonl"),
                      "scoring": {"pct": "lexical", "rottger-forced": "lexical"}}
    assert "rescored_from" not in _document(lexical)["run"]  # a generated run's results.json is unchanged
    assert main(["score", str(rescored), "--check"]) == 0  # and the re-scored run recomputes like any run


def one_error(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("polibench: error:") == 1 and "Traceback" not in err, err
    return err


@pytest.mark.parametrize("args, message", [
    (["{missing}", *JUDGE, "--output", "{out}"], "results.json: no such file"),
    (["{lexical}", "--scorer", "nope", "--output", "{out}"], "unknown scorer 'nope'"),
    (["{lexical}", *JUDGE, "--output", "{fresh}"], "already exists"),
    (["{lexical}", *JUDGE], "needs both --scorer X and --output NEW"),
    (["{lexical}", "--output", "{out}"], "needs both --scorer X and --output NEW"),
    (["{lexical}", *JUDGE, "--output", "{out}", "--check"], "does not go with --scorer"),
])
def test_bad_input_is_one_message_exit_2_and_writes_nothing(runs, tmp_path, capsys, args, message):
    lexical, fresh, _ = runs
    before = {p: p.stat().st_mtime_ns for p in (*lexical.iterdir(), *fresh.iterdir())}
    names = {"missing": str(tmp_path / "no-run"), "out": str(tmp_path / "new"), "lexical": str(lexical),
             "fresh": str(fresh)}
    assert main(["score", *[a.format(**names) for a in args]]) == 2
    assert message in one_error(capsys)
    assert not (tmp_path / "new").exists()
    assert {p: p.stat().st_mtime_ns for p in (*lexical.iterdir(), *fresh.iterdir())} == before
