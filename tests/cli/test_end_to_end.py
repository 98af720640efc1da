"""`polibench run` on the real embedded model through the CLI, in a subprocess, and its run folder."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from polibench.pipeline.plan import limited_items
from polibench.taskspec.loader import load_registry

pytest.importorskip("llama_cpp")


def polibench(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "polibench", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=600)


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("run") / "pct"
    # --no-cache: fresh generations, so that test_same_command_same_responses compares two real runs
    proc = polibench("run", "--tasks", "pct", "--limit", "3", "--samples", "2", "--scorer", "lexical",
                     "--output", str(out), "--no-progress", "--no-cache")
    assert proc.returncode == 0, proc.stderr
    assert "economic" in proc.stdout and "coverage" in proc.stdout
    return out


def test_files_are_complete_and_consistent(run_dir):
    assert sorted(p.name for p in run_dir.iterdir() if p.suffix in (".jsonl", ".json", ".md")) == \
        ["report.md", "results.json", "samples.jsonl"]
    assert not list(run_dir.glob("*.partial")) and not list(run_dir.glob("*.tmp"))
    lines = [json.loads(line) for line in (run_dir / "samples.jsonl").read_text().splitlines()]
    assert len(lines) == 6  # 3 statements x 2 samples
    picked = [item.id for item in limited_items(load_registry().instruments["pct"].items, 3, "pct")]
    assert {(s["item_id"], s["sample_index"]) for s in lines} == {(i, k) for i in picked for k in (0, 1)}
    assert all(s["response"] is not None and s["stance"]["scorer"] in ("lexical", "none") for s in lines)
    assert len({s["seed"] for s in lines}) == 6
    results = json.loads((run_dir / "results.json").read_text())
    block = results["results"]["pct"]
    kept = sum(s["stance"]["kept"] for s in lines)
    assert block["coverage"]["responses"] == 6 and block["coverage"]["responses_kept"] == kept
    assert set(block["pct"]["answers"]) == {f"pct-{i:02d}" for i in range(1, 63)}
    assert results["model"]["backend"] == "llamacpp" and len(results["model"]["gguf_sha256"]) == 64
    assert results["configs"]["pct"]["generation"]["samples"] == 10 and results["run"]["samples_per_prompt"] == 2
    assert results["polibench_version"] and results["date"] and "pct" in results["versions"]
    assert "# polibench report" in (run_dir / "report.md").read_text()


def test_score_recomputes_the_same_results(run_dir):
    proc = polibench("score", str(run_dir), "--check")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "matches" in proc.stdout


def test_same_command_same_responses(run_dir, tmp_path):
    proc = polibench("run", "--tasks", "pct", "--limit", "3", "--samples", "2", "--scorer", "lexical",
                     "--output", str(tmp_path / "again"), "--no-progress", "--no-cache")
    assert proc.returncode == 0, proc.stderr
    first = [json.loads(x)["response"] for x in (run_dir / "samples.jsonl").read_text().splitlines()]
    again = [json.loads(x)["response"] for x in (tmp_path / "again" / "samples.jsonl").read_text().splitlines()]
    assert first == again


def test_two_shards_merged_are_the_unsharded_run(run_dir, tmp_path):
    """The run's command split in two (`run --shard i/2`: each shard loads the model and generates its own share,
    in its own batches), then `merge`: the same samples.jsonl, byte for byte, and the same results.json but for
    the fields naming the run (date, command, the shards merged). The mock-backend version with three tasks and
    the bad-input cases: tests/cli/test_shard_merge.py."""
    shards = [tmp_path / f"shard{i}" for i in range(2)]
    for i, shard in enumerate(shards):
        proc = polibench("run", "--tasks", "pct", "--limit", "3", "--samples", "2", "--scorer", "lexical",
                         "--output", str(shard), "--no-progress", "--no-cache", "--shard", f"{i}/2")
        assert proc.returncode == 0, proc.stderr
    sizes = [len((s / "samples.jsonl").read_text().splitlines()) for s in shards]
    assert sum(sizes) == 6 and 0 < sizes[0] < 6  # a real split of the 6 requests
    proc = polibench("merge", *map(str, shards), "--output", str(tmp_path / "merged"), "--no-progress")
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "merged" / "samples.jsonl").read_bytes() == (run_dir / "samples.jsonl").read_bytes()
    merged, full = (json.loads((p / "results.json").read_text()) for p in (tmp_path / "merged", run_dir))
    for document in (merged, full):
        del document["date"], document["run"]["command"]
    assert merged["run"].pop("merged_from") and merged == full


@pytest.mark.parametrize("args, message", [
    (["run", "--tasks", "nope"], "unknown task 'nope'"),
    (["run", "--limit", "0"], "--limit must be at least 1"),
    (["run", "--backend", "nope"], "unknown backend 'nope'"),
    (["run", "--model-args", "oops"], "key=value"),
    (["run", "--model", "/no/such/model.gguf", "--backend", "llamacpp"], "existing .gguf"),
    (["score", "/no/such/run"], "no such file"),
])
def test_bad_input_one_line_exit_2(args, message, tmp_path):
    proc = polibench(*args, "--output", str(tmp_path / "o")) if args[0] == "run" else polibench(*args)
    assert proc.returncode == 2
    assert message in proc.stderr and "Traceback" not in proc.stderr
    assert not (tmp_path / "o" / "results.json").exists()


SHORT_TOKENS = 16  # new tokens per response in the test below (the tasks' own is 100)


def short_copy(folder: Path, file: str, task: str) -> str:
    """The built-in task file ``tasks/FILE`` (task ``task``), copied into ``folder`` as task ``<task>-short`` with
    ``max_new_tokens: SHORT_TOKENS``: the same prompts, forms, prefixes, scoring and metrics, generated shorter
    (faulborn30's 60 responses of 100 tokens were most of the test's minute, pct-stability's and wvs's 8 a third
    of the rest). Its name."""
    text = (Path(__file__).resolve().parents[2] / "tasks" / file).read_text(encoding="utf-8")
    assert f"\ntask: {task}\n" in text and "\n  max_new_tokens: 100" in text
    folder.mkdir(exist_ok=True)
    (folder / f"{task}_short.yaml").write_text(
        text.replace(f"\ntask: {task}\n", f"\ntask: {task}-short\n")
        .replace("\n  max_new_tokens: 100", f"\n  max_new_tokens: {SHORT_TOKENS}"), encoding="utf-8")
    return f"{task}-short"


@pytest.mark.slow
def test_faulborn30_stability_and_wvs_run_on_the_embedded_model(tmp_path):
    """The other built-in tasks end to end on the real model: 1 statement per instrument, 1 sample
    (faulborn30: 2 statements x 3 forms x 10 prefixes; pct-stability: 7 prompts; wvs: 1), as copies with shorter
    responses."""
    out = tmp_path / "multi"
    faulborn, stability, wvs = (short_copy(tmp_path / "tasks", file, task) for file, task in (
        ("faulborn30.yaml", "faulborn30"), ("pct_stability.yaml", "pct-stability"), ("wvs.yaml", "wvs")))
    proc = polibench("run", "--tasks", f"{faulborn},{stability},{wvs}", "--include-path", str(tmp_path / "tasks"),
                     "--limit", "1", "--samples", "1", "--scorer", "lexical", "--output", str(out), "--no-progress",
                     "--no-cache")
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in (out / "samples.jsonl").read_text().splitlines()]
    per_task = {t: [s for s in lines if s["task"] == t] for t in (faulborn, stability, wvs)}
    assert {t: len(v) for t, v in per_task.items()} == {faulborn: 60, stability: 7, wvs: 1}
    assert {s["form"] for s in per_task[faulborn]} == {"original", "reformulation", "opposite"}
    assert len({s["variant"] for s in per_task[faulborn]}) == 10
    assert all(s["usage"]["completion_tokens"] <= SHORT_TOKENS for s in lines)
    named = [s["prompt"] for s in per_task[faulborn] if s["variant"] == "name"]
    assert named and all("SmolLM2-135M-Instruct" in p and ".gguf" not in p for p in named)
    results = json.loads((out / "results.json").read_text())["results"]
    assert set(results[faulborn]["faulborn_bias"]["per_prefix"]) >= {"likert", "baseline", "name"}
    assert set(results[faulborn]["faulborn_bias"]["per_form"]) == {"original", "reformulation", "opposite"}
    per_variant = results[stability]["pct"]["per_variant"]
    assert len(per_variant) == 7
    for coords in per_variant.values():  # each prompt's coordinates carry their own item-bootstrap interval
        for axis in ("economic", "social"):
            if coords[axis] is None:  # no statement of the axis answered under this prompt: no coordinate
                assert coords["ci"][axis] is None
                continue
            low, high = coords["ci"][axis]
            assert low <= coords[axis] <= high
    assert "faulborn_bias" in results[wvs] and "pct" not in results[wvs]
    check = polibench("score", str(out), "--check")
    assert check.returncode == 0 and "matches" in check.stdout, check.stdout + check.stderr
    report = (out / "report.md").read_text()
    assert all(f"\n## {t}\n" in report for t in (faulborn, stability, wvs))
