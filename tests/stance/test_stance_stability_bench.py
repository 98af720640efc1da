"""benchmarks/bench_stance_stability.py's ensembles: an ensemble's reading is its runs' probabilities averaged pair by
pair, and a malformed or unread ensemble is refused with a message (hand-made readings; no model)."""

from pathlib import Path

import pytest
from scripts import load_script

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_stance_stability.py"
PAIR, OTHER = ("Taxes should rise.", "I agree."), ("Taxes should rise.", "No.")


def runs():
    return {"reference": {PAIR: {"agree": 0.9, "disagree": 0.1}, OTHER: {"agree": 0.2, "disagree": 0.8}},
            "seed-1": {PAIR: {"agree": 0.5, "disagree": 0.5}, OTHER: {"agree": 0.0, "disagree": 1.0}},
            "seed-2": {PAIR: {"agree": 0.1, "disagree": 0.9}, OTHER: {"agree": 0.4, "disagree": 0.6}}}


def test_an_ensemble_reads_the_mean_of_its_runs_probabilities():
    mean = load_script(SCRIPT).averaged([runs()["reference"], runs()["seed-1"], runs()["seed-2"]])
    assert mean[PAIR] == pytest.approx({"agree": 0.5, "disagree": 0.5})
    assert mean[OTHER] == pytest.approx({"agree": 0.2, "disagree": 0.8})


def test_ensemble_rows_compare_the_second_side_against_the_first():
    tables = runs()
    rows = load_script(SCRIPT).ensemble_comparisons(["reference+seed-1:seed-2"], tables)
    assert [row[:3] for row in rows] == [("mean(seed-2) vs mean(reference,seed-1)", "mean(reference,seed-1)",
                                          "mean(seed-2)")]
    assert tables["mean(reference,seed-1)"][PAIR] == pytest.approx({"agree": 0.7, "disagree": 0.3})
    assert tables["mean(seed-2)"] == runs()["seed-2"]


@pytest.mark.parametrize("spec, message", [("reference+seed-1", "not of the form"), ("reference:", "not of the form"),
                                           ("reference:seed-3", "seed-3 not read yet")])
def test_a_bad_ensemble_is_refused_with_a_message(spec, message):
    with pytest.raises(SystemExit, match=message):
        load_script(SCRIPT).ensemble_comparisons([spec], runs())
