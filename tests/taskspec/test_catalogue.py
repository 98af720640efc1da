"""The spec catalogue: one walker, one rule (a file's kind is its first key), a schema registered per kind."""

import pytest

from polibench.errors import SpecError
from polibench.fairness.spec import available_tasks
from polibench.paths import builtin_tasks_dir
from polibench.pretrain.corpus import builtin_corpora
from polibench.taskspec.catalogue import KINDS, SCHEMAS, first_key, validate, walk
from polibench.taskspec.loader import load_registry


def test_every_builtin_file_has_a_catalogued_kind_with_a_schema():
    files = walk()
    assert len(files) == len([*builtin_tasks_dir().rglob("*.yaml"), *builtin_tasks_dir().rglob("*.yml")])
    assert {f.kind for f in files} == set(KINDS) == set(SCHEMAS)
    for spec in files:
        assert spec.kind == next(iter(spec.data))  # the head read agrees with the full parse
        validate(spec)


def test_each_reader_finds_exactly_the_files_of_its_kind():
    by_kind: dict = {}
    for spec in walk():
        by_kind.setdefault(spec.kind, set()).add(spec.path)
    registry = load_registry()
    sources = {(kind, path) for (kind, _), path in registry.sources.items()}
    assert sources == {(k, p) for k in ("task", "instrument", "translation", "variant_set") for p in by_kind[k]}
    assert set(available_tasks().values()) == by_kind["fairness_task"]
    assert set(builtin_corpora().values()) == by_kind["corpus"]
    assert len(builtin_corpora()) == 6 and len(available_tasks()) == 3


def test_the_rule_is_the_first_key_whatever_comes_before_or_after(tmp_path):
    path = tmp_path / "t.yml"
    path.write_text("# a comment\n---\nfairness_task: x\ntask: y\n", encoding="utf-8")
    assert first_key(path) == "fairness_task"
    path.write_text("- a list\n", encoding="utf-8")
    assert first_key(path) is None
    other = tmp_path / "sub" / "corpus.yaml"
    other.parent.mkdir()
    other.write_text("corpus: mine\ndescription: d\n", encoding="utf-8")
    found = walk([tmp_path], builtin=False)
    assert [(f.path.name, f.kind) for f in found] == [("corpus.yaml", "corpus"), ("t.yml", None)]
    assert [f.path for f in walk([tmp_path], kinds=["corpus"], builtin=False)] == [other]


def test_an_unknown_kind_names_every_catalogued_one(tmp_path):
    (tmp_path / "k.yaml").write_text("survey: x\n", encoding="utf-8")
    with pytest.raises(SpecError) as err:
        load_registry([tmp_path])
    assert err.value.field == "survey" and all(kind in err.value.expected for kind in KINDS)


NOT_A_FOLDER = "/no/such/folder"


def test_families_and_plugins_add_task_folders_and_one_that_names_no_folder_is_one_error(tmp_path, monkeypatch):
    from polibench.errors import PolibenchError
    from polibench.kit.registry import Family
    from polibench.taskspec import catalogue

    (tmp_path / "family").mkdir()
    (tmp_path / "family" / "mine.yaml").write_text("corpus: mine\ndescription: d\n", encoding="utf-8")
    (tmp_path / "plugin").mkdir()
    monkeypatch.setattr(catalogue, "families", lambda: (Family(name="toy", tasks=tmp_path / "family"),))
    catalogue.TASK_FOLDERS.add("plugin-tasks", lambda: tmp_path / "plugin")
    try:
        assert catalogue.task_folders() == [tmp_path / "family", tmp_path / "plugin"]
        assert tmp_path / "family" / "mine.yaml" in {f.path for f in walk()}  # the family's folder is walked
    finally:
        catalogue.TASK_FOLDERS.remove("plugin-tasks")
    catalogue.TASK_FOLDERS.add("broken-tasks", f"{__name__}:NOT_A_FOLDER")  # as an entry point names it
    try:
        with pytest.raises(PolibenchError) as err:
            catalogue.task_folders()
        assert str(err.value) == (f"task folder 'broken-tasks' ({__name__}:NOT_A_FOLDER): names /no/such/folder, "
                                  "which is not a folder")
    finally:
        catalogue.TASK_FOLDERS.remove("broken-tasks")
