"""Top-layer training on cached lower-layer states (polibench.scorers.stance.train_top) on a tiny random BERT: the
cached path computes what the model computes, only the top layers and head move, it learns, it is reproducible."""

import pytest
import torch
from safetensors.torch import load_file
from stance_toy import FAST, toy_examples
from tiny_scorers import tiny_bert

from polibench.errors import PolibenchError
from polibench.scorers.stance.classifier import ClassifierScorer, encode_pairs
from polibench.scorers.stance.train import TrainSettings, load_base, read_metadata
from polibench.scorers.stance.train_top import lower_states, top_logits, train_top_layers


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    return tiny_bert(tmp_path_factory.mktemp("base"), head=False, seed=1)


def test_cached_states_give_the_models_own_logits(base):
    """Padding differs (each batch is padded to its own longest example), the logits must not."""
    tokenizer, model = load_base(str(base), 3, attn_implementation="eager")
    model.eval()
    examples = toy_examples()
    states = lower_states(model, tokenizer, examples, [0, 1, 2], 256)
    batch = encode_pairs(tokenizer, [e.statement for e in examples], [e.response for e in examples], 256,
                         padding=True, return_tensors="pt")
    with torch.no_grad():
        expected = model(**batch).logits
        for frozen in (0, 1, 2):
            assert len(states[frozen]) == len(examples)
            assert torch.allclose(top_logits(model, states[frozen], frozen), expected, atol=1e-5)
            one_by_one = torch.cat([top_logits(model, [s], frozen) for s in states[frozen][:3]])
            assert torch.allclose(one_by_one, expected[:3], atol=1e-5)


def test_trains_only_the_top_layers(base, tmp_path):
    settings = TrainSettings(**{**FAST.__dict__, "steps": 5, "freeze_layers": 1})
    out = train_top_layers(str(base), toy_examples(), tmp_path / "model", settings)
    before = {k.removeprefix("bert."): v for k, v in load_file(str(base / "model.safetensors")).items()}
    after = {k.removeprefix("bert."): v for k, v in load_file(str(out / "model.safetensors")).items()}
    for name in ("embeddings.word_embeddings.weight", "encoder.layer.0.attention.self.query.weight"):
        assert torch.equal(after[name], before[name])
    assert not torch.equal(after["encoder.layer.1.attention.self.query.weight"],
                           before["encoder.layer.1.attention.self.query.weight"])
    meta = read_metadata(out)
    assert meta["cached_layers"] == 1 and meta["steps"] == 5 and meta["n_train"] == 20
    assert not list(tmp_path.glob(".model.tmp-*"))


def test_learns_a_usable_checkpoint(base, tmp_path):
    settings = TrainSettings(**{**FAST.__dict__, "steps": 150})  # the embeddings stay random: more steps
    out = train_top_layers(str(base), toy_examples(), tmp_path / "model", settings)
    scorer = ClassifierScorer(model=str(out))  # an ordinary checkpoint, loaded the ordinary way
    results = scorer.score([e.statement for e in toy_examples()], [e.response for e in toy_examples()])
    accuracy = sum(r.label == e.label for r, e in zip(results, toy_examples())) / len(results)
    assert accuracy >= 0.9  # an untrained head is at chance (0.25)


def test_same_seed_same_weights(base, tmp_path):
    settings = TrainSettings(**{**FAST.__dict__, "steps": 10, "freeze_layers": 1})
    a = load_file(str(train_top_layers(str(base), toy_examples(), tmp_path / "a", settings) / "model.safetensors"))
    b = load_file(str(train_top_layers(str(base), toy_examples(), tmp_path / "b", settings) / "model.safetensors"))
    assert all(torch.equal(a[k], b[k]) for k in a)
    with pytest.raises(PolibenchError, match="cannot freeze 2 layers of 2"):
        train_top_layers(str(base), toy_examples(), tmp_path / "c", TrainSettings(freeze_layers=2, steps=1))
