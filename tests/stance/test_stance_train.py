"""`polibench stance train` on a tiny random BERT: learns, is reproducible, writes a usable checkpoint."""

import json

import pytest
import torch
from safetensors.torch import load_file
from stance_toy import FAST, toy_examples
from tiny_scorers import tiny_bert

from polibench.cli.main import main
from polibench.errors import PolibenchError
from polibench.scorers.stance.classifier import ClassifierScorer
from polibench.scorers.stance.train import METADATA, TrainSettings, read_metadata, train_classifier


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    """A bare tiny encoder (no classification head), like the MiniLM the default starts from."""
    return tiny_bert(tmp_path_factory.mktemp("base"), head=False, seed=1)


def weights(folder):
    return load_file(str(folder / "model.safetensors"))


def test_scaling_rule_reproduces_faulborn():
    settings = TrainSettings()
    assert (settings.learning_rate, settings.weight_decay, settings.batch_size) == (2e-5, 0.2, 4)
    assert settings.total_steps(1320) == 1750 and settings.warmup_steps(1320) == 500
    assert settings.total_steps(660) == 875
    assert TrainSettings(batch_size=16).total_steps(1320) == 438
    assert TrainSettings(steps=10).total_steps(5000) == 10
    with pytest.raises(PolibenchError, match="learning rate"):
        TrainSettings(learning_rate=0)


def test_trains_a_usable_four_label_checkpoint(base, tmp_path):
    out = train_classifier(str(base), toy_examples(), tmp_path / "model", FAST, show_progress=False)
    meta = read_metadata(out)
    assert meta["steps"] == 60 and meta["warmup_steps"] == 6 and meta["n_train"] == 20
    scorer = ClassifierScorer(model=str(out))
    _, model, id2label = scorer.load()
    assert sorted(id2label.values()) == ["agree", "disagree", "neutral", "unrelated"]
    results = scorer.score([e.statement for e in toy_examples()], [e.response for e in toy_examples()])
    accuracy = sum(r.label == e.label for r, e in zip(results, toy_examples())) / len(results)
    assert accuracy >= 0.9  # an untrained head is at chance (0.25)
    assert not list(tmp_path.glob(".model.tmp-*"))  # the temporary folder was renamed away


def test_same_seed_same_weights_other_seed_other_weights(base, tmp_path):
    a = weights(train_classifier(str(base), toy_examples(), tmp_path / "a", FAST, show_progress=False))
    b = weights(train_classifier(str(base), toy_examples(), tmp_path / "b", FAST, show_progress=False))
    c_settings = TrainSettings(**{**FAST.__dict__, "seed": 8})
    c = weights(train_classifier(str(base), toy_examples(), tmp_path / "c", c_settings, show_progress=False))
    assert all(torch.equal(a[k], b[k]) for k in a)
    assert any(not torch.equal(a[k], c[k]) for k in a)


def test_frozen_embeddings_stay_put(base, tmp_path):
    settings = TrainSettings(**{**FAST.__dict__, "freeze_embeddings": True, "steps": 5})
    out = weights(train_classifier(str(base), toy_examples(), tmp_path / "f", settings, show_progress=False))
    before = load_file(str(base / "model.safetensors"))
    key = next(k for k in out if k.endswith("word_embeddings.weight"))
    assert torch.equal(out[key], before[key.replace("bert.", "", 1)] if key.replace("bert.", "", 1) in before
                       else before[key])


def test_frozen_layers_stay_put_and_the_rest_trains(base, tmp_path):
    settings = TrainSettings(**{**FAST.__dict__, "freeze_layers": 1, "steps": 5})
    out = weights(train_classifier(str(base), toy_examples(), tmp_path / "l", settings, show_progress=False))
    before = {k.removeprefix("bert."): v for k, v in load_file(str(base / "model.safetensors")).items()}
    after = {k.removeprefix("bert."): v for k, v in out.items()}
    for name in ("embeddings.position_embeddings.weight", "encoder.layer.0.attention.self.query.weight"):
        assert torch.equal(after[name], before[name])
    assert not torch.equal(after["encoder.layer.1.attention.self.query.weight"],
                           before["encoder.layer.1.attention.self.query.weight"])
    with pytest.raises(PolibenchError, match="cannot freeze 5 layers"):
        train_classifier(str(base), toy_examples(), tmp_path / "x", TrainSettings(freeze_layers=5, steps=1),
                         show_progress=False)


