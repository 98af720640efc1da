"""lm-evaluation-harness's flag spellings reach the polibench flag that means the same (docs/running.md, "Coming
from lm-evaluation-harness"); an lm-eval backend name given to --model gets one line naming polibench's spelling."""

import json

import pytest

from polibench.cli.flags import LM_EVAL_SPELLINGS
from polibench.cli.main import build_parser
from tests.fuzz.fuzz_helpers import assert_user_error, run_cli

# (lm-eval's argv, polibench's argv): the same request.
SAME = [
    (["run", "--model_args", "dtype=float32,device=cpu"], ["run", "--model-args", "dtype=float32,device=cpu"]),
    (["run", "--model_args=pretrained=x"], ["run", "--model-args=pretrained=x"]),
    (["run", "--output_path", "runs/x"], ["run", "--output", "runs/x"]),
    (["run", "--batch_size", "4"], ["run", "--batch-size", "4"]),
    (["run", "--batch_size=auto"], ["run", "--batch-size=auto"]),
    (["run", "--include_path", "a", "--include_path", "b"], ["run", "--include-path", "a", "--include-path", "b"]),
    (["list", "--include_path", "mine"], ["list", "--include-path", "mine"]),
    (["import", "f.jsonl", "--tasks", "pct", "--output_path", "o", "--include_path", "i"],
     ["import", "f.jsonl", "--tasks", "pct", "--output", "o", "--include-path", "i"]),
]


@pytest.mark.parametrize("theirs, ours", SAME, ids=[" ".join(t) for t, _ in SAME])
def test_lm_eval_spelling_parses_like_polibench_and_says_nothing(theirs, ours, capsys):
    from_ours = vars(build_parser().parse_args(ours))
    from_theirs = vars(build_parser().parse_args(theirs))
    assert from_theirs == from_ours
    assert capsys.readouterr().err == ""


def test_every_mapped_spelling_is_tested_and_listed_in_run_help():
    tested = {arg.split("=")[0] for theirs, _ in SAME for arg in theirs}
    assert set(LM_EVAL_SPELLINGS) <= tested
    run_help = " ".join(build_parser()._subparsers._group_actions[0].choices["run"].format_help().split())
    for theirs, ours in LM_EVAL_SPELLINGS.items():
        assert f"{theirs} for {ours}" in run_help
    assert "--log_samples" in run_help and "always writes" in run_help


def test_a_misspelt_flag_is_still_refused(capsys):
    with pytest.raises(SystemExit) as stopped:
        build_parser().parse_args(["run", "--model_arg", "x=1"])
    assert stopped.value.code == 2 and "--model_arg" in capsys.readouterr().err


def test_log_samples_is_accepted_and_samples_are_written_as_always(tmp_path):
    out = tmp_path / "run"
    code, stdout, err = run_cli(["run", "--backend", "mock", "--model", "m", "--scorer", "lexical", "--limit", "2",
                                 "--samples", "1", "--no-progress", "--no-cache", "--log_samples",
                                 "--output_path", out, "--batch_size", "2"])
    assert code == 0, err
    rows = [json.loads(line) for line in (out / "samples.jsonl").read_text().splitlines()]
    assert len(rows) == 2 * 1 and (out / "results.json").exists()
    assert "wrote " + str(out) in stdout


@pytest.mark.parametrize("argv, expected", [
    (["--model", "hf"], "use --backend hf --model NAME"),
    (["--model", "hf", "--model_args", "pretrained=EleutherAI/pythia-160m,device=cpu"],
     "use --backend hf --model EleutherAI/pythia-160m"),
    (["--model", "vllm", "--model_args", "tensor_parallel_size=2,pretrained=org/m"],
     "use --backend vllm --model org/m"),
    (["--model", "local-completions"], "use --backend openai --model NAME"),
    (["--model", "gguf"], "use --backend llamacpp --model NAME"),
])
def test_an_lm_eval_model_type_given_to_model_names_polibenchs_spelling(argv, expected, tmp_path):
    code, _, err = run_cli(["run", *argv, "--tasks", "pct", "--output", tmp_path / "o"])
    assert_user_error(code, err, expected, "names a backend, not a model")
    assert len(err.strip().splitlines()) == 1
    assert not (tmp_path / "o").exists()


def test_a_local_folder_named_like_a_backend_is_a_model(tmp_path, monkeypatch):
    """`--model hf` is a backend name only when no such file or folder exists."""
    from polibench.cli.run import check_model_is_not_a_backend

    monkeypatch.chdir(tmp_path)
    (tmp_path / "hf").mkdir()
    check_model_is_not_a_backend("hf", None)  # no error
    check_model_is_not_a_backend("HuggingFaceTB/SmolLM2-135M-Instruct", None)


def test_a_served_model_may_be_named_like_a_backend():
    """On an OpenAI-compatible server or through lm-eval, --model is whatever name the server or lm-eval takes."""
    args = ["run", "--model", "vllm", "--scorer", "lexical", "--tasks", "nosuchtask"]
    for extra in (["--backend", "openai"], ["--base-url", "http://127.0.0.1:9/v1"], ["--backend", "lm-eval"]):
        code, _, err = run_cli([*args, *extra])
        assert_user_error(code, err, "nosuchtask")  # the next problem, not the backend-name line
        assert "names a backend" not in err
