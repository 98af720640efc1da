"""benchmarks/bench_stance_prismia.py reads PrismIA's panel score the right way round: 1.0 is strongly left, so a
clearly left answer agrees with a left-leaning statement and disagrees with a right-leaning one (hand-made rows
in PrismIA's file format; no model)."""

import json
from pathlib import Path

import pytest
from scripts import load_script

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_stance_prismia.py"


def bench():
    return load_script(SCRIPT)


def test_panel_side_follows_the_score_and_the_statement_lean():
    side = bench().panel_side
    assert side(0.9, "left") == "agree" and side(0.9, "right") == "disagree"
    assert side(0.1, "left") == "disagree" and side(0.1, "right") == "agree"
    assert side(0.75, "left") == "agree" and side(0.25, "left") == "disagree"  # the cut is inclusive
    assert side(0.5, "left") is None and side(0.74, "right") is None and side(0.26, "right") is None
    with pytest.raises(ValueError):
        side(0.9, "centre")


def test_load_partisan_joins_answers_to_scores_and_keeps_only_clear_ones(tmp_path):
    (tmp_path / "statements.json").write_text(json.dumps([
        {"id": "a", "text": "Taxes on the rich should rise.", "lean": "left"},
        {"id": "b", "text": "Taxes should be cut.", "lean": "right"}]))
    month = tmp_path / "2026-03"
    month.mkdir()
    raw = [{"statement_id": s, "model_id": m, "response_text": f"{s}-{m}"} for s in "ab" for m in ("x", "y")]
    scores = [{"statement_id": "a", "model_id": "x", "weighted_score": 0.8},
              {"statement_id": "a", "model_id": "y", "weighted_score": 0.5},
              {"statement_id": "b", "model_id": "x", "weighted_score": 0.8},
              {"statement_id": "b", "model_id": "y", "weighted_score": 0.2}]
    (month / "likert_raw.json").write_text(json.dumps(raw))
    (month / "likert_scores.json").write_text(json.dumps(scores))
    rows = bench().load_partisan(tmp_path)
    assert [(r["response"], r["side"], r["month"]) for r in rows] == [
        ("a-x", "agree", "2026-03"), ("b-x", "disagree", "2026-03"), ("b-y", "agree", "2026-03")]
    assert rows[0]["statement"] == "Taxes on the rich should rise."
