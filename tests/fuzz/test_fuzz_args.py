"""Fuzzing ``--model-args`` / ``--scorer-args`` (``k=v,k=v``): a dict of typed values or one message naming
the flag and the bad pair; exit code 2 from the CLI."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from fuzz_helpers import FEW, FUZZ, assert_user_error, run_cli
from hypothesis import given
from hypothesis import strategies as st

from polibench.cli.args import parse_kv
from polibench.errors import PolibenchError

keys = st.from_regex(r"[a-z_][a-z0-9_]{0,10}", fullmatch=True)
values = st.text(alphabet=st.characters(blacklist_characters=",", blacklist_categories=("Cs",)), max_size=12)


@FUZZ
@given(text=st.text(max_size=40))
def test_any_text_gives_a_dict_or_one_error(text):
    try:
        parsed = parse_kv(text, "--model-args")
    except PolibenchError as exc:
        assert str(exc).startswith("--model-args: expected ")
        return
    assert all(isinstance(k, str) and k.isidentifier() for k in parsed)
    assert len(parsed) == (text.count(",") + 1 if text else 0)


@FUZZ
@given(pairs=st.dictionaries(keys, values, min_size=1, max_size=5))
def test_pairs_round_trip_with_their_types(pairs):
    parsed = parse_kv(",".join(f"{k}={v}" for k, v in pairs.items()), "--scorer-args")
    assert list(parsed) == list(pairs)
    for key, raw in pairs.items():
        value = parsed[key]
        if isinstance(value, str):
            assert value == raw.strip()
        elif isinstance(value, bool) or value is None:
            assert raw.strip().lower() in ("true", "false", "none", "null")
        else:
            assert value == type(value)(raw.strip()) or value != value  # nan


@pytest.mark.parametrize("text, expected", [
    ("a=1,,b=2", "key=value pairs, got ''"), ("model", "key=value pairs, got 'model'"), ("=x", "got '=x'"),
    ("a=1,a=2", "each key once, got 'a' twice"), ("my-key=1", "letters, digits and '_', got 'my-key'"),
])
def test_bad_pairs_are_named(text, expected):
    with pytest.raises(PolibenchError, match="^--model-args: expected") as err:
        parse_kv(text, "--model-args")
    assert expected in str(err.value)


@FEW
@given(text=st.text(min_size=1, max_size=30))
def test_the_cli_reports_bad_scorer_args_or_the_next_problem(text):
    with tempfile.TemporaryDirectory() as folder:
        missing = Path(folder) / "missing.jsonl"
        code, _, err = run_cli(["stance", "eval", "--scorer", "lexical", "--scorer-args", text, "--data", missing,
                                "--output", Path(folder) / "o"])
        assert_user_error(code, err)
        assert "--scorer-args" in err or str(missing) in err
        assert not (Path(folder) / "o").exists()


def test_bad_scorer_labels_are_one_error(tmp_path):
    code, _, err = run_cli(["stance", "eval", "--scorer", "lexical", "--labels", "agree,maybe", "--data", "gold:test",
                            "--limit", "1", "--output", tmp_path / "o"])
    assert_user_error(code, err, "maybe")
    assert not (tmp_path / "o").exists()


@FEW
@given(text=st.text(alphabet=", \t", max_size=6))
def test_a_tasks_flag_without_task_names_is_one_error(text):
    with tempfile.TemporaryDirectory() as folder:
        code, _, err = run_cli(["run", "--backend", "mock", "--model", "m", "--tasks", text, "--scorer", "lexical",
                                "--no-progress", "--output", Path(folder) / "o"])
        assert_user_error(code, err, "--tasks: expected one or more task names")
        assert not (Path(folder) / "o").exists()


@FUZZ
@given(text=st.one_of(st.floats(allow_nan=True, allow_infinity=True).map(str), st.text(max_size=8)))
def test_a_threshold_is_a_number_from_0_to_1_or_an_argparse_error(text):
    import argparse

    from polibench.cli.args import probability

    try:
        value = probability(text)
    except argparse.ArgumentTypeError as exc:
        assert f"expected a number from 0 to 1, got {text!r}" == str(exc)
        return
    assert 0.0 <= value <= 1.0 and value == float(text)


@pytest.mark.parametrize("argv", [
    ["run", "--backend", "mock", "--model", "m", "--scorer", "lexical", "--threshold", "2"],
    ["import", "--threshold", "-0.5"],
    ["stance", "eval", "--scorer", "lexical", "--data", "gold:test", "--threshold", "nan"],
])
def test_an_out_of_range_threshold_stops_before_anything_runs(argv, tmp_path, capsys):
    from polibench.cli.main import main

    with pytest.raises(SystemExit) as stopped:
        main([*argv, "--output", str(tmp_path / "o")])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "argument --threshold: expected a number from 0 to 1" in err and "Traceback" not in err
    assert not (tmp_path / "o").exists()


flag_value = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=12).filter(
    lambda v: not v.startswith("-"))


@FUZZ
@given(picks=st.lists(st.tuples(st.sampled_from(["--model_args", "--output_path", "--batch_size", "--include_path"]),
                                flag_value, st.integers(1, 64), st.booleans()), min_size=1, max_size=5))
def test_lm_eval_spellings_parse_like_polibenchs_whatever_the_values(picks):
    """Any mix of lm-eval's spellings, with `=` or a separate value, parses to what polibench's give."""
    from polibench.cli.flags import LM_EVAL_SPELLINGS
    from polibench.cli.main import build_parser

    theirs, ours = ["run"], ["run"]
    for flag, text, number, joined in picks:
        value = str(number) if flag == "--batch_size" else text
        for argv, name in ((theirs, flag), (ours, LM_EVAL_SPELLINGS[flag])):
            argv.extend([f"{name}={value}"] if joined else [name, value])
    assert vars(build_parser().parse_args(theirs)) == vars(build_parser().parse_args(ours))
