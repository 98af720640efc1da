"""The embedded default stance scorer: trained once per cache (the expensive test), reused by `polibench run`.

The real MiniLM is trained once for the whole test session into ``$POLIBENCH_CACHE`` when that is set (so
CI can keep it between runs) or else a session temporary folder; every test here reuses it (fixture
``trained_default`` in tests/stance/conftest.py).
"""

import json
import threading
import time

import pytest

import polibench.scorers.stance.embedded as default
from polibench.cli.main import main
from polibench.scorers.stance.data import load_examples
from polibench.scorers.stance.evaluate import evaluate_scorer, row_at
from polibench.scorers.stance.train import METADATA, read_metadata


@pytest.mark.slow
def test_default_is_trained_on_the_gold_train_split_and_reused(trained_default, monkeypatch):
    path, _ = trained_default
    meta = read_metadata(path)
    assert meta["key"] == default.default_key()
    assert meta["n_train"] == len(load_examples("gold:train"))
    assert path == default.default_checkpoint_dir()

    def no_training(*args, **kwargs):
        raise AssertionError("the cached default was trained again")

    monkeypatch.setattr("polibench.scorers.stance.train.train_classifier", no_training)
    assert default.ensure_default_checkpoint() == path


@pytest.mark.slow
def test_default_meets_the_target_on_the_gold_test_split(trained_default):
    scorer = default.EmbeddedStanceScorer()
    report, _ = evaluate_scorer(scorer, load_examples("gold:test"), show_progress=False)
    at_09 = row_at(report, 0.9)
    assert at_09["retained_share"] >= 0.5
    assert at_09["macro_f1"] >= 0.85
    assert row_at(report, 0.0)["retained_share"] == 1.0  # a classifier never abstains on 4 labels


@pytest.mark.slow
def test_polibench_run_on_the_embedded_model_uses_it(trained_default, tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["run", "--tasks", "pct", "--limit", "1", "--samples", "1", "--output", str(out),
                 "--no-progress"]) == 0
    document = json.loads((out / "results.json").read_text())
    assert document["scoring"]["pct"]["scorer"] == "embedded"
    sample = json.loads((out / "samples.jsonl").read_text().splitlines()[0])
    assert sample["stance"]["scorer"] in ("embedded", "none")
    assert "training the offline stance scorer" not in capsys.readouterr().err  # reused, not retrained


def test_cache_key_follows_data_and_recipe(monkeypatch, tmp_path):
    key = default.default_key()
    settings = default.recipe()
    monkeypatch.setattr(default, "recipe", lambda: type(settings)(**{**settings.__dict__, "seed": settings.seed + 1}))
    assert default.default_key() != key
    monkeypatch.undo()
    changed = tmp_path / "train.jsonl"
    rows = load_examples("gold:train")[:3]
    changed.write_text("".join(json.dumps({"statement": e.statement, "response": e.response, "label": e.label}) + "\n"
                               for e in rows))
    monkeypatch.setattr(default, "gold_path", lambda split: changed)
    assert default.default_key() != key


def test_concurrent_first_use_trains_once(monkeypatch, tmp_path, capfd):
    monkeypatch.setenv("POLIBENCH_CACHE", str(tmp_path))
    calls = []

    def fake_train(base, train, output, settings, show_progress=True, extra_metadata=None, callbacks=()):
        calls.append(output)
        time.sleep(0.5)
        output.mkdir(parents=True)
        (output / METADATA).write_text("{}")
        return output

    monkeypatch.setattr(default, "train_classifier", fake_train)
    found = []
    threads = [threading.Thread(target=lambda: found.append(default.ensure_default_checkpoint(False)))
               for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(calls) == 1 and len(set(found)) == 1 and len(found) == 3
    assert str(tmp_path) in str(found[0])
    assert capfd.readouterr().err.count("training the offline stance scorer once") == 1


@pytest.mark.slow
def test_the_suite_scorer_reads_the_shipped_demo_entry_as_the_reference_did(trained_default):
    """Issue 36 §2: the scorer this test session trained (on whatever machine runs it) re-reads the shipped demo
    entry's responses within issue 36's goal: >= 99% of the (label, kept) pairs agree with the shipped reading and
    no estimate moves by more than a tenth of its interval's width; and it reads the canary answers as the reference
    scorer that read the entry did."""
    from pathlib import Path

    from polibench.leaderboard.reread import reread_entry
    from polibench.scoring.fingerprint import REFERENCE

    entry = Path(__file__).resolve().parents[2] / "leaderboard" / "entries" / \
        "SmolLM2-135M-Instruct-Q4_1-GGUF-embedded__pct.json"
    made = {}

    def scorer_for(task, labels):
        return made.setdefault(tuple(labels), default.EmbeddedStanceScorer(labels, show_progress=False))

    found = reread_entry(entry, scorer_for)
    assert found.read >= 600
    assert found.agreement >= 0.99, f"{found.pairs_changed} of {found.read} (label, kept) pairs changed"
    assert (found.largest_move or 0.0) <= 0.10, [m.describe() for m in found.movements]
    local = next(iter(made.values())).fingerprint()
    assert local["canary"] == REFERENCE["embedded"]["canary"]
