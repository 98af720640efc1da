"""``polibench cache merge``: the response caches of several machines combined, first write wins, conflicts
(one request, two different answers) counted and shown; bad input is one message, exit code 2, nothing written."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from polibench.cache.store import ResponseCache
from polibench.cli.main import main
from polibench.records import Completion, Usage

MODEL = "m" * 64


def make_cache(path: Path, responses: dict[str, str], scores: dict[str, list[float]] | None = None) -> Path:
    with ResponseCache(path) as cache:
        cache.put_many(MODEL, [(k, Completion(text=t, finish_reason="stop", usage=Usage(completion_tokens=len(t))))
                               for k, t in responses.items()])
        cache.put_scores(MODEL, list((scores or {}).items()))
    return path


def contents(path: Path) -> tuple[dict[str, str], dict[str, list[float]]]:
    with ResponseCache(path) as cache:
        keys = [r[0] for r in cache.db.execute("SELECT key FROM responses")]
        score_keys = [r[0] for r in cache.db.execute("SELECT key FROM option_scores")]
        return ({k: c.text for k, c in cache.get_many(keys).items()}, cache.get_scores(score_keys))


@pytest.fixture
def machines(tmp_path):
    """Two machines' caches: they share k2 (same answer) and k1 (different answers), and one option-score key
    with different scores."""
    a = make_cache(tmp_path / "a.sqlite", {"k1": "agree", "k2": "same"}, {"s1": [-0.1, -2.0]})
    b = make_cache(tmp_path / "b.sqlite", {"k1": "disagree", "k2": "same", "k3": "only b"},
                   {"s1": [-0.2, -1.5], "s2": [-1.0, -1.0]})
    return a, b


def test_first_write_wins_and_conflicts_are_counted_with_examples(machines, tmp_path, capsys):
    a, b = machines
    out = tmp_path / "merged.sqlite"
    assert main(["cache", "merge", str(a), str(b), "--output", str(out)]) == 0
    printed = capsys.readouterr().out
    responses, scores = contents(out)
    assert responses == {"k1": "agree", "k2": "same", "k3": "only b"}
    assert scores == {"s1": [-0.1, -2.0], "s2": [-1.0, -1.0]}
    assert "3 new responses and 2 new option scores" in printed
    assert "warning: 2 conflicting entries" in printed
    assert f"responses key k1: kept 'agree', not 'disagree' from {b}" in printed
    assert f"option_scores key s1: kept '[-0.1, -2.0]', not '[-0.2, -1.5]' from {b}" in printed
    # the other order keeps the other answers: the first input wins
    assert main(["cache", "merge", str(b), str(a), "--output", str(tmp_path / "ba.sqlite")]) == 0
    assert contents(tmp_path / "ba.sqlite")[0]["k1"] == "disagree"


def test_agreeing_caches_have_no_conflict_and_an_existing_output_comes_first(tmp_path, capsys):
    a = make_cache(tmp_path / "a.sqlite", {"k1": "x", "k2": "y"})
    b = make_cache(tmp_path / "b.sqlite", {"k2": "y", "k3": "z"})
    out = make_cache(tmp_path / "out.sqlite", {"k3": "mine"})
    assert main(["cache", "merge", str(a), str(b), "--output", str(out)]) == 0
    printed = capsys.readouterr().out
    assert contents(out)[0] == {"k1": "x", "k2": "y", "k3": "mine"}
    assert "2 new responses" in printed and "1 conflicting entries" in printed
    assert main(["cache", "merge", str(a), "--output", str(tmp_path / "c.sqlite")]) == 0
    assert "no conflicting entries" in capsys.readouterr().out


def test_an_older_cache_without_the_mask_fills_column_merges(tmp_path):
    old = tmp_path / "old.sqlite"
    db = sqlite3.connect(old)
    db.execute("CREATE TABLE responses (key TEXT PRIMARY KEY, model_key TEXT NOT NULL, text TEXT NOT NULL, "
               "finish_reason TEXT, prompt_tokens INTEGER, completion_tokens INTEGER, created REAL NOT NULL)")
    db.execute("INSERT INTO responses VALUES ('k1', ?, 'old answer', 'stop', NULL, NULL, 0)", (MODEL,))
    db.commit()
    db.close()
    assert main(["cache", "merge", str(old), "--output", str(tmp_path / "new.sqlite")]) == 0
    assert contents(tmp_path / "new.sqlite")[0] == {"k1": "old answer"}


@pytest.mark.parametrize("case, message", [
    ("missing", "no such file"),
    ("text", "not a polibench response cache"),
    ("other sqlite", "not a polibench response cache (no 'responses' table"),
    ("output is an input", "is also --output"),
    ("twice", "given twice"),
])
def test_bad_input_is_one_message_exit_2_and_writes_nothing(machines, tmp_path, capsys, case, message):
    a, _ = machines
    out = tmp_path / "out.sqlite"
    bad = tmp_path / "bad.sqlite"
    if case == "text":
        bad.write_text("not a database\n" * 100)
    elif case == "other sqlite":
        db = sqlite3.connect(bad)
        db.execute("CREATE TABLE t (x)")
        db.commit()
        db.close()
    given = {"missing": [a, bad], "text": [a, bad], "other sqlite": [a, bad], "output is an input": [a, out],
             "twice": [a, a]}[case]
    before = a.read_bytes()
    assert main(["cache", "merge", *map(str, given), "--output", str(out)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("polibench: error:") == 1 and "Traceback" not in err
    assert not out.exists() and a.read_bytes() == before
