"""Every script in benchmarks/ runs at its ``--smoke`` size, each in its own process, so a benchmark that no
longer runs fails the build instead of rotting unseen. A smoke run checks that the script runs to the end and
prints its figures; the figures themselves (tiny sizes) mean nothing.

A new script is picked up by the glob below and must accept ``--smoke`` (``_*.py`` are helpers). Scripts that
need what CI has not (a GPU) are skipped with the reason (allowed in tests/conftest.py's ALLOWED_SKIPS);
scripts that read peers' published material find it beside the clone (../shared/external, as
tests/taskspec/test_prismia_tasks.py does).
"""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = sorted(p.name for p in (ROOT / "benchmarks").glob("*.py") if not p.name.startswith("_"))
EXTERNAL = next((p for p in (ROOT.parent / "shared" / "external", ROOT.parent.parent / "shared" / "external")
                 if p.is_dir()), None)


def _cuda() -> bool:
    import torch

    return torch.cuda.is_available()


# scripts whose main() another test already runs end to end at a tiny size: not run a second time here
COVERED_BY = {"bench_planted_leaning.py": "tests/pretrain/test_planted_leaning.py",  # a tiny model, 1 step
              "bench_planted_debias.py": "tests/debias/test_bench_planted_debias.py"}  # its --smoke, every method

# script -> extra arguments after --smoke (the {tmp} and {external} placeholders are filled in)
ARGS = {
    "bench_logprob.py": ["--prompts", "2"],
    "bench_stance_prismia.py": ["{external}/prismia2026", "--scorer", "lexical"],
    "bench_stance_restated.py": ["--scorer", "lexical"],
    "prismia2026_import.py": ["{external}/prismia2026", "--work", "{tmp}/work"],
    "prismia2026_tasks.py": ["{external}/prismia2026"],
    "rottger2024_import.py": ["{external}/rottger2024"],
    "rottger2024_tasks.py": ["{external}/rottger2024"],
    "issuebench2025_tasks.py": ["{external}/issuebench2025"],
    "refresh_entries.py": ["leaderboard/entries"],
    "bench_hf_cuda.py": ["--tokenizer", "{minilm}"],  # any saved tokenizer: the weights are random
}


@pytest.mark.slow
@pytest.mark.parametrize("script", [name for name in BENCHMARKS if name not in COVERED_BY])
def test_benchmark_runs_at_its_smoke_size(script, tmp_path):
    if script == "bench_hf_cuda.py" and not _cuda():
        pytest.skip("needs a CUDA GPU (the hf backend on device=cuda)")
    from polibench.stance.embedded import minilm_path

    args = [a.format(tmp=tmp_path, external=EXTERNAL, minilm=minilm_path() if "{minilm}" in a else "")
            for a in ARGS.get(script, [])]
    if any("{external}" in a for a in ARGS.get(script, [])) and EXTERNAL is None:
        pytest.fail("peers' published material (../shared/external) is not beside the clone")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
           "TMPDIR": str(tmp_path), "MPLBACKEND": "Agg"}
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / script), "--smoke", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{script} --smoke failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    assert done.stdout.strip(), f"{script} --smoke printed nothing"


def test_every_benchmark_accepts_smoke():
    """Cheap and not slow-marked: a script without a --smoke flag fails even where slow tests are deselected."""
    missing = [name for name in BENCHMARKS if "--smoke" not in (ROOT / "benchmarks" / name).read_text("utf-8")]
    assert not missing, f"benchmarks without --smoke: {missing}"
    assert importlib.util.find_spec("polibench") is not None
    for script, test in COVERED_BY.items():
        assert script in BENCHMARKS and f"benchmarks/{script}" in (ROOT / test).read_text("utf-8")
