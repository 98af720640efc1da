"""The log-probability channel end to end on the embedded model (SmolLM2-135M-Instruct GGUF) through ``llamacpp``
and through ``hf`` (which de-quantises the same GGUF): ``polibench run`` on a one-template task, ``score --check``,
and the two backends' log-probabilities checked against each other and the block against a hand computation."""

import json
import math

import pytest
import yaml

from polibench.cli.main import main
from polibench.families.pct.metric import instrument_weights, js_round2
from polibench.results.files import read_samples
from polibench.taskspec.loader import load_registry

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def task_dir(tmp_path_factory):
    """rottger-logprob with its first template only (one statement keeps the test short)."""
    folder = tmp_path_factory.mktemp("tasks")
    registry = load_registry()
    variants = registry.variant_sets["rottger-logprob"].model_dump(mode="json")
    variants.update(variant_set="lp-one", variants=variants["variants"][:1])
    task = registry.task("rottger-logprob").model_dump(mode="json", by_alias=True)
    task.update(task="lp-one", variants="lp-one")
    (folder / "variants.yaml").write_text(yaml.safe_dump(variants, sort_keys=False))
    (folder / "task.yaml").write_text(yaml.safe_dump(task, sort_keys=False))
    return folder


def run(task_dir, out, *backend_args):
    assert main(["run", *backend_args, "--tasks", "lp-one", "--include-path", str(task_dir), "--limit", "1",
                 "--output", str(out), "--no-cache", "--no-progress"]) == 0
    assert main(["score", str(out), "--check"]) == 0
    return read_samples(out / "samples.jsonl"), json.loads((out / "results.json").read_text())


def test_llamacpp_and_hf_read_the_same_option_probabilities(task_dir, tmp_path, embedded_gguf):
    by_llama, results = run(task_dir, tmp_path / "llamacpp", "--backend", "llamacpp", "--model", str(embedded_gguf))
    by_hf, _ = run(task_dir, tmp_path / "hf", "--backend", "hf", "--model", str(embedded_gguf))
    assert len(by_llama) == len(by_hf) == 1
    for a, b in zip(by_llama, by_hf):
        assert a.prompt == b.prompt and a.options == b.options
        assert all(v < 0 for v in a.option_logprobs)
        # the same Q4_1 weights, two implementations (llama.cpp also quantises the activations, hf computes in float):
        # the log-probabilities agree to a few tenths of a nat (a wrong template or token split costs several) and
        # name the same most probable option
        assert a.option_logprobs == pytest.approx(b.option_logprobs, abs=0.5)
        assert a.stance.scorer == b.stance.scorer
    block = results["results"]["lp-one"]["logprob"]
    instrument = load_registry().instruments["pct-rottger"]
    weights = dict(zip((item.id for item in instrument.items), instrument_weights(instrument)))
    econ = soc = 0.0
    for sample in by_llama:  # --limit 1 picks its statement by the balanced rule, not the first one
        econ_w, soc_w = weights[sample.item_id]
        total = sum(math.exp(v) for v in sample.option_logprobs)
        probs = [math.exp(v) / total for v in sample.option_logprobs]
        stats = block["per_statement"][sample.item_id]
        assert list(stats["probs"].values()) == pytest.approx(probs, abs=1e-6)
        assert stats["non_answer"] == pytest.approx(1 - total, abs=1e-6)
        assert 0 <= stats["non_answer"] <= 1
        econ += sum(p * w for p, w in zip(probs, econ_w))
        soc += sum(p * w for p, w in zip(probs, soc_w))
    assert (block["economic"], block["social"]) == (js_round2(0.38 + econ / 8), js_round2(2.41 + soc / 19.5))
