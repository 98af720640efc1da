"""Files and errors (issue 38, §5): a run folder that cannot be written is one line and exit 2 from every command
that writes; everything a run writes gets the user's umask; a byte-order mark is accepted on purpose; a number
written as text is refused; a missing field is called missing; a bad flag value is one line without the usage
block; ``make test`` installs the browser or says how in one line."""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest
import yaml
from metrics_samples import make_run

from polibench.cli.main import main
from polibench.taskspec.loader import load_registry

REPO = Path(__file__).resolve().parents[2]
BOM = b"\xef\xbb\xbf"


@contextlib.contextmanager
def read_only(folder: Path):
    """``folder`` made unwritable for this user: immutable for root (whom permission bits do not stop), mode 0555
    otherwise."""
    if os.geteuid() == 0:
        subprocess.run(["chattr", "+i", str(folder)], check=True)
        try:
            yield
        finally:
            subprocess.run(["chattr", "-i", str(folder)], check=True)
    else:
        folder.chmod(0o555)
        try:
            yield
        finally:
            folder.chmod(0o755)


def one_line_error(err: str, *expected: str) -> None:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("polibench: error:"), err
    assert "Traceback" not in err and all(e in lines[0] for e in expected), lines[0]


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("files") / "run"
    make_run(out, seed=3, task="pct", limit=6)
    return out


@pytest.mark.parametrize("command", [["score"], ["report"]])
def test_a_read_only_run_folder_is_one_line_and_exit_2(run_dir, command, capsys):
    before = {p.name: p.read_bytes() for p in run_dir.iterdir() if p.is_file()}
    with read_only(run_dir):
        code = main([*command, str(run_dir)])
    captured = capsys.readouterr()
    assert code == 2
    one_line_error(captured.err, str(run_dir), "cannot write here")
    assert {p.name: p.read_bytes() for p in run_dir.iterdir() if p.is_file()} == before  # nothing half-written


@pytest.mark.parametrize("mask", [0o022, 0o027])
def test_everything_a_run_writes_gets_the_users_umask(tmp_path, mask):
    out = tmp_path / "run"
    old = os.umask(mask)
    try:
        assert main(["run", "--backend", "mock", "--tasks", "pct", "--limit", "6", "--samples", "2",
                     "--scorer", "lexical", "--output", str(out), "--no-cache", "--no-progress"]) == 0
        assert main(["score", str(out)]) == 0  # rewrites results.json and report.md
    finally:
        os.umask(old)
    modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in out.iterdir() if p.is_file()}
    assert {"samples.jsonl", "results.json", "report.md"} <= set(modes)
    assert set(modes.values()) == {0o666 & ~mask}, modes  # 0644 / 0640, never the 0600 of a temporary file


def _write_task_files(folder: Path, weight, bom: bool = False) -> None:
    registry = load_registry()
    instrument = registry.instruments["pct"].model_dump(mode="json", exclude_none=True)
    instrument.update(instrument="pct-tiny", items=instrument["items"][:2])
    instrument["items"][0]["weights"]["economic"][0] = weight
    data = yaml.safe_dump(instrument, sort_keys=False, allow_unicode=True).encode("utf-8")
    (folder / "instrument.yaml").write_bytes((BOM if bom else b"") + data)


def test_a_bom_is_accepted_in_task_files_and_import_files(tmp_path, capsys):
    folder = tmp_path / "tasks"
    folder.mkdir()
    _write_task_files(folder, 7, bom=True)
    assert main(["list", "--include-path", str(folder)]) == 0
    assert "pct-tiny" in capsys.readouterr().out
    registry = load_registry()
    item = registry.instruments["pct"].items[0].id
    variant = registry.variant_sets[registry.task("pct").variant_set].variants[0].id
    rows = {"jsonl": f'{{"item": "{item}", "variant": "{variant}", "response": "I agree."}}\n',
            "csv": f"item,variant,response\n{item},{variant},I agree.\n"}
    for suffix, text in rows.items():
        path = tmp_path / f"responses.{suffix}"
        path.write_bytes(BOM + text.encode("utf-8"))
        out = tmp_path / f"import-{suffix}"
        # a one-row file answers one prompt of pct: the import stops at the missing ones, past the BOM and the header
        code = main(["import", str(path), "--tasks", "pct", "--model", "m", "--output", str(out), "--no-progress"])
        err = capsys.readouterr().err
        assert code == 2 and "prompts have no response" in err and "BOM" not in err and "header lacks" not in err


