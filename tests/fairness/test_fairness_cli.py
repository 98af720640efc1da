"""`polibench fairness eval|compare|data` from the command line on synthetic run folders: the JSON layout,
t-tests against a reference, the partisan ensemble beside its members, tables, heatmaps and user errors."""

import json

import numpy as np
import pytest
from fairness_helpers import toy_runs

from polibench.cli.main import main


@pytest.fixture()
def runs(tmp_path):
    return toy_runs(tmp_path / "runs")


def test_eval_and_compare_end_to_end(runs, tmp_path, capsys):
    out = tmp_path / "fairness.json"
    assert main(["fairness", "eval", str(runs), "--reference", "base", "--ensemble", "mix=left,right",
                 "--bootstrap", "200", "--output", str(out), "--markdown", str(tmp_path / "eval.md"),
                 "--no-progress"]) == 0
    printed = capsys.readouterr().out
    assert "| toy / g: BACC | x | y |" in printed and "partisan-ensemble" in printed
    doc = json.loads(out.read_text())
    assert doc["format"] == "polibench-fairness-eval" and doc["settings"]["reference"] == "base"
    task = doc["tasks"]["toy"]
    assert set(task["models"]) == {"base", "left", "right", "mix"}
    base, left = task["models"]["base"], task["models"]["left"]
    assert base["seeds"] == [1, 2, 3] and base["n_test"] == 120
    bacc = base["overall"]["bacc"]
    assert bacc["value"] == pytest.approx(np.mean(bacc["per_seed"]))
    assert bacc["ci"][0] <= bacc["value"] <= bacc["ci"][1]
    assert left["significance"]["overall"]["bacc"]["significant"] is True  # 60% vs 90%, three seeds each
    assert "significance" not in base
    g = left["groupings"]["g"]
    assert g["groups"]["x"]["bacc"]["value"] < g["groups"]["y"]["bacc"]["value"]  # 'left' is worse on x
    assert g["best_worst"]["bacc"] == {"best": "y", "worst": "x"}
    assert g["excluded_from_gaps"] == ["z"] and g["groups"]["z"]["n"] == 0
    x_seeds, y_seeds = g["groups"]["x"]["bacc"]["per_seed"], g["groups"]["y"]["bacc"]["per_seed"]
    assert g["gaps"]["gap_bacc"]["value"] == pytest.approx(np.mean([abs(a - b) for a, b in zip(x_seeds, y_seeds)]))
    for key in ("subgroup_auc", "bpsn_auc", "bnsp_auc", "tpr", "fpr", "precision", "recall", "f1"):
        assert g["groups"]["x"][key]["value"] is not None
    six = task["ensembles"]["mix"]["table6"]
    members = [task["models"][m]["overall"]["bacc"]["value"] for m in ("left", "right")]
    assert six["avg-uni-model"]["bacc"] == pytest.approx(np.mean(members))
    assert six["best-uni-model"]["bacc"] == pytest.approx(max(members))
    assert six["partisan-ensemble"]["bacc"] == pytest.approx(task["models"]["mix"]["overall"]["bacc"]["value"])
    assert task["models"]["mix"]["members"] == ["left", "right"]

    assert main(["fairness", "compare", str(out), "--output", str(tmp_path / "cmp"), "--metrics", "f1"]) == 0
    table = (tmp_path / "cmp" / "compare.md").read_text()
    assert "▲" in table and "▼" in table
    for suffix in (".csv", ".png", ".svg"):
        assert (tmp_path / "cmp" / f"toy_g_f1{suffix}").stat().st_size > 0



@pytest.mark.parametrize("argv, message", [
    (["fairness", "eval", "NOWHERE"], "no such run folder"),
    (["fairness", "eval", "RUNS", "--ensemble", "left"], "expected [NAME=]MODEL,MODEL"),
    (["fairness", "eval", "RUNS", "--ensemble", "left,absent"], "no task has runs of all its members"),
    (["fairness", "eval", "RUNS", "--reference", "absent"], "no runs of that model"),
    (["fairness", "compare", "RUNS/base/toy/seed-1/run.json", "--output", "OUT"], "not the output of"),
    (["fairness", "train", "--model", "m", "--task", "hate-identity", "--seeds", "1,x"], "--seeds"),
    (["fairness", "data", "--task", "no-such-task"], "unknown fairness task"),
])
def test_user_errors_are_one_line_and_exit_2(runs, tmp_path, capsys, argv, message):
    argv = [a.replace("RUNS", str(runs)).replace("OUT", str(tmp_path / "o")) for a in argv]
    assert main(argv + (["--no-progress"] if argv[1] == "eval" else [])) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1 and "Traceback" not in err
