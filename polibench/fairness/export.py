"""The compact per-model summary of an evaluation document, shaped for a leaderboard entry's ``fairness``
block (:class:`polibench.leaderboard.schema.Entry`). Metrics use the leaderboard's ``{"value", "ci"}``
layout. Layout (per task the model was evaluated on)::

    {"<task>": {"n_test": int, "seeds": [int], "kind": "model" | "ensemble",
                "overall": {"bacc": {"value", "ci"}, "f1": {"value", "ci"}},
                "groupings": {"<grouping>": {"groups": {"<group>": {"bacc": float, "f1": float, "n": int}},
                                             "gap_bacc": {"value", "ci"}, "gap_f1": {"value", "ci"},
                                             "equalized_odds_difference": {"value", "ci"},
                                             "best_group": {"bacc": str, "f1": str},
                                             "worst_group": {"bacc": str, "f1": str}}},
                "evaluated": "<ISO time>", "polibench_version": str}}
"""

from __future__ import annotations

from polibench.errors import PolibenchError

GAPS = ("gap_bacc", "gap_f1", "equalized_odds_difference")


def _metric(stat: dict) -> dict:
    return {"value": stat.get("value"), "ci": stat.get("ci")}


def leaderboard_block(document: dict, model: str) -> dict:
    """``{task: summary}`` of ``model`` (a model or ensemble name) in an evaluation document."""
    out = {}
    for task, entry in document.get("tasks", {}).items():
        block = entry["models"].get(model)
        if block is None:
            continue
        groupings = {}
        for name, grouping in block["groupings"].items():
            groupings[name] = {
                "groups": {g: {"bacc": e["bacc"]["value"], "f1": e["f1"]["value"], "n": e["n"]}
                           for g, e in grouping["groups"].items()},
                **{k: _metric(grouping["gaps"][k]) for k in GAPS if k in grouping["gaps"]},
                "best_group": {m: v["best"] for m, v in grouping.get("best_worst", {}).items()},
                "worst_group": {m: v["worst"] for m, v in grouping.get("best_worst", {}).items()},
            }
        out[task] = {"n_test": block["n_test"], "seeds": block["seeds"], "kind": block["kind"],
                     "overall": {m: _metric(block["overall"][m]) for m in ("bacc", "f1")},
                     "groupings": groupings, "evaluated": document.get("generated"),
                     "polibench_version": document.get("polibench_version")}
    if not out:
        raise PolibenchError(f"model '{model}' is not in the fairness evaluation document")
    return out
