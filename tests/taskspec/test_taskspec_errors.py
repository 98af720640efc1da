"""Bad task YAML gives one message naming the file, the field path and what was expected."""

import textwrap

import pytest

from polibench.cli.main import main
from polibench.errors import SpecError
from polibench.taskspec.loader import load_registry, parse_file

GOOD_TASK = """
task: mini
instrument: pct
variant_set: feng-main
generation: {samples: 2, max_new_tokens: 20}
scoring: {scorer: lexical}
metrics: [pct_coordinates, coverage]
"""


def write(folder, name, text):
    path = folder / name
    path.write_text(textwrap.dedent(text))
    return path


def test_unknown_key_names_file_and_field(tmp_path):
    path = write(tmp_path, "bad.yaml", GOOD_TASK.replace("max_new_tokens: 20", "max_new_tokens: 20, temprature: 0.5"))
    with pytest.raises(SpecError) as err:
        parse_file(path)
    assert err.value.path == str(path)
    assert err.value.field == "generation.temprature"
    assert "unknown key" in err.value.expected


def test_wrong_type_names_nested_item_field(tmp_path):
    path = write(tmp_path, "inst.yaml", """
        instrument: mini
        name: Mini
        items:
          - {id: a, text: One, dimension: economic, agree_side: left}
          - {id: b, text: Two, dimension: economy, agree_side: left}
        """)
    with pytest.raises(SpecError) as err:
        parse_file(path)
    assert err.value.field == "items[1].dimension"
    assert "economic" in err.value.expected and "'economy'" in err.value.expected


def test_missing_field_and_missing_slot(tmp_path):
    path = write(tmp_path, "v.yaml", """
        variant_set: mine
        variants:
          - {id: v1, template: "No slot here"}
        """)
    with pytest.raises(SpecError) as err:
        parse_file(path)
    assert err.value.field == "variants[0].template" and "{statement}" in err.value.expected
    path = write(tmp_path, "t.yaml", "task: x\nvariant_set: feng-main\n")
    with pytest.raises(SpecError) as err:
        parse_file(path)
    assert err.value.field == "instrument" and "missing" in err.value.expected


def test_yaml_syntax_error_and_unknown_kind(tmp_path):
    with pytest.raises(SpecError) as err:
        parse_file(write(tmp_path, "s.yaml", "task: [unclosed\n"))
    assert "line" in err.value.field
    with pytest.raises(SpecError) as err:
        parse_file(write(tmp_path, "k.yaml", "survey: x\n"))
    assert err.value.field == "survey"


def test_task_referencing_unknown_instrument(tmp_path):
    write(tmp_path, "t.yaml", GOOD_TASK.replace("instrument: pct", "instrument: nope"))
    with pytest.raises(SpecError) as err:
        load_registry([tmp_path])
    assert err.value.field == "instrument" and "nope" in err.value.expected


def test_include_path_adds_user_task(tmp_path, capsys):
    write(tmp_path, "mini.yaml", GOOD_TASK)
    registry = load_registry([tmp_path])
    assert "mini" in registry.tasks and "pct" in registry.tasks
    assert main(["list", "--include-path", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "mini" in out and "62 items" in out


def test_cli_reports_bad_yaml_with_exit_2_and_no_traceback(tmp_path, capsys):
    write(tmp_path, "bad.yaml", GOOD_TASK.replace("samples: 2", "samples: -1"))
    code = main(["list", "--include-path", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 2
    assert "bad.yaml" in err and "generation.samples" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_builtin_tasks_load_with_expected_sizes():
    registry = load_registry()
    assert len(registry.instruments["pct"].items) == 62
    assert len(registry.instruments["wvs"].items) >= 25
    pct = registry.task("pct")
    assert pct.generation.samples == 10 and pct.generation.max_new_tokens == 100
    assert "Please respond to the following statement" in registry.variant_sets["feng-main"].variants[0].template
    wvs = registry.task("wvs")  # `--tasks pct,wvs`, the README's hub example
    assert wvs.instruments == ["wvs"]
    assert "faulborn_bias" in wvs.metrics and wvs.scoring.threshold == 0.9
    hand = [i for i in registry.instruments["pct"].items if i.id == "pct-21"][0]
    assert "HAND-LABELLED" in hand.label_note
