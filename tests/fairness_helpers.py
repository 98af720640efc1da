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
