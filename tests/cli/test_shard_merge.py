"""``polibench run --shard i/N`` and ``polibench merge``: three shards of a run, merged, are the unsharded run.

The mock backend answers three tasks (open answers, forced choice, and option log-probabilities, whose requests
are split by their option-scoring key), with --no-cache, so every shard generates its own responses. The merged
samples.jsonl must be byte-identical to the unsharded one and results.json equal in everything but the fields
naming the run itself (``date``, ``run.command``, ``run.merged_from``). Bad input is one message naming the
folder, exit code 2, and no output folder. The same equality on the embedded llama.cpp model:
tests/cli/test_shard_merge_llamacpp.py.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from polibench.cli.main import main
from polibench.hashing import file_sha256
from polibench.results.folder import RunFolder

RUN = ["--backend", "mock", "--model-args", "score_choices=true", "--tasks", "pct,rottger-forced,rottger-logprob",
       "--limit", "3", "--samples", "2", "--seed", "7", "--scorer", "lexical", "--no-cache", "--no-progress"]
# the fields of results.json that name the run itself and so must differ between two runs
RUN_IDENTITY = ("date",)
RUN_SETTINGS_IDENTITY = ("command", "merged_from")


def lines(path: Path) -> list[str]:
    return (path / "samples.jsonl").read_text(encoding="utf-8").splitlines()


def without_run_identity(path: Path) -> dict:
    document = json.loads((path / "results.json").read_text(encoding="utf-8"))
    for key in RUN_IDENTITY:
        document.pop(key)
    for key in RUN_SETTINGS_IDENTITY:
        document["run"].pop(key, None)
    return document


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """(the unsharded run, its three shards, the merged run)."""
    root = tmp_path_factory.mktemp("shards")
    full, merged = root / "full", root / "merged"
    shards = [root / f"shard{i}" for i in range(3)]
    assert main(["run", *RUN, "--output", str(full)]) == 0
    for i, shard in enumerate(shards):
        assert main(["run", *RUN, "--shard", f"{i}/3", "--output", str(shard)]) == 0
    assert main(["merge", str(shards[2]), str(shards[0]), str(shards[1]), "--output", str(merged),
                 "--no-progress"]) == 0
    return full, shards, merged


def test_merged_shards_are_the_unsharded_run(runs):
    full, shards, merged = runs
    assert (merged / "samples.jsonl").read_bytes() == (full / "samples.jsonl").read_bytes()
    assert without_run_identity(merged) == without_run_identity(full)
    document = json.loads((merged / "results.json").read_text(encoding="utf-8"))
    assert [source["shard"] for source in document["run"]["merged_from"]] == ["0/3", "1/3", "2/3"]
    assert [source["samples_sha256"] for source in document["run"]["merged_from"]] == \
        [file_sha256(s / "samples.jsonl") for s in shards]
    assert main(["score", str(merged), "--check"]) == 0  # recomputes like any run


def test_the_shards_split_the_requests_of_every_task(runs):
    full, shards, _ = runs
    identity = [(s.task, s.item_id, s.form, s.variant, s.sample_index) for s in RunFolder(full).samples]
    parts = [[json.loads(line) for line in lines(s)] for s in shards]
    keys = [{(d["task"], d["item_id"], d["form"], d["variant"], d["sample_index"]) for d in part} for part in parts]
    assert sum(len(k) for k in keys) == len(identity) == len(set().union(*keys))  # disjoint, and all of them
    tasks = {"pct", "rottger-forced", "rottger-logprob"}
    for part in parts:  # a real split: every shard answers part of the run, across tasks
        assert 0 < len(part) < len(identity)
    assert {d["task"] for part in parts for d in part} == tasks
    # a log-probability request (one per prompt, whatever the samples) goes to one shard with all its samples
    logprob = [{(d["item_id"], d["variant"]) for d in part if d["task"] == "rottger-logprob"} for part in parts]
    assert sum(len(x) for x in logprob) == len(set().union(*logprob))


def test_a_shard_holds_responses_and_no_results(runs, capsys):
    _, shards, _ = runs
    shard = shards[1]
    assert sorted(p.name for p in shard.iterdir()) == ["samples.jsonl", "shard.json"]
    samples = [json.loads(line) for line in lines(shard)]
    assert all(s["stance"] is None for s in samples)
    assert all(s["response"] is not None or s["option_logprobs"] for s in samples)
    manifest = json.loads((shard / "shard.json").read_text(encoding="utf-8"))
    assert (manifest["format"], manifest["index"], manifest["count"]) == ("polibench.shard", 1, 3)
    assert sum(manifest["n_samples"].values()) == len(samples)
    assert manifest["plan"]["tasks"] == ["pct", "rottger-forced", "rottger-logprob"]
    assert manifest["plan"]["seed"] == 7 and manifest["plan"]["scoring"]["scorer"] == "lexical"
    capsys.readouterr()
    assert main(["score", str(shard), "--check"]) == 2  # a shard is no result
    assert "a shard of a run" in capsys.readouterr().err


def test_the_same_shard_twice_is_the_same_shard(runs, tmp_path):
    _, shards, _ = runs
    assert main(["run", *RUN, "--shard", "1/3", "--output", str(tmp_path / "again")]) == 0
    assert (tmp_path / "again" / "samples.jsonl").read_bytes() == (shards[1] / "samples.jsonl").read_bytes()


def _other_plan(root: Path, name: str, *changed: str) -> Path:
    out = root / name
    if not out.exists():
        args = list(RUN)
        for flag, value in zip(changed[::2], changed[1::2]):
            args[args.index(flag) + 1] = value
        assert main(["run", *args, "--shard", "0/3", "--output", str(out)]) == 0
    return out


def _overlapping(shards: list[Path], out: Path) -> Path:
    """Shard 1 with one sample of shard 0 added (its shard.json rewritten to match: no edit detection helps)."""
    from polibench.records import Sample
    from polibench.results.shard import read_manifest, write_shard

    manifest = read_manifest(shards[1]).model_dump()
    samples = [Sample.model_validate_json(x) for x in lines(shards[1]) + lines(shards[0])[:1]]
    manifest["n_samples"] = {t: sum(1 for s in samples if s.task == t) for t in manifest["n_samples"]}
    write_shard(out, samples, manifest)
    return out


def one_error(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("polibench: error:") == 1 and "Traceback" not in err, err
    return err


@pytest.mark.parametrize("case", ["missing", "duplicate", "twice", "seed", "model", "count", "not a shard",
                                  "a run", "overlap", "edited", "malformed", "recounted"])
def test_bad_shards_are_one_message_exit_2_and_write_nothing(runs, tmp_path_factory, tmp_path, capsys, case):
    full, shards, _ = runs
    root = tmp_path_factory.getbasetemp() / "other-plans"
    root.mkdir(exist_ok=True)
    s0, s1, s2 = (str(s) for s in shards)
    if case == "missing":
        given, message = [s0, s2], "shard(s) 1/3 missing"
    elif case == "duplicate":
        copy = tmp_path / "copy"
        shutil.copytree(shards[1], copy)
        given, message = [s0, s1, s2, str(copy)], f"{copy} and {s1} are both shard 1/3"
    elif case == "twice":
        given, message = [s0, s1, s2, s1], f"{s1}: given twice"
    elif case == "seed":
        other = _other_plan(root, "seed", "--seed", "8")
        given, message = [s1, s2, str(other)], f"{other}: a shard of another run than {s1}: seed is 8 there, 7 in"
    elif case == "model":
        other = _other_plan(root, "model", "--model-args", "score_choices=true,shift=1")
        given, message = [s1, s2, str(other)], f"{other}: a shard of another run than {s1}: model.model_args"
    elif case == "count":
        other = tmp_path / "half"
        assert main(["run", *RUN, "--shard", "0/2", "--output", str(other)]) == 0
        capsys.readouterr()
        given, message = [s1, s2, str(other)], f"{other}: shard 0/2, but {s1} is shard 1/3"
    elif case == "not a shard":
        given, message = [s0, s1, s2, str(tmp_path)], f"{tmp_path}: not a shard folder (no shard.json"
    elif case == "a run":
        given, message = [s0, s1, str(full)], f"{full}: a finished run, not a shard"
    elif case == "overlap":
        bad = _overlapping(shards, tmp_path / "overlap")
        given, message = [s0, str(bad), s2], "overlapping shards"
    elif case == "edited":
        edited = tmp_path / "edited"
        shutil.copytree(shards[2], edited)
        (edited / "samples.jsonl").write_text("\n".join(lines(edited)[1:]) + "\n", encoding="utf-8")
        given, message = [s0, s1, str(edited)], f"{edited / 'samples.jsonl'}: its SHA-256 is not the one shard.json"
    elif case == "malformed":  # a field shard.json's schema does not have: the file and the field, quoted
        edited = tmp_path / "malformed"
        shutil.copytree(shards[2], edited)
        manifest = json.loads((edited / "shard.json").read_text())
        (edited / "shard.json").write_text(json.dumps({**manifest, "machine": "gpu-3"}, indent=2))
        given, message = [s0, s1, str(edited)], f"{edited / 'shard.json'}: field 'machine': Extra inputs"
    else:  # a sample dropped and shard.json's hash updated, its counts not: the sample-count check catches it
        edited = tmp_path / "recounted"
        shutil.copytree(shards[2], edited)
        dropped = json.loads(lines(edited)[0])["task"]
        (edited / "samples.jsonl").write_text("\n".join(lines(edited)[1:]) + "\n", encoding="utf-8")
        manifest = json.loads((edited / "shard.json").read_text())
        manifest["samples_sha256"] = file_sha256(edited / "samples.jsonl")
        (edited / "shard.json").write_text(json.dumps(manifest, indent=2))
        n = manifest["n_samples"][dropped]
        given, message = [s0, s1, str(edited)], f"n_samples.{dropped}: shard.json {n}, samples.jsonl {n - 1}"
    capsys.readouterr()
    out = tmp_path / "merged"
    assert main(["merge", *given, "--output", str(out)]) == 2
    assert message in one_error(capsys)
    assert not out.exists()


def test_merge_refuses_an_existing_output_and_shard_refuses_a_run_folder(runs, capsys):
    full, shards, merged = runs
    assert main(["merge", *map(str, shards), "--output", str(merged)]) == 2
    assert "already exists" in one_error(capsys)
    before = (full / "samples.jsonl").read_bytes()
    assert main(["run", *RUN, "--shard", "0/3", "--output", str(full)]) == 2
    assert "holds a finished run" in one_error(capsys)
    assert main(["run", *RUN, "--output", str(shards[0])]) == 2
    assert "holds a shard of a run" in one_error(capsys)
    assert (full / "samples.jsonl").read_bytes() == before and not (shards[0] / "results.json").exists()


@pytest.mark.parametrize("spec", ["3/3", "1", "1/3x", "a/b", "0/0"])
def test_a_bad_shard_spec_is_one_message(spec, tmp_path, capsys):
    assert main(["run", *RUN, "--shard", spec, "--output", str(tmp_path / "o")]) == 2
    assert "--shard: expected i/N" in one_error(capsys)
    assert not (tmp_path / "o").exists()
