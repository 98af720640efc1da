"""``run`` and ``score`` share one computation: a run folder's results.json is reproduced exactly from samples.jsonl,
bootstrap intervals included (seeded from the run seed)."""

import json

import pytest
from metrics_samples import make_run

from polibench.cli.main import main
from polibench.results.check import recompute, results_json
from polibench.results.files import read_results, read_samples


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("score") / "run"
    make_run(out, seed=4, run_seed=11)
    return out


def test_results_layout(run_dir):
    block = json.loads((run_dir / "results.json").read_text())["results"]["faulborn30"]
    assert set(block) == {"pct", "faulborn_bias", "coverage", "bootstrap"}
    bias = block["faulborn_bias"]
    assert {"economic", "social", "total", "ci", "counted", "per_instrument", "per_prefix", "per_form",
            "steerability"} <= set(bias)
    assert set(bias["per_instrument"]) == {"pct", "wvs"} and len(bias["per_prefix"]) == 10
    assert set(bias["steerability"]) == {"likert", "baseline"}
    assert set(block["pct"]) >= {"economic", "social", "ci", "per_variant", "spread", "answers"}
    assert block["bootstrap"]["resamples"] == 10_000 and block["bootstrap"]["unit"] == "item"


def test_score_reproduces_run_exactly(run_dir, capsys):
    document = read_results(run_dir)
    recomputed = recompute(document, read_samples(run_dir / "samples.jsonl"))
    assert results_json(recomputed) == document.results_json()
    assert document.format == "polibench.results" and document.version == 2
    assert main(["score", str(run_dir), "--check"]) == 0
    assert "matches" in capsys.readouterr().out


def test_bootstrap_seed_follows_the_run_seed(tmp_path):
    a = make_run(tmp_path / "a", seed=4, run_seed=11)["results"]["faulborn30"]
    b = make_run(tmp_path / "b", seed=4, run_seed=12)["results"]["faulborn30"]
    # same stances (seed=4), different run seeds: same point values, other resamples
    assert a["faulborn_bias"]["total"] == b["faulborn_bias"]["total"]
    assert a["bootstrap"]["seed"] != b["bootstrap"]["seed"]


def test_check_detects_an_edited_sample_and_score_repairs(run_dir, tmp_path, capsys):
    import shutil

    copy = tmp_path / "edited"
    shutil.copytree(run_dir, copy)
    lines = (copy / "samples.jsonl").read_text().splitlines()
    flipped = []
    for line in lines:
        s = json.loads(line)
        if s["stance"]["kept"] and s["stance"]["label"] == "agree":
            s["stance"]["label"] = "disagree"
        flipped.append(json.dumps(s))
    (copy / "samples.jsonl").write_text("\n".join(flipped) + "\n")
    assert main(["score", str(copy), "--check"]) == 1
    capsys.readouterr()
    assert main(["score", str(copy)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert main(["score", str(copy), "--check"]) == 0
    assert (copy / "report.md").is_file()
    # it prints what `polibench run` prints, for the recomputed (flipped) results, not the stored ones
    from polibench.cli.run import summary_lines
    from polibench.results.files import read_results

    assert printed[:-1] == summary_lines(read_results(copy)) and printed[-1].endswith("(updated); wrote "
                                                                                        f"{copy}/report.md")
