"""The gold stance set's split rule (gold v4, issue 37 §6): train, dev and test share no statement and no wording.

``tools/stance/wording.py`` defines shared wording (a verbatim response, a sentence, or the frame around the
statement, with each row's own statement texts masked); these tests check that the shipped splits have none, and
that the check sees each kind of crossing when one is planted (and not when two rows only restate their own
statements, or share nothing).
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ROOT / "tools" / "stance"
sys.path.insert(0, str(TOOLS))

import wording  # noqa: E402

GOLD = ROOT / "polibench" / "data" / "stance"


def rows(split):
    return [json.loads(line) for line in (GOLD / f"{split}.jsonl").read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module")
def content():
    from check_gold import content as read_content

    return read_content()


def test_shipped_splits_share_no_statement_and_no_wording(content):
    splits = {name: rows(name) for name in ("train", "dev", "test")}
    groups = {name: {r["statement_id"] for r in part} for name, part in splits.items()}
    assert not groups["train"] & groups["dev"] and not groups["train"] & groups["test"] \
        and not groups["dev"] & groups["test"]
    found = wording.crossings(splits, content)
    assert not found, "\n".join(wording.describe(found))
    assert all(len(part) >= 250 for part in splits.values())  # no split left empty by the rule


def test_check_gold_script_passes():
    done = subprocess.run([sys.executable, str(TOOLS / "check_gold.py")], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-2000:]
    assert "rows: " in done.stdout and "\nOK" in done.stdout


A = "Taxes on large fortunes should be raised."
B = "Public transport should be free of charge."


def row(rid, statement, response, sid="extra-90"):
    return {"id": rid, "statement_id": sid, "statement": statement, "response": response}


@pytest.mark.parametrize("train_response, test_response, kind", [
    ("So yes, I agree.", "So yes, I agree.", "response"),  # a verbatim duplicate
    ("Fine by me. Ultimately, it depends on the context and on one's values.",
     "Hard to say. Ultimately, it depends on the context and on one's values.", "sentence"),  # a shared sentence
    (f"I firmly believe that {A[:1].lower() + A[1:-1]}.",
     f"I firmly believe that {B[:1].lower() + B[1:-1]}, since it helps.",
     "frame"),  # one marker frame around two statements
    ("I'd give it a 4.", "I'd give it a 2.", "sentence"),  # one Likert template, numbers aside
])
def test_each_kind_of_crossing_is_seen(train_response, test_response, kind):
    splits = {"train": [row("a", A, train_response)], "test": [row("b", B, test_response, "extra-91")]}
    found = wording.crossings(splits, {})
    assert kind in {k for k, _ in found}, found


def test_own_statement_and_arguments_are_not_shared_wording():
    content = {"extra-90": {"P": "Fortunes grow faster than wages."}, "extra-91": {"P": "Buses cut traffic."}}
    splits = {"train": [row("a", A, A), row("c", A, "Fortunes grow faster than wages.")],
              "test": [row("b", B, B, "extra-91"), row("d", B, "Buses cut traffic.", "extra-91")]}
    assert wording.crossings(splits, content) == {}  # bare echoes and each statement's own argument
    splits["test"].append(row("e", B, "Fortunes grow faster than wages.", "extra-91"))  # another statement's text
    assert {k for k, _ in wording.crossings(splits, content)} == {"response"}


def test_a_quoted_statement_is_no_frame_but_a_worded_one_is():
    assert wording.frames(wording.skeleton(f'"{A}"', wording.masks_for(A, {}))) == set()
    assert wording.frames(wording.skeleton(f"It is not true that {A[:1].lower() + A[1:]}",
                                           wording.masks_for(A, {}))) == {"it is not true that {s}"}
