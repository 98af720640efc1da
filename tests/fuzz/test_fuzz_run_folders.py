"""Fuzzing run folders given to ``score``, ``report``, ``submit`` and ``compare`` (mutated or truncated
results.json and samples.jsonl) and leaderboard entries given to ``leaderboard verify`` / ``build``: one
message naming the file, exit code 2 (1 where a check is asked for and fails), no traceback, nothing
written."""

from __future__ import annotations

import gzip
import json
import shutil
import tempfile
from pathlib import Path

import pytest
from fuzz_helpers import FEW, assert_user_error, run_cli, snapshot
from hypothesis import given
from hypothesis import strategies as st
from leaderboard_helpers import make_run

json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                                       max_size=3), max_leaves=5)


@pytest.fixture(scope="module")
def good(tmp_path_factory):
    """One finished run, a second run to compare with, and an entries folder holding the first."""
    base = tmp_path_factory.mktemp("fuzz-runs")
    run = make_run(base / "run-a")
    make_run(base / "run-b", model="org/other-model", shift=1)
    code, _, err = run_cli(["submit", run, "--entries", base / "entries", "--allow-partial"])
    assert code == 0, err
    return base


def mutate_json_document(data, doc):
    """``doc`` with one value somewhere inside replaced, or one key removed."""
    target, key = doc, None
    for _ in range(data.draw(st.integers(1, 4))):
        keys = (list(target) if isinstance(target, dict)
                else list(range(len(target))) if isinstance(target, list) else [])
        if not keys:
            break
        key = data.draw(st.sampled_from(keys))
        if not isinstance(target[key], (dict, list)) or data.draw(st.booleans()):
            break
        target = target[key]
    if key is None or not isinstance(target, (dict, list)) or not target:
        return data.draw(json_values)
    if isinstance(target, dict) and data.draw(st.booleans()):
        del target[key]
    else:
        target[key] = data.draw(json_values)
    return doc


def mutate_bytes(data, content: bytes) -> bytes:
    kind = data.draw(st.sampled_from(["truncate", "garbage", "flip"]))
    if kind == "truncate":
        return content[:data.draw(st.integers(0, max(len(content) - 1, 0)))]
    if kind == "garbage":
        return data.draw(st.binary(max_size=80))
    at = data.draw(st.integers(0, max(len(content) - 1, 0)))
    return content[:at] + data.draw(st.binary(min_size=1, max_size=4)) + content[at + 1:]


def mutate_file(data, path: Path) -> None:
    content = path.read_bytes()
    if path.suffix == ".gz":
        content = gzip.decompress(content)
    if data.draw(st.booleans()):
        content = mutate_bytes(data, content)
    elif path.name.endswith(".jsonl") or path.name.endswith(".jsonl.gz"):
        lines = content.decode().splitlines()
        at = data.draw(st.integers(0, len(lines) - 1))
        lines[at] = json.dumps(mutate_json_document(data, json.loads(lines[at])))
        content = ("\n".join(lines) + "\n").encode()
    else:
        content = json.dumps(mutate_json_document(data, json.loads(content))).encode()
    path.write_bytes(gzip.compress(content) if path.suffix == ".gz" else content)


RUN_COMMANDS = {
    "score": lambda run, other, out: ["score", run],
    "score --check": lambda run, other, out: ["score", run, "--check"],
    "report": lambda run, other, out: ["report", run],
    "submit": lambda run, other, out: ["submit", run, "--entries", out / "entries", "--allow-partial"],
    "compare": lambda run, other, out: ["compare", run, other, "--json", out / "compare.json"],
}


@FEW
@given(data=st.data(), command=st.sampled_from(sorted(RUN_COMMANDS)),
       file=st.sampled_from(["results.json", "samples.jsonl"]))
def test_a_mutated_run_folder_is_one_error_and_nothing_is_written(good, data, command, file):
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        run = shutil.copytree(good / "run-a", tmp / "run")
        mutate_file(data, run / file)
        before, out = snapshot(run), tmp / "out"
        out.mkdir()
        code, _, err = run_cli(RUN_COMMANDS[command](run, good / "run-b", out))
        if code == 0:
            return  # the mutation kept the file valid (e.g. a free-text field changed)
        assert_user_error(code, err, codes=(1, 2) if command == "score --check" else (2,))
        assert snapshot(run) == before and snapshot(out) == {}


@FEW
@given(data=st.data(), action=st.sampled_from(["verify", "build"]),
       suffix=st.sampled_from([".json", ".results.json.gz", ".samples.jsonl.gz"]))
def test_a_mutated_leaderboard_entry_is_one_error(good, data, action, suffix):
    with tempfile.TemporaryDirectory() as tmp:
        entries = shutil.copytree(good / "entries", Path(tmp) / "entries")
        path = next(entries.glob(f"*{suffix}"))
        mutate_file(data, path)
        site = Path(tmp) / "site"
        # an empty fairness folder: without --fairness both commands would also re-check the repository's shipped
        # fairness submission, a second per example and the same every time (that check has its own tests in
        # tests/leaderboard/test_leaderboard_fairness.py)
        no_fairness = Path(tmp) / "fairness"
        no_fairness.mkdir()
        argv = ["leaderboard", "verify", "--entries", entries] if action == "verify" else \
            ["leaderboard", "build", "--entries", entries, "--output", site]
        argv += ["--fairness", no_fairness]
        code, out, err = run_cli(argv)
        if code == 0:
            return
        if code == 1 and action == "verify":  # a verification that fails: a result, printed per entry
            assert "Traceback" not in out + err and path.name.split(".")[0] in out
        else:
            assert_user_error(code, err, entries.name)
        assert not site.exists()
