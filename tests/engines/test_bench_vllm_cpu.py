"""benchmarks/bench_vllm_cpu.py at its ``--smoke`` size: the script itself with hf and llamacpp, and its vLLM
measurement on the session's engine (the script would start one more engine: minutes, and about 3 GB)."""

from __future__ import annotations

import importlib.util
import sys

from engine_kit import ROOT, needs_vllm

needs_vllm()


def load_bench():
    spec = importlib.util.spec_from_file_location("bench_vllm_cpu", ROOT / "benchmarks" / "bench_vllm_cpu.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def rows_of(output: str) -> dict[str, list[str]]:
    return {line.split()[0]: line.split() for line in output.splitlines()
            if line.split() and line.split()[0] in ("vllm", "hf", "llamacpp")}


def test_bench_vllm_cpu_runs_at_its_smoke_size(engine, monkeypatch, capsys):
    bench = load_bench()
    monkeypatch.setattr(sys, "argv", ["bench_vllm_cpu.py", "--smoke", "--backends", "hf,llamacpp"])
    bench.main()
    output = capsys.readouterr().out
    rows = rows_of(output)
    assert set(rows) == {"hf", "llamacpp"}, output
    monkeypatch.setattr(engine, "close", lambda: None)  # measure() closes its backend: keep the session's
    generate = engine.llm.generate
    try:
        samples, settings = bench.pct_requests(2, 1, 8)
        row = bench.measure("vllm", lambda watch: bench.watch_vllm(engine, watch), samples, settings)
    finally:
        engine.llm.generate = generate
    print(bench.line(row))
    rows.update(rows_of(capsys.readouterr().out))
    for name, row in rows.items():  # 2 responses of at most 8 new tokens; overhead a share
        assert 0 < int(row[3]) <= 16 and 0 <= float(row[5].rstrip("%")) <= 100, (name, row)
    assert float(rows["vllm"][5].rstrip("%")) < 100  # the engine's own calls were timed
