"""Fairness tasks and data: task files, Yoder de-duplication and dev carving, LIAR binarisation and groupings,
user CSV, verified downloads and the offline messages."""

import json

import pytest
from fairness_helpers import LIAR_FOLDER, USER_CSV, YODER_DEMOGRAPHIC, YODER_IDENTITY

from polibench.errors import PolibenchError, SpecError
from polibench.fairness.data import load_prepared, prepare
from polibench.fairness.download import OfflineError, fetch
from polibench.fairness.spec import Download, available_tasks, load_task, parse_task_file
from polibench.hashing import file_sha256


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("POLIBENCH_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    return tmp_path / "cache"


def test_builtin_fairness_tasks_load_and_the_main_loader_skips_them():
    from polibench.taskspec.loader import load_registry, parse_file

    tasks = available_tasks()
    assert {"hate-identity", "hate-demographic", "misinformation"} <= set(tasks)
    identity = load_task("hate-identity")
    assert list(identity.groupings["identity"].groups.values()) == [
        "BLACK", "MUSLIM", "LGBTQ+", "JEWS", "ASIAN", "LATINX", "WOMEN", "CHRISTIAN", "MEN", "WHITE"]
    assert parse_file(tasks["misinformation"]) is None
    assert "misinformation" not in load_registry().tasks


def test_task_file_errors_name_the_field(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text("fairness_task: t\npositive_label: bad\nnegative_label: ok\n"
                    "data: {loader: csv, file: x.csv, colour: red}\ngroupings: {g: {column: c, groups: {a: A}}}\n")
    with pytest.raises(SpecError, match=r"data\.colour.*unknown key"):
        parse_task_file(path)
    path.write_text("fairness_task: t\npositive_label: bad\nnegative_label: ok\ndata: {loader: csv, file: x.csv}\n"
                    "groupings: {g: {column: c, groups: {a: A}, member_aliases: {z: [nope]}}}\n")
    with pytest.raises(SpecError, match="member_aliases"):
        parse_task_file(path)
    path.write_text("task: not-a-fairness-task\n")
    with pytest.raises(SpecError, match="fairness_task"):
        parse_task_file(path)


def test_yoder_corpus_is_deduplicated_and_dev_is_carved_from_train():
    task = load_task("hate-identity")
    prepared = prepare(task, YODER_IDENTITY, show_progress=False)
    raw = [json.loads(line) for line in YODER_IDENTITY.read_text().splitlines()]
    unique = {(r["fold"], r["text"]) for r in raw}
    m = prepared.manifest
    assert m["dedup"]["removed"] == len(raw) - len(unique) == 4
    assert m["dedup"]["conflicting_labels"] == 1 and m["dedup"]["texts_in_train_and_test"] == 1
    sizes = {s: len(prepared.splits[s]) for s in ("train", "dev", "test")}
    assert sizes["train"] + sizes["dev"] == len({t for f, t in unique if f == "train"})
    assert sizes["test"] == len({t for f, t in unique if f == "test"})
    assert sizes["dev"] == pytest.approx(0.2 * (sizes["train"] + sizes["dev"]), abs=1)
    assert m["carved"]["dev"]["stratified_by"] == "label+identity"
    dev_groups = {i.groups["identity"] for i in prepared.dev}
    assert dev_groups == {"WOMEN", "MEN", "CHRISTIAN", "JEWS"}  # stratified: every group reaches dev
    assert {i.label for i in prepared.dev} == {0, 1}
    test_item = next(i for i in prepared.test if i.members["identity"] == ["JEWS", "CHRISTIAN"])  # group order
    assert test_item.groups["identity"] in ("CHRISTIAN", "JEWS")
    again = prepare(task, YODER_IDENTITY, show_progress=False)  # seeded: same split again
    assert [i.id for i in again.dev] == [i.id for i in prepared.dev]
    loaded = load_prepared(task)
    assert [i.id for i in loaded.test] == [i.id for i in prepared.test]


def test_demographic_corpus_maps_target_identities_to_categories():
    prepared = prepare(load_task("hate-demographic"), YODER_DEMOGRAPHIC, show_progress=False)
    item = next(i for i in prepared.test if "religion" in i.text)
    assert item.groups["category"] == "RELIGION" and item.members["category"] == ["RELIGION"]
    assert prepared.manifest["dedup"]["removed"] == 1


def test_liar_is_binarised_and_grouped_by_source_and_party():
    prepared = prepare(load_task("misinformation"), LIAR_FOLDER, show_progress=False)
    test = {i.id: i for i in prepared.test}
    assert [test[k].label for k in ("11.json", "12.json", "13.json", "14.json", "15.json")] == [1, 0, 1, 0, 1]
    assert test["11.json"].groups == {"source": "Fox", "party": "Republican"}
    assert test["12.json"].groups["source"] == "CNN"
    assert test["15.json"].groups["source"] is None  # names CNN and Fox News: ambiguous
    assert test["14.json"].groups["party"] == "No party"
    train_labels = {i.id: i.label for i in prepared.train}
    assert train_labels["1.json"] == 1 and train_labels["6.json"] == 0  # false -> 1, half-true -> 0
    assert len(prepared.dev) == 2 and not prepared.manifest["carved"]  # LIAR has its own dev split
    assert prepared.manifest["source"]["kind"] == "liar-tsv"


def test_user_csv_with_label_map_and_carved_splits(tmp_path):
    task_file = tmp_path / "mine.yaml"
    task_file.write_text(
        "fairness_task: toxic-regions\npositive_label: toxic\nnegative_label: fine\n"
        f"data: {{loader: csv, file: {USER_CSV}, text_column: sentence, label_column: verdict,\n"
        "       label_map: {toxic: 1, fine: 0}, test_fraction: 0.25, dev_fraction: 0.2, split_seed: 5}\n"
        "groupings: {region: {column: region, groups: {north: North, south: South}}}\n")
    task = load_task(str(task_file))
    prepared = prepare(task, show_progress=False)
    sizes = [len(prepared.splits[s]) for s in ("train", "dev", "test")]
    assert sum(sizes) == 40 and sizes[2] == 10 and sizes[1] == 6
    assert set(prepared.manifest["carved"]) == {"test", "dev"}
    assert {i.groups["region"] for i in prepared.test} == {"North", "South"}
    bad = tmp_path / "bad.yaml"
    bad.write_text(task_file.read_text().replace("toxic: 1, fine: 0", "toxic: 1"))
    with pytest.raises(PolibenchError, match="not mapped to 0/1"):
        prepare(load_task(str(bad)), show_progress=False)


def test_offline_without_data_says_what_to_fetch():
    with pytest.raises(OfflineError) as error:
        prepare(load_task("hate-identity"), show_progress=False)
    message = str(error.value)
    assert "identity_hate_corpora.jsonl" in message and "https://osf.io/53tfs/" in message
    assert "--task hate-identity --path" in message
    with pytest.raises(OfflineError, match=r"liar_dataset\.zip.*--path"):
        prepare(load_task("misinformation"), show_progress=False)
    with pytest.raises(PolibenchError, match="polibench fairness data --task hate-demographic"):
        load_prepared(load_task("hate-demographic"))


def test_download_is_verified_by_sha256(tmp_path, monkeypatch):
    monkeypatch.delenv("HF_HUB_OFFLINE")
    source = tmp_path / "remote.jsonl"
    source.write_text('{"text": "x"}\n')
    digest = file_sha256(source)
    dest = fetch(Download(url=source.as_uri(), sha256=digest), tmp_path / "got" / "data.jsonl", show_progress=False)
    assert dest.read_text() == source.read_text()
    wrong = Download(url=source.as_uri(), sha256="0" * 64)
    with pytest.raises(PolibenchError, match="does not match"):
        fetch(wrong, tmp_path / "bad" / "data.jsonl", show_progress=False)
    assert not (tmp_path / "bad" / "data.jsonl").exists()
    with pytest.raises(OfflineError, match="could not download.*--path"):
        fetch(Download(url="http://127.0.0.1:9/data.jsonl"), tmp_path / "none" / "d.jsonl", show_progress=False)


def test_a_pinned_hash_rejects_another_local_file(tmp_path):
    task = load_task("hate-identity")
    task.data.download.sha256 = "f" * 64
    with pytest.raises(PolibenchError, match="pinned"):
        prepare(task, YODER_IDENTITY, show_progress=False)
