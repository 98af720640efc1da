"""A task names its variant set with ``variant_set:``; the old key ``variants:`` is still read, and the spec hash
(which shipped leaderboard entries store) is the same under either key."""

import gzip
import json
from pathlib import Path

import pytest

from polibench.errors import SpecError
from polibench.leaderboard.extract import spec_sha256
from polibench.taskspec.loader import load_registry, parse_file
from polibench.taskspec.schema import TaskConfig

ROOT = Path(__file__).resolve().parents[2]
TASK = "task: mini\ninstrument: pct\n{key}: feng-stability\nscoring: {{scorer: lexical}}\n"


def write(tmp_path, text):
    path = tmp_path / "t.yaml"
    path.write_text(text)
    return path


@pytest.mark.parametrize("key", ["variant_set", "variants"])
def test_both_keys_name_the_variant_set(tmp_path, key, capsys):
    task = parse_file(write(tmp_path, TASK.format(key=key)))
    assert task.variant_set == "feng-stability"
    assert task.model_dump(mode="json")["variant_set"] == "feng-stability"
    assert capsys.readouterr().err == ""  # the old key is read silently (old run folders store it)


def test_missing_and_unknown_variant_set_name_the_new_key(tmp_path):
    with pytest.raises(SpecError) as err:
        parse_file(write(tmp_path, "task: x\ninstrument: pct\n"))
    assert err.value.field == "variant_set" and "missing" in err.value.expected
    (tmp_path / "tasks").mkdir()
    (tmp_path / "tasks" / "t.yaml").write_text(TASK.format(key="variant_set").replace("feng-stability", "nope"))
    with pytest.raises(SpecError) as err:
        load_registry([str(tmp_path / "tasks")])
    assert err.value.field == "variant_set" and "feng-main" in err.value.expected and "'nope'" in err.value.expected


def test_giving_both_keys_is_an_error(tmp_path):
    with pytest.raises(SpecError) as err:
        parse_file(write(tmp_path, TASK.format(key="variant_set") + "variants: feng-main\n"))
    assert err.value.field == "variants"


def test_builtin_tasks_use_the_new_key_and_hash_like_the_old_one():
    registry = load_registry([])
    for name, task in registry.tasks.items():
        assert "\nvariant_set:" in Path(registry.sources[("task", name)]).read_text(), name
        instruments = {n: registry.instruments[n].model_dump(mode="json") for n in task.instruments}
        new = task.model_dump(mode="json")
        old = {("variants" if k == "variant_set" else k): v for k, v in new.items()}
        assert "variants" not in new and spec_sha256(new, instruments) == spec_sha256(old, instruments)


def test_shipped_entry_spec_hash_is_unchanged():
    """The stored config of a shipped run (written with ``variants:``) still hashes to the entry's spec_sha256."""
    for path in sorted((ROOT / "leaderboard" / "entries").glob("*__*.json")):
        if path.name.endswith((".results.json", ".samples.json")):
            continue
        entry = json.loads(path.read_text())
        document = json.loads(gzip.decompress((path.parent / entry["results"]["file"]).read_bytes()))
        for task in entry["tasks"]:
            config = document["configs"][task["name"]]
            assert TaskConfig.model_validate(config).variant_set == task["variant_set"]
            assert spec_sha256(config, document["instruments"]) == task["spec_sha256"], path.name
