"""Reading labelled stance JSONL: clear errors with file, line and field; statement-level splits."""

import json

import pytest

from polibench.errors import PolibenchError
from polibench.scorers.stance.data import examples_digest, load_examples, split_by_statement


def write_jsonl(path, rows):
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows), encoding="utf-8")
    return path


GOOD = {"statement": "Taxes should be higher.", "response": "I agree.", "label": "agree"}


def test_reads_fields_and_keeps_the_rest_as_meta(tmp_path):
    path = write_jsonl(tmp_path / "d.jsonl", [GOOD, "", {**GOOD, "label": "unrelated", "style": "off_topic"}])
    examples = load_examples(path)
    assert [e.label for e in examples] == ["agree", "unrelated"]
    assert examples[1].meta == {"style": "off_topic"}


@pytest.mark.parametrize("row, line_field", [
    ("{not json", "2: not valid JSON"),
    ({"statement": "s", "label": "agree"}, "2: field 'response': missing"),
    ({**GOOD, "label": "maybe"}, "2: field 'label': expected one of"),
    ({**GOOD, "response": 3}, "2: field 'response': expected a string"),
    ({**GOOD, "statement": "  "}, "2: field 'statement': expected a non-empty string"),
    ([1, 2], "2: expected a JSON object"),
])
def test_bad_lines_name_file_line_and_field(tmp_path, row, line_field):
    path = write_jsonl(tmp_path / "bad.jsonl", [GOOD, row])
    with pytest.raises(PolibenchError) as err:
        load_examples(path)
    assert str(err.value).startswith(f"{path}: line {line_field}")


def test_missing_and_empty_files(tmp_path):
    with pytest.raises(PolibenchError, match="no such file"):
        load_examples(tmp_path / "nope.jsonl")
    with pytest.raises(PolibenchError, match="no examples"):
        load_examples(write_jsonl(tmp_path / "empty.jsonl", [""]))
    with pytest.raises(PolibenchError, match="unknown gold stance split"):
        load_examples("gold:valid")


def test_gold_splits_load_and_share_no_statement():
    train, dev, test = load_examples("gold:train"), load_examples("gold:dev"), load_examples("gold:test")
    assert len(train) + len(dev) + len(test) >= 1700
    groups = [{e.group for e in split} for split in (train, dev, test)]
    assert not groups[0] & groups[1] and not groups[0] & groups[2] and not groups[1] & groups[2]


def test_split_by_statement_keeps_statements_whole():
    rows = [dict(GOOD, statement=f"statement {i % 10}", response=f"r{i}") for i in range(100)]
    examples = [e for e in (load_examples_from_rows(rows))]
    rest, dev = split_by_statement(examples, 0.3, seed=1)
    assert len(rest) + len(dev) == 100
    assert not {e.group for e in rest} & {e.group for e in dev}
    assert 30 <= len(dev) <= 40
    assert split_by_statement(examples, 0.3, seed=1) == (rest, dev)
    assert split_by_statement(examples, 0.3, seed=2) != (rest, dev)


def load_examples_from_rows(rows):
    from polibench.scorers.stance.data import StanceExample

    return [StanceExample(r["statement"], r["response"], r["label"]) for r in rows]


def test_digest_changes_with_any_label():
    a = load_examples_from_rows([GOOD, dict(GOOD, response="No.")])
    b = load_examples_from_rows([GOOD, dict(GOOD, response="No.", label="disagree")])
    assert examples_digest(a) == examples_digest(list(a))
    assert examples_digest(a) != examples_digest(b)
