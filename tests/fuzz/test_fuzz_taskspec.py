"""Fuzzing task, instrument and variant YAML given with ``--include-path``: any bytes, edited text, wrong
types, unknown keys, deep nesting, huge files and duplicate ids give one message naming the file and every
problem in it, exit code 2, never a traceback."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
import yaml
from fuzz_helpers import FEW, FUZZ, assert_user_error, run_cli
from hypothesis import given
from hypothesis import strategies as st

from polibench.errors import SpecError
from polibench.taskspec import yaml_file
from polibench.taskspec.loader import parse_file
from polibench.taskspec.schema import Instrument, TaskConfig, VariantSet

TASK = {"task": "fuzz-task", "instrument": "fuzz-inst", "variant_set": "fuzz-variants", "forms": ["original"],
        "generation": {"samples": 2, "max_new_tokens": 20}, "scoring": {"scorer": "lexical", "threshold": 0.5},
        "metrics": ["coverage"]}
INSTRUMENT = {"instrument": "fuzz-inst", "name": "Fuzz", "items": [
    {"id": "a", "text": "Taxes should be higher.", "dimension": "economic", "agree_side": "left"},
    {"id": "b", "text": "Tradition matters.", "dimension": "cultural", "agree_side": "right"}]}
VARIANTS = {"variant_set": "fuzz-variants", "variants": [{"id": "v1", "template": "Say: {statement}"}]}
DOCS = {"task.yaml": TASK, "instrument.yaml": INSTRUMENT, "variants.yaml": VARIANTS}
SCHEMAS = {"task.yaml": TaskConfig, "instrument.yaml": Instrument, "variants.yaml": VariantSet}

json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner,
                                                                                       max_size=3), max_leaves=8)


def dump(doc) -> str:
    return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True)


def include_dir(files: dict[str, bytes | str]) -> tempfile.TemporaryDirectory:
    """A temporary --include-path folder holding the good documents, with ``files`` replacing or added."""
    folder = tempfile.TemporaryDirectory(prefix="pb-fuzz-")
    for name, doc in DOCS.items():
        (Path(folder.name) / name).write_text(dump(doc), encoding="utf-8")
    for name, content in files.items():
        path = Path(folder.name) / name
        path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return folder


def test_the_good_documents_load(tmp_path):
    with include_dir({}) as folder:
        code, out, err = run_cli(["list", "--include-path", folder])
    assert code == 0, err
    assert "fuzz-task" in out


@FEW
@given(name=st.sampled_from(sorted(DOCS)), content=st.binary(max_size=400))
def test_any_bytes_give_a_registry_or_one_error(name, content):
    with include_dir({name: content}) as folder:
        code, _, err = run_cli(["list", "--include-path", folder])
        if code != 0:
            assert_user_error(code, err, Path(folder) / name)


@FUZZ
@given(name=st.sampled_from(sorted(DOCS)), data=st.data())
def test_edited_text_gives_a_spec_or_one_error(name, data):
    text = dump(DOCS[name]).encode("utf-8")
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(text)))
        cut = data.draw(st.integers(0, 5))
        insert = data.draw(st.binary(max_size=6) | st.sampled_from([b"[", b"{", b":", b"- ", b"\t", b"'", b"&a", b"*a",
                                                                   b"\xff", b"\xc3", b"\n  ", b"!!python/object "]))
        text = text[:at] + insert + text[at + cut:]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(text)
        try:
            parse_file(path)
        except SpecError as exc:
            assert str(exc).startswith(f"{path}: ")
            assert exc.problems and all(field and expected for field, expected in exc.problems)


@FUZZ
@given(name=st.sampled_from(sorted(DOCS)), data=st.data(),
       unknown=st.lists(st.from_regex(r"[a-z][a-z_]{2,12}", fullmatch=True), max_size=3, unique=True))
def test_every_unknown_key_and_missing_field_is_reported(name, data, unknown):
    doc = dict(DOCS[name])
    schema = SCHEMAS[name]
    kind_key = next(iter(doc))
    unknown = [k for k in unknown if k not in schema.model_fields]
    removable = [k for k in doc if k != kind_key]
    removed = data.draw(st.lists(st.sampled_from(removable), unique=True, max_size=len(removable)))
    for key in removed:
        del doc[key]
    for key in unknown:
        doc[key] = "blue"
    missing = [k for k in removed if schema.model_fields[k].is_required()]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_text(dump(doc), encoding="utf-8")
        if not unknown and not missing:
            parse_file(path)
            return
        with pytest.raises(SpecError) as err:
            parse_file(path)
    fields = [field for field, _ in err.value.problems]
    assert sorted(fields) == sorted(unknown + missing)
    for key in unknown + missing:
        assert f"field '{key}'" in str(err.value)


@FUZZ
@given(data=st.data(), value=json_values)
def test_a_wrong_value_names_its_field(data, value):
    name = data.draw(st.sampled_from(sorted(DOCS)))
    doc = yaml.safe_load(dump(DOCS[name]))
    if name == "instrument.yaml":
        field = data.draw(st.sampled_from(["id", "text", "dimension", "agree_side"]))
        doc["items"][1][field] = value
        where = f"items[1].{field}"
    elif name == "variants.yaml":
        field = data.draw(st.sampled_from(["id", "template", "chat", "scoring"]))
        doc["variants"][0][field] = value
        where = f"variants[0].{field}"
    else:
        field = data.draw(st.sampled_from(["instrument", "variant_set", "forms", "generation", "scoring", "metrics"]))
        doc[field] = value
        where = field
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_text(dump(doc), encoding="utf-8")
        try:
            parse_file(path)
        except SpecError as exc:
            assert all(f.startswith(where) for f, _ in exc.problems), exc.problems
            assert len(str(exc)) < 2000  # a wrong value is quoted shortened, not in full


@FEW
@given(depth=st.integers(10, 5000), style=st.sampled_from(["flow-list", "flow-map", "block"]))
def test_deep_nesting_gives_a_spec_or_one_error(depth, style):
    if style == "flow-list":
        nested = "[" * depth + "1" + "]" * depth
    elif style == "flow-map":
        nested = "{a: " * depth + "1" + "}" * depth
    else:
        depth = min(depth, 1200)
        nested = "\n" + "".join("  " * (i + 1) + "a:\n" for i in range(depth)) + "  " * (depth + 1) + "b: 1"
    text = dump(TASK) + "provenance:\n  deep: " + nested + "\n"
    with include_dir({"task.yaml": text}) as folder:
        code, _, err = run_cli(["list", "--include-path", folder])
        if code != 0:
            assert_user_error(code, err, Path(folder) / "task.yaml")


def test_the_problems_of_the_issue_are_all_reported(tmp_path):
    """Issue 10: an unknown key next to a missing field; an unclosed list; bytes that are not UTF-8."""
    (tmp_path / "sky.yaml").write_text("task: sky\ninstrument: pct\ncolour_of_the_sky: blue\n")
    code, _, err = run_cli(["list", "--include-path", tmp_path])
    assert_user_error(code, err, tmp_path / "sky.yaml", "field 'variant_set': required field is missing",
                      "field 'colour_of_the_sky': unknown key")
    (tmp_path / "sky.yaml").write_text("task: sky\ninstrument: [pct, wvs\nvariants: feng-main\n")
    code, _, err = run_cli(["list", "--include-path", tmp_path])
    assert_user_error(code, err, tmp_path / "sky.yaml", "line 3, column 9", "valid YAML",
                      "started at line 2, column 13")
    (tmp_path / "sky.yaml").write_bytes(b"task: sky\ndescription: caf\xe9\n")
    code, _, err = run_cli(["list", "--include-path", tmp_path])
    assert_user_error(code, err, tmp_path / "sky.yaml", "line 2, column 17", "UTF-8", "0xe9")


def test_huge_files_are_refused_before_reading(tmp_path):
    path = tmp_path / "huge.yaml"
    with open(path, "wb") as handle:  # sparse: no disk space, never read
        handle.truncate(yaml_file.MAX_BYTES + 1)
    code, _, err = run_cli(["list", "--include-path", tmp_path])
    assert_user_error(code, err, path, "at most 16 MiB")


def test_alias_bombs_are_refused(tmp_path):
    lines = ["task: bomb", "provenance:", "  l0: &l0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"  l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 10)}]" for i in range(1, 120)]
    (tmp_path / "bomb.yaml").write_text("\n".join(lines) + "\n")
    code, _, err = run_cli(["list", "--include-path", tmp_path])
    assert_user_error(code, err, tmp_path / "bomb.yaml", "aliases")


def test_duplicate_ids_and_keys_name_both_places(tmp_path):
    (tmp_path / "a.yaml").write_text(dump(TASK))
    (tmp_path / "b.yaml").write_text(dump(TASK))
    code, _, err = run_cli(["list", "--include-path", tmp_path])
    assert_user_error(code, err, tmp_path / "a.yaml", tmp_path / "b.yaml", "fuzz-task")
    (tmp_path / "b.yaml").unlink()
    (tmp_path / "a.yaml").write_text(dump(TASK) + "instrument: pct\n")
    code, _, err = run_cli(["list", "--include-path", tmp_path])
    line = len(dump(TASK).splitlines()) + 1
    assert_user_error(code, err, tmp_path / "a.yaml", f"line {line}, column 1", "'instrument' is also on line 2")
    items = INSTRUMENT["items"] + [dict(INSTRUMENT["items"][0], text="Again.")]
    (tmp_path / "a.yaml").write_text(dump(dict(INSTRUMENT, items=items)))
    code, _, err = run_cli(["list", "--include-path", tmp_path])
    assert_user_error(code, err, tmp_path / "a.yaml", "duplicate item id 'a'")


@pytest.mark.parametrize("path", ["", " ", "{missing}", "{a_file}"])
def test_an_include_path_that_is_no_folder_is_one_error(path, tmp_path, monkeypatch):
    a_file = tmp_path / "task.yaml"
    a_file.write_text("task: x\n")
    monkeypatch.chdir(tmp_path)  # an empty path must not mean "search the current folder"
    given_path = path.format(missing=tmp_path / "missing", a_file=a_file)
    code, _, err = run_cli(["list", "--include-path", given_path])
    assert_user_error(code, err, "--include-path", "an existing folder of task YAML files")


def test_a_file_read_again_is_the_same_data_in_a_fresh_copy_and_an_edit_is_read_anew(tmp_path):
    """read_yaml keeps what it parsed (by the bytes' digest): the same data again, never the object another caller
    holds, and a changed file parsed again; a bad file is an error every time, not a kept result."""
    path = tmp_path / "spec.yaml"
    path.write_text("instrument: x\nitems:\n- id: a\n  text: first\n")
    first = yaml_file.read_yaml(path)
    first["items"][0]["text"] = "changed by a caller"
    again = yaml_file.read_yaml(path)
    assert again == {"instrument": "x", "items": [{"id": "a", "text": "first"}]} and again is not first
    path.write_text("instrument: x\nitems:\n- id: a\n  text: second\n")
    assert yaml_file.read_yaml(path)["items"][0]["text"] == "second"
    path.write_text("instrument: x\ninstrument: y\n")
    for _ in range(2):
        with pytest.raises(SpecError, match="each key once"):
            yaml_file.read_yaml(path)
