"""Helpers for the fairness tests: fixture paths and synthetic run folders (as `polibench fairness train` writes)."""

from __future__ import annotations

import json
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "fairness"
YODER_IDENTITY = FIXTURES / "yoder_identity.jsonl"
YODER_DEMOGRAPHIC = FIXTURES / "yoder_demographic.jsonl"
LIAR_FOLDER = FIXTURES / "liar"
USER_CSV = FIXTURES / "user_data.csv"


def write_run(root: Path, name: str, task: str, seed: int, rows: list[dict],
              groupings: dict[str, list[str]]) -> Path:
    """A seed folder with run.json and predictions.jsonl; ``rows``: id, label, probs, groups, members."""
    folder = Path(root) / name / task / f"seed-{seed}"
    folder.mkdir(parents=True, exist_ok=True)
    record = {"format": "polibench-fairness-run", "version": 1, "model": {"name": name, "path": name},
              "task": task, "seed": seed, "labels": {"0": "ok", "1": "bad"}, "groupings": groupings}
    (folder / "run.json").write_text(json.dumps(record), encoding="utf-8")
    with open(folder / "predictions.jsonl", "w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row) + "\n")
    return folder


def rows_from(labels, p1, groups, members=None, ids=None) -> list[dict]:
    """Prediction rows for one grouping named ``g`` from parallel lists (p1 = probability of class 1)."""
    out = []
    for n, (label, p, group) in enumerate(zip(labels, p1, groups)):
        out.append({"id": ids[n] if ids else f"i{n}", "label": label, "probs": [1 - p, p], "groups": {"g": group},
                    "members": {"g": members[n] if members else ([group] if group else [])}})
    return out


def toy_runs(root: Path, names=("base", "left", "right")) -> Path:
    """Three models x three seeds on task 'toy' (grouping g: x, y, z; z has no test items). The first name
    is right 90% of the time, the second 60% and worse on x, the third 75%; the last two err on different
    items, so their average is better than either."""
    import numpy as np

    rng = np.random.default_rng(0)
    n = 120
    labels = rng.integers(0, 2, n).tolist()
    groups = ["x", "y"] * (n // 2)
    for seed in (1, 2, 3):
        for name, right in zip(names, (0.9, 0.6, 0.75)):
            correct = rng.random(n) < right
            if name == names[1]:
                correct &= np.array([g != "x" or rng.random() < 0.5 for g in groups])
            p1 = [(0.55 + 0.1 * rng.random()) if (lab == 1) == ok else (0.35 + 0.1 * rng.random())
                  for lab, ok in zip(labels, correct)]
            write_run(root, name, "toy", seed, rows_from(labels, p1, groups), {"g": ["x", "y", "z"]})
    return root


def make_fairness_submission(base: Path, names=("base", "left", "right"), name: str = "toy") -> Path:
    """A fairness submissions folder holding one checked submission of :func:`toy_runs` (with the ensemble
    of the last two models), made through the real evaluate and submit code."""
    from polibench.fairness.evaluate import evaluate
    from polibench.leaderboard.fairness_submit import submit

    runs = toy_runs(Path(base) / "fairness-runs", names)
    document = evaluate([runs], reference=names[0], ensembles=[("mix", list(names[1:]))], n_boot=100)
    eval_json = Path(base) / "fairness-eval.json"
    eval_json.write_text(document.to_json(), encoding="utf-8")
    out = Path(base) / "fairness"
    submit(eval_json, out, name, note="synthetic predictions written by the tests")
    return out