def write_jsonl(path, examples):
    path.write_text("".join(json.dumps({"statement": e.statement, "response": e.response, "label": e.label}) + "\n"
                            for e in examples), encoding="utf-8")
    return path


def test_cli_train_with_eval(base, tmp_path, capsys):
    data = write_jsonl(tmp_path / "train.jsonl", toy_examples())
    out = tmp_path / "cli-model"
    code = main(["stance", "train", "--model", str(base), "--train", str(data), "--eval", str(data),
                 "--output", str(out), "--steps", "60", "--lr", "3e-3", "--batch-size", "8", "--warmup-ratio", "0.1",
                 "--seed", "7", "--no-progress"])
    assert code == 0
    captured = capsys.readouterr()
    assert "60 steps of 8" in captured.err and "macro" in captured.out
    assert (out / METADATA).is_file() and (out / "eval" / "eval.json").is_file()
    assert read_metadata(out)["settings"]["learning_rate"] == 3e-3


def test_cli_train_errors(base, tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"statement": "s", "response": "r", "label": "agree"}\n{"statement": "s", "label": "x"}\n')
    assert main(["stance", "train", "--model", str(base), "--train", str(bad), "--output", str(tmp_path / "o")]) == 2
    assert f"{bad}: line 2: field 'response': missing" in capsys.readouterr().err
    good = write_jsonl(tmp_path / "good.jsonl", toy_examples())
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("x")
    assert main(["stance", "train", "--model", str(base), "--train", str(good),
                 "--output", str(tmp_path / "full")]) == 2
    assert "not an empty folder" in capsys.readouterr().err
    assert main(["stance", "train", "--model", str(tmp_path / "nobase"), "--train", str(good), "--output",
                 str(tmp_path / "o2"), "--steps", "1"]) == 2
    assert "could not load base model" in capsys.readouterr().err
    assert not (tmp_path / "o2").exists()


TRAIN_IN_A_FRESH_PROCESS = """
import dataclasses, sys, torch
torch.set_num_threads(int(sys.argv[1]))
from safetensors.torch import load_file
from polibench.scoring.fingerprint import weights_digest
from polibench.scorers.stance.embedded import RECIPE_VERSION, minilm_path, recipe, training_examples
from polibench.scorers.stance.train import train_classifier
examples = training_examples()[::50]
for version in (RECIPE_VERSION, 1):  # the default recipe, then recipe 1 (float32) as the positive control
    settings = dataclasses.replace(recipe(version), steps=2, batch_size=8, max_length=64)
    out = train_classifier(str(minilm_path()), examples, f"{sys.argv[2]}/r{version}", settings, show_progress=False)
    print(version, weights_digest(load_file(str(out / "model.safetensors"))))
"""


def digests_trained_with(threads: int, out) -> dict[str, str]:
    """{recipe version: weights digest} of a tiny slice of both recipes, trained in a fresh process that torch
    gives ``threads`` threads."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", TRAIN_IN_A_FRESH_PROCESS, str(threads), str(out)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return dict(line.split() for line in done.stdout.strip().splitlines()[-2:])


@pytest.mark.slow
def test_the_default_recipe_trains_bit_identically_in_any_process_at_any_thread_count(tmp_path):
    """Issue 36 §1: on one machine the default recipe gives the same weights in two fresh processes given 1 and 2
    torch threads (it trains in float64 on a fixed number of threads). The positive control: recipe 1 (float32, the
    process's threads) gives other weights at 1 and 2 threads (CPU reductions split their sums by thread)."""
    from polibench.scorers.stance.embedded import RECIPE_VERSION

    assert RECIPE_VERSION != 1
    one, two = digests_trained_with(1, tmp_path / "t1"), digests_trained_with(2, tmp_path / "t2")
    assert one[str(RECIPE_VERSION)] == two[str(RECIPE_VERSION)]
    assert one["1"] != two["1"]
