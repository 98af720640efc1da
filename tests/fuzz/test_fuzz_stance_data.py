"""Fuzzing the labelled stance JSONL read by ``polibench stance eval|train``: any bytes and any JSON give
examples or one message naming the file, the line and the field, exit code 2, and no output folder."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from fuzz_helpers import FEW, FUZZ, assert_user_error, run_cli
from hypothesis import given
from hypothesis import strategies as st

from polibench.errors import PolibenchError
from polibench.scorers.stance.data import load_examples

GOOD = {"statement": "Taxes should be higher.", "response": "I agree.", "label": "agree"}
json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
                           | st.text(max_size=12),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner,
                                                                                       max_size=3), max_leaves=6)


def mutated_row(data) -> bytes:
    """A line of the file: the good row with a field removed, retyped or added, or raw bytes."""
    kind = data.draw(st.sampled_from(["drop", "retype", "label", "raw", "json", "deep"]))
    row = dict(GOOD)
    if kind == "drop":
        del row[data.draw(st.sampled_from(sorted(GOOD)))]
    elif kind == "retype":
        row[data.draw(st.sampled_from(sorted(GOOD)))] = data.draw(json_values)
    elif kind == "label":
        row["label"] = data.draw(st.text(max_size=10))
    elif kind == "raw":
        return data.draw(st.binary(max_size=60)).replace(b"\n", b" ")
    elif kind == "json":
        return json.dumps(data.draw(json_values)).encode()
    else:
        depth = data.draw(st.integers(1, 100000))
        return b"[" * depth + b"]" * depth
    return json.dumps(row, ensure_ascii=data.draw(st.booleans())).encode("utf-8")


@FUZZ
@given(data=st.data())
def test_a_mutated_line_gives_examples_or_names_file_and_line(data):
    lines = [json.dumps(GOOD).encode()] * data.draw(st.integers(0, 3))
    bad_at = len(lines) + 1
    lines.append(mutated_row(data))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "data.jsonl"
        path.write_bytes(b"\n".join(lines) + b"\n")
        try:
            examples = load_examples(path)
        except PolibenchError as exc:
            message = str(exc)
            assert message.startswith(f"{path}: line {bad_at}: ") or message == f"{path}: no examples", message
            return
    assert all(isinstance(e.statement, str) and e.label in ("agree", "disagree", "neutral", "unrelated")
               for e in examples)


@FEW
@given(data=st.data())
def test_stance_eval_on_bad_data_is_one_error_and_writes_nothing(data):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bad.jsonl"
        path.write_bytes(json.dumps(GOOD).encode() + b"\n" + mutated_row(data) + b"\n" + b"{oops\n")
        output = Path(folder) / "out"
        code, _, err = run_cli(["stance", "eval", "--scorer", "lexical", "--data", path, "--output", output,
                                "--no-progress"])
        assert_user_error(code, err, path)
        assert not output.exists()


@pytest.mark.parametrize("content, expected", [
    (b'{"statement": "caf\xe9", "response": "r", "label": "agree"}\n', ": line 1: expected UTF-8 text (byte 0xe9"),
    (b"[" * 200000 + b"\n", ": line 1: not valid JSON (nested too deeply)"),
])
def test_bytes_and_nesting_name_the_line(tmp_path, content, expected):
    path = tmp_path / "d.jsonl"
    path.write_bytes(content)
    code, _, err = run_cli(["stance", "eval", "--scorer", "lexical", "--data", path, "--output", tmp_path / "o"])
    assert_user_error(code, err, f"{path}{expected}")
