"""RunFolder: a run folder's results document and samples, each read on first use, with one clear error for a
missing or broken file when (and only when) that file is needed."""

import pytest
from metrics_samples import make_run

from polibench.errors import PolibenchError
from polibench.hashing import file_sha256
from polibench.results.files import read_results, read_samples
from polibench.results.folder import RunFolder


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("run")
    make_run(out, task="faulborn30", limit=2, samples=2)
    return out


def test_it_holds_what_the_two_readers_read(run_dir):
    run = RunFolder(run_dir)
    assert run.document == read_results(run_dir)
    assert run.samples == read_samples(run_dir / "samples.jsonl") and len(run.samples) > 0
    assert run.task_samples("faulborn30") == run.samples and run.task_samples("pct") == []
    assert run.results_sha256() == file_sha256(run_dir / "results.json")
    assert run.samples_sha256() == file_sha256(run_dir / "samples.jsonl") == run.document.samples_sha256


def test_files_are_read_lazily_and_a_broken_one_fails_only_when_needed(run_dir, tmp_path):
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "results.json").write_bytes((run_dir / "results.json").read_bytes())
    lines = (run_dir / "samples.jsonl").read_text(encoding="utf-8").splitlines()
    (broken / "samples.jsonl").write_text("\n".join([lines[0], '{"task": 3}', *lines[2:]]) + "\n", encoding="utf-8")
    run = RunFolder(broken)
    assert run.document.configs.keys() == {"faulborn30"}  # the document alone reads fine
    with pytest.raises(PolibenchError, match=r"samples\.jsonl: line 2: field 'task'"):
        _ = run.samples
    with pytest.raises(PolibenchError, match=r"samples\.jsonl: line 2"):
        RunFolder(broken).read()


def test_a_missing_run_is_one_error_naming_the_file(tmp_path):
    run = RunFolder(tmp_path / "nowhere")  # building it reads nothing
    with pytest.raises(PolibenchError, match=r"nowhere/results\.json: no such file"):
        _ = run.document
