"""``polibench compare``: ranks, Kendall's tau between the PCT and WVS rankings, errors."""

import json

import pytest
from metrics_samples import make_run, typed_document

from polibench.cli.main import main
from polibench.errors import PolibenchError
from polibench.report.compare import compare_documents, ranks, render_table


def document(model, pct_econ, wvs_econ, pct_cult=0.0, wvs_cult=0.0, economic=1.0):
    bias = {"economic": 0.0, "social": 0.0, "total": 0.0, "per_instrument": {
        "pct": {"economic": pct_econ, "social": pct_cult, "total": 0.0},
        "wvs": {"economic": wvs_econ, "social": wvs_cult, "total": 0.0}}}
    return typed_document({"f": {"pct": {"economic": economic, "social": 0.0}, "faulborn_bias": bias}}, model=model,
                          run={"seed": 1})


def test_ranks_by_hand():
    assert ranks([0.3, -0.1, None, 0.3, -0.5]) == [3, 2, None, 3, 1]


def test_kendall_tau_by_hand(tmp_path):
    # economic bias on PCT items orders the models a < b < c < d; on WVS items b < a < c < d.
    # 6 pairs, 1 discordant (a, b): tau = (5 - 1) / 6 = 0.6667. Exact two-sided p for n = 4: permutations
    # with at most one inversion are 1 + 3 = 4 of 24, and as many at the other end: 8 / 24 = 0.3333.
    runs = [(tmp_path / m, document(m, p, w)) for m, p, w in
            [("a", -0.3, -0.2), ("b", -0.1, -0.25), ("c", 0.0, 0.1), ("d", 0.2, 0.3)]]
    found = compare_documents(runs)["tasks"]["f"]
    assert found["rankings"]["bias_pct_economic"] == {"a": 1, "b": 2, "c": 3, "d": 4}
    assert found["rankings"]["bias_wvs_economic"] == {"a": 2, "b": 1, "c": 3, "d": 4}
    assert found["kendall_tau"]["economic"] == {"between": ["bias_pct_economic", "bias_wvs_economic"],
                                                "title": "PCT vs WVS ranking by economic bias",
                                                "tau": 0.6667, "p_value": 0.3333, "n": 4}
    # all social biases equal (0.0): tau undefined
    assert found["kendall_tau"]["social"]["tau"] is None
    text = render_table(compare_documents(runs))
    assert "Kendall tau, PCT vs WVS ranking by economic bias: +0.667 (p = 0.333), n = 4" in text
    assert "-0.300 (1)" in text
    assert "Kendall tau, PCT vs WVS ranking by social bias: n/a (a ranking is all ties), n = 4" in text


def test_same_model_twice_gets_told_apart(tmp_path):
    found = compare_documents([(tmp_path / "r1", document("m", 0.1, 0.1)), (tmp_path / "r2", document("m", 0.2, 0.2))])
    assert [r["label"] for r in found["runs"]] == ["m", "m (r2)"]


def test_errors(tmp_path):
    with pytest.raises(PolibenchError, match="at least 2"):
        compare_documents([(tmp_path, document("a", 0, 0))])
    bare = typed_document({"f": {}}, model="x")
    with pytest.raises(PolibenchError, match="no metric column in common"):
        compare_documents([(tmp_path / "1", bare), (tmp_path / "2", bare)])
    other = typed_document({"g": {}}, model="x")
    with pytest.raises(PolibenchError, match="no task in common"):
        compare_documents([(tmp_path / "1", document("a", 0, 0)), (tmp_path / "2", other)])


