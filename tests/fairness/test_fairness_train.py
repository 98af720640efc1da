"""Training settings, run naming and resuming (the fine-tuning itself runs in test_fairness_end_to_end)."""

import pytest

from polibench.errors import PolibenchError
from polibench.fairness.spec import load_task
from polibench.fairness.train import TrainSettings, model_name, seed_folder, softmax, train_seeds


def test_settings_come_from_the_task_and_flags_override_them():
    task = load_task("hate-identity")
    settings = TrainSettings.from_task(task, learning_rate=1e-5, epochs=None)
    assert settings.learning_rate == 1e-5 and settings.epochs == task.train.epochs == 3
    assert (settings.batch_size, settings.max_length, settings.weight_decay) == (8, 128, 0.0)  # HF defaults
    with pytest.raises(PolibenchError, match="precision"):
        TrainSettings(precision="fp8")
    with pytest.raises(PolibenchError, match="warm-up"):
        TrainSettings(warmup_ratio=1.5)


def test_model_names_are_folder_safe(tmp_path):
    (tmp_path / "roberta-news-left" / "model").mkdir(parents=True)
    assert model_name("roberta-base") == "roberta-base"
    assert model_name("org/model name") == "org--model-name"
    assert model_name(str(tmp_path / "roberta-news-left" / "model")) == "roberta-news-left"
    assert seed_folder(tmp_path, "m", "t", 3) == tmp_path / "m" / "t" / "seed-3"


def test_softmax_rows_sum_to_one():
    probs = softmax([[0.0, 0.0], [2.0, 0.0], [1000.0, -1000.0]])
    assert probs[0] == pytest.approx([0.5, 0.5]) and probs[1, 0] == pytest.approx(0.880797, abs=1e-6)
    assert probs[2] == pytest.approx([1.0, 0.0])


def test_finished_seeds_are_skipped(tmp_path):
    task = load_task("hate-identity")
    done = seed_folder(tmp_path, "m", task.name, 1)
    done.mkdir(parents=True)
    (done / "run.json").write_text("{}")
    (done / "predictions.jsonl").write_text("{}\n")
    messages = []
    folders = train_seeds("no/such-model", task, data=None, seeds=[1], output=tmp_path, settings=TrainSettings(),
                          name="m", log=messages.append)
    assert folders == [done] and "already complete" in messages[0]
