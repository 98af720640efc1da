"""The planted-leaning benchmark (benchmarks/bench_planted_leaning.py): its corpora come from the argument
material and leave the probe statements out; its whole path (corpora -> pretrain x2 -> run x3 -> shift) runs on
a tiny model built here."""

import json
from pathlib import Path

import pytest
import yaml
from scripts import load_script
from tiny_models import tiny_causal_lm

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_planted_leaning.py"


def bench():
    return load_script(SCRIPT)


def test_corpora_hold_each_sides_arguments_and_no_probe_statement(tmp_path):
    b = bench()
    counts = b.build_corpora(tmp_path)
    content, items = b.statements()
    corpus_ids, probe_ids = b.split_ids(items)
    assert not set(corpus_ids) & set(probe_ids) and len(probe_ids) == counts["probe_statements"] == 31
    left = set((tmp_path / "left.txt").read_text().splitlines())
    right = set((tmp_path / "right.txt").read_text().splitlines())
    assert not left & right
    for sid in corpus_ids:  # an argument FOR a statement sits on the side agreeing with it reflects
        side = items[sid]["agree_side"]
        assert content[sid]["P"] in (left if side == "left" else right), sid
        assert content[sid]["C"] in (right if side == "left" else left), sid
    for sid in probe_ids:  # nothing written for a probe statement is in either corpus
        for key in ("P", "P2", "C", "C2"):
            assert content[sid][key] not in left | right, (sid, key)
    b.probe_tasks(tmp_path / "tasks", samples=2)
    instrument = yaml.safe_load((tmp_path / "tasks" / "pct_heldout.yaml").read_text())
    assert sorted(i["id"] for i in instrument["items"]) == sorted(probe_ids)


@pytest.mark.slow
def test_the_whole_path_on_a_tiny_model(tmp_path, capsys):
    model = tiny_causal_lm(tmp_path / "tiny")
    summary = bench().main(["--work", str(tmp_path / "work"), "--model", str(model), "--max-steps", "1",
                            "--batch-size", "4", "--max-length", "16", "--samples", "1", "--limit", "3",
                            "--max-new-tokens", "8", "--scorer", "lexical", "--resamples", "200", "--in-process"])
    assert [c["items"] for c in summary["comparisons"]] == [3]
    assert json.loads((tmp_path / "work" / "pretrain-left" / "pretrain.json").read_text())["steps"] == 1
    assert len(json.loads((tmp_path / "work" / "shift-from-base" / "shift.json").read_text())["comparisons"]) == 2
    assert "minutes total" in capsys.readouterr().out