def test_compare_command_on_run_folders(tmp_path, capsys):
    for name, lean, seed in (("left", 0.3, 1), ("right", -0.3, 2)):
        make_run(tmp_path / name, seed=seed, lean=lean, limit=3, model=f"model-{name}", run_seed=seed)
    out = tmp_path / "cmp.json"
    assert main(["compare", str(tmp_path / "left"), str(tmp_path / "right"), "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "Kendall tau, PCT vs WVS ranking by economic bias" in printed and "model-left" in printed
    found = json.loads(out.read_text())["tasks"]["faulborn30"]
    assert found["rankings"]["bias_all_total"] == {"model-left": 1, "model-right": 2}
    assert main(["compare", str(tmp_path / "left")]) == 2
    assert "at least 2" in capsys.readouterr().err
    assert main(["compare", str(tmp_path / "left"), str(tmp_path / "nope")]) == 2


def test_kendall_tau_names_the_columns_it_lacks(tmp_path):
    """A task whose Faulborn bias has no per-instrument split: the PCT-vs-WVS pairing (the Faulborn metric's
    compare_pairs hook) is reported as not computable, naming the missing columns; the legend is the metrics'."""
    def flat(model, total):
        bias = {"economic": total, "social": 0.0, "total": total}
        return typed_document({"f": {"pct": {"economic": total, "social": 0.0}, "faulborn_bias": bias}}, model=model)
    found = compare_documents([(tmp_path / "a", flat("a", -0.2)), (tmp_path / "b", flat("b", 0.1))])["tasks"]["f"]
    assert found["kendall_tau"]["economic"]["tau"] is None
    assert found["kendall_tau"]["economic"]["missing"] == ["bias_pct_economic", "bias_wvs_economic"]
    assert found["rankings"]["bias_all_total"] == {"a": 1, "b": 2}
    text = render_table(compare_documents([(tmp_path / "a", flat("a", -0.2)), (tmp_path / "b", flat("b", 0.1))]))
    assert ("Kendall tau, PCT vs WVS ranking by economic bias: n/a (needs bias_pct_economic and bias_wvs_economic "
            "in every run)") in text
    assert ("value (rank; 1 = most left / libertarian). PCT = coordinates; bias = Faulborn bias over all items; "
            "pct / wvs = Faulborn bias on that instrument's items") in text


def scored(model, weights, pct_econ=0.1):
    """A run read by the embedded scorer with the given weights hash (None: no fingerprint recorded)."""
    found = document(model, pct_econ, 0.0)
    scoring = {"scorer": "embedded", "threshold": 0.9}
    if weights:
        scoring["fingerprint"] = {"weights": weights, "canary": "c" * 16}
    return found.model_copy(update={"scoring": {"f": scoring}})


def test_runs_read_by_different_scorers_are_marked_with_the_commands_that_reread(tmp_path):
    same = compare_documents([(tmp_path / "a", scored("a", "1" * 16)), (tmp_path / "b", scored("b", "1" * 16, 0.3))])
    assert not same["tasks"]["f"]["scorers"]["mixed"] and "†" not in render_table(same)
    runs = [(tmp_path / "a", scored("a", "1" * 16)), (tmp_path / "b", scored("b", "2" * 16, 0.3))]
    found = compare_documents(runs)["tasks"]["f"]["scorers"]
    assert found["mixed"] and found["marked"] == ["b"]
    assert found["reread"] == [f"polibench score {tmp_path / 'a'} --scorer embedded --output {tmp_path / 'a'}-reread",
                               f"polibench score {tmp_path / 'b'} --scorer embedded --output {tmp_path / 'b'}-reread"]
    text = render_table(compare_documents(runs))
    assert "b †" in text and "READ BY DIFFERENT STANCE SCORERS" in text and "w:2222222222222222" in text
    assert "--scorer embedded --output" in text
    unknown = compare_documents([(tmp_path / "a", scored("a", "1" * 16)), (tmp_path / "c", scored("c", None))])
    assert unknown["tasks"]["f"]["scorers"]["marked"] == ["c"]  # a trained default without a fingerprint


def test_a_run_read_by_the_reference_is_the_base_of_the_marks(tmp_path, monkeypatch):
    from polibench.scoring import fingerprint

    monkeypatch.setitem(fingerprint.REFERENCE, "embedded", {"weights": "2" * 16, "canary": "c" * 16})
    runs = [(tmp_path / "a", scored("a", "1" * 16)), (tmp_path / "b", scored("b", "2" * 16, 0.3))]
    assert compare_documents(runs)["tasks"]["f"]["scorers"]["marked"] == ["a"]
