"""The results document: version 1 run folders (no format fields, Faulborn's "cultural") migrate through one
function with every number unchanged; unknown versions and malformed documents are one clear error."""

import json

import pytest
from metrics_samples import make_run

from polibench.cli.main import main
from polibench.errors import PolibenchError
from polibench.results.check import recompute, results_json
from polibench.results.document import FORMAT, VERSION
from polibench.results.files import read_results, read_samples
from polibench.results.migrate import migrate


def cultural(tree):
    if isinstance(tree, dict):
        return {("cultural" if k == "social" else k): cultural(v) for k, v in tree.items()}
    return tree


def as_version_1(run_dir):
    """Rewrite a run folder as polibench wrote it before the typed document: no format/version keys, and the
    social dimension named "cultural" in samples.jsonl, in the instruments' items and in every Faulborn block
    (the PCT block's "social" coordinate kept its name)."""
    document = json.loads((run_dir / "results.json").read_text())
    del document["format"], document["version"]
    for block in document["results"].values():
        block["faulborn_bias"] = cultural(block["faulborn_bias"])
    for instrument in document["instruments"].values():
        for item in instrument["items"]:
            if item["dimension"] == "social":
                item["dimension"] = "cultural"
    (run_dir / "results.json").write_text(json.dumps(document, indent=2))
    samples = (run_dir / "samples.jsonl").read_text().replace('"dimension":"social"', '"dimension":"cultural"')
    (run_dir / "samples.jsonl").write_text(samples)
    return document


def test_a_version_1_run_migrates_with_every_number_unchanged(tmp_path, capsys):
    run = tmp_path / "run"
    current = make_run(run, seed=3, limit=4)
    old = as_version_1(run)
    assert "cultural" in old["results"]["faulborn30"]["faulborn_bias"]
    assert '"dimension":"cultural"' in (run / "samples.jsonl").read_text()
    document = read_results(run)
    assert (document.format, document.version) == (FORMAT, VERSION)
    assert document.results_json() == current["results"]           # renamed, and not one number changed
    samples = read_samples(run / "samples.jsonl")
    assert {s.dimension for s in samples} == {"economic", "social"}
    assert results_json(recompute(document, samples)) == document.results_json()
    assert main(["score", str(run), "--check"]) == 0
    assert "matches" in capsys.readouterr().out


def test_unknown_version_and_bad_documents_are_one_clear_error():
    with pytest.raises(PolibenchError, match="version 7 is not one this polibench reads"):
        migrate({"format": FORMAT, "version": 7}, "r.json")
    with pytest.raises(PolibenchError, match=r"r.json: not a valid polibench results document: field 'results'"):
        migrate({"format": FORMAT, "version": VERSION}, "r.json")
    with pytest.raises(PolibenchError, match="expected a JSON object"):
        migrate([1, 2], "r.json")


def test_an_interval_out_of_order_is_refused(tmp_path):
    run = tmp_path / "run"
    make_run(run, seed=3, limit=4)
    document = json.loads((run / "results.json").read_text())
    document["results"]["faulborn30"]["faulborn_bias"]["ci"]["total"] = [0.5, -0.5]
    with pytest.raises(PolibenchError, match=r"faulborn_bias\.ci\.total"):
        migrate(document, "results.json")