@pytest.mark.parametrize("weight, refused", [("5", True), (5, False), (5.5, False), (True, True)])
def test_a_number_written_as_text_is_refused(tmp_path, capsys, weight, refused):
    folder = tmp_path / "tasks"
    folder.mkdir()
    _write_task_files(folder, weight)
    code = main(["list", "--include-path", str(folder)])
    err = capsys.readouterr().err
    if refused:
        assert code == 2
        one_line_error(err, "instrument.yaml", "items[0].weights.economic[0]", "valid number")
    else:
        assert code == 0 and not err


def test_a_missing_field_is_called_missing(tmp_path, capsys):
    path = tmp_path / "rows.jsonl"
    path.write_text('{"item": "pct-01", "variant": "feng-main"}\n')
    assert main(["import", str(path), "--tasks", "pct", "--model", "m", "--output", str(tmp_path / "out")]) == 2
    one_line_error(capsys.readouterr().err, "row 1", "field 'response' is missing")
    path.write_text('{"item": "pct-01", "variant": "feng-main", "response": 5}\n')  # there, but not text
    assert main(["import", str(path), "--tasks", "pct", "--model", "m", "--output", str(tmp_path / "out")]) == 2
    assert "field 'response' must be a string" in capsys.readouterr().err


@pytest.mark.parametrize("args, expected", [
    (["run", "--threshold", "1.5"], "argument --threshold: expected a number from 0 to 1, got '1.5'"),
    (["run", "--batch-size", "zero"], "argument --batch-size"),
    (["score"], "the following arguments are required: run_dir"),
])
def test_a_bad_flag_value_is_its_one_line_without_the_usage_block(args, expected, capsys):
    with pytest.raises(SystemExit) as stopped:
        main(args)
    err = capsys.readouterr().err
    assert stopped.value.code == 2
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and "usage:" not in err.lower().replace("(usage: ", ""), err
    assert expected in lines[0] and lines[0].endswith("--help)")


def _stubs(folder: Path, uid: int, with_apt: bool) -> dict[str, str]:
    """A PATH of stand-ins (no chromium on it): ``id`` answering ``uid``, and an ``apt-get`` that records what it
    was asked (a fake: the test must not install anything)."""
    folder.mkdir()
    for tool in ("uname", "grep"):  # what the Makefile asks of the machine before any recipe
        (folder / tool).symlink_to(shutil.which(tool))
    (folder / "id").write_text(f"#!/bin/sh\necho {uid}\n")
    if with_apt:
        (folder / "apt-get").write_text(f'#!/bin/sh\necho "$@" >> {folder}/apt.log\n')
    for script in folder.iterdir():
        if not script.is_symlink():
            script.chmod(0o755)
    return {"PATH": str(folder), "HOME": str(folder)}


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
@pytest.mark.parametrize("uid, with_apt", [(1000, True), (0, False), (0, True)])
def test_make_test_installs_the_browser_or_says_how(tmp_path, uid, with_apt):
    env = _stubs(tmp_path / "bin", uid, with_apt)
    found = subprocess.run([shutil.which("make"), "-s", "-C", str(REPO), "browser"], env=env, capture_output=True,
                           text=True, timeout=60)
    log = tmp_path / "bin" / "apt.log"
    if uid == 0 and with_apt:  # root with apt-get: it installs chromium and chromium-driver, as .ci/run does
        assert found.returncode == 0, found.stderr
        assert log.read_text().splitlines()[-1].endswith("install -y -qq chromium chromium-driver")
    else:  # it cannot: one line saying how, and make stops (exit 2)
        assert found.returncode != 0 and not log.exists()
        lines = [line for line in found.stderr.splitlines() if line.strip() and not line.startswith("make:")]
        assert lines == ["make test: the browser tests need chromium and chromedriver: run 'sudo apt-get install "
                         "chromium chromium-driver' (or make test BROWSER=skip)"]
    skipped = subprocess.run([shutil.which("make"), "-s", "-C", str(REPO), "browser", "BROWSER=skip"], env=env,
                             capture_output=True, text=True, timeout=60)
    assert skipped.returncode == 0
