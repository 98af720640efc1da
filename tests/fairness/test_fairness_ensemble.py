"""Partisan ensemble: probability averaging, seed and item matching, Feng et al.'s Table 6 rows."""

import numpy as np
import pytest
from fairness_helpers import rows_from, write_run

from polibench.errors import PolibenchError
from polibench.fairness.ensemble import average_probs, build_ensemble, table6
from polibench.fairness.runs import collect

GROUPINGS = {"g": ["x", "y"]}


def test_average_probs_arithmetic():
    a = np.array([[0.9, 0.1], [0.2, 0.8]])
    b = np.array([[0.5, 0.5], [0.6, 0.4]])
    c = np.array([[0.1, 0.9], [0.1, 0.9]])
    assert average_probs([a, b, c]) == pytest.approx(np.array([[0.5, 0.5], [0.3, 0.7]]))
    with pytest.raises(PolibenchError):
        average_probs([a, a[:1]])


def test_ensemble_matches_seeds_and_items_by_id(tmp_path):
    labels, groups = [1, 0, 1], ["x", "y", "x"]
    write_run(tmp_path, "left", "t", 1, rows_from(labels, [0.8, 0.4, 0.2], groups), GROUPINGS)
    write_run(tmp_path, "left", "t", 2, rows_from(labels, [0.6, 0.6, 0.6], groups), GROUPINGS)
    # the right model lists its items in another order and has an extra seed
    rows = rows_from(labels, [0.4, 0.2, 0.9], groups)
    write_run(tmp_path, "right", "t", 1, [rows[2], rows[0], rows[1]], GROUPINGS)
    write_run(tmp_path, "right", "t", 2, rows_from(labels, [0.0, 0.0, 0.0], groups), GROUPINGS)
    write_run(tmp_path, "right", "t", 3, rows_from(labels, [1.0, 1.0, 1.0], groups), GROUPINGS)
    models = collect([tmp_path])["t"]
    ensemble = build_ensemble("both", [models["left"], models["right"]])
    assert sorted(ensemble.seeds) == [1, 2] and ensemble.kind == "ensemble"
    seed1 = ensemble.seeds[1]
    assert seed1.ids == ["i0", "i1", "i2"]
    assert seed1.probs[:, 1] == pytest.approx([0.6, 0.3, 0.55])  # (0.8+0.4)/2, (0.4+0.2)/2, (0.2+0.9)/2
    assert seed1.probs.sum(axis=1) == pytest.approx([1, 1, 1])
    assert ensemble.seeds[2].probs[:, 1] == pytest.approx([0.3, 0.3, 0.3])


def test_ensemble_refuses_members_without_common_seeds_or_items(tmp_path):
    write_run(tmp_path, "a", "t", 1, rows_from([1, 0], [0.9, 0.1], ["x", "y"]), GROUPINGS)
    write_run(tmp_path, "b", "t", 2, rows_from([1, 0], [0.9, 0.1], ["x", "y"]), GROUPINGS)
    write_run(tmp_path, "c", "t", 1, rows_from([1, 0], [0.9, 0.1], ["x", "y"], ids=["i0", "other"]), GROUPINGS)
    models = collect([tmp_path])["t"]
    with pytest.raises(PolibenchError, match="no seed in common"):
        build_ensemble("e", [models["a"], models["b"]])
    with pytest.raises(PolibenchError, match="test items differ"):
        build_ensemble("e", [models["a"], models["c"]])
    with pytest.raises(PolibenchError, match="at least two"):
        build_ensemble("e", [models["a"]])


def test_table6_rows_take_average_and_best_per_metric():
    members = {"news-left": {"bacc": 0.88, "f1": 0.80}, "reddit-left": {"bacc": 0.86, "f1": 0.83},
               "news-right": {"bacc": 0.84, "f1": 0.78}}
    rows = table6(members, {"bacc": 0.90, "f1": 0.85})
    assert rows["avg-uni-model"] == pytest.approx({"bacc": 0.86, "f1": 0.80333333})
    assert rows["best-uni-model"] == {"bacc": 0.88, "f1": 0.83}
    assert rows["best_member"] == {"bacc": "news-left", "f1": "reddit-left"}  # per column, as Feng et al.
    assert rows["partisan-ensemble"] == {"bacc": 0.90, "f1": 0.85}
