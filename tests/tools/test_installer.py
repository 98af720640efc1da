"""tools/install/installer.py, through which `make install` installs every package: uv when the venv has it,
with the package sources pip is configured with, else pip. The last test runs the real uv against this
machine's configuration (a dry run: nothing is installed)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from scripts import load_script

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tools" / "install" / "installer.py"
installer = load_script(SCRIPT)

# the shape of `pip config list` on this project's machines: a PIP_* variable, then the config files
LISTING = """:env:.find-links='/opt/from-env'
global.cert='/etc/ssl/certs/ca-certificates.crt'
global.extra-index-url='file:///nowhere/simple https://mirror.example/simple'
global.find-links='/opt/from-file'
global.index-url='https://index.example/simple'
install.constraint='{constraint}'
user.nonsense='x'
"""


def test_pip_config_reads_each_option_and_the_variables_win(tmp_path):
    config = installer.pip_config(LISTING.format(constraint=tmp_path / "c.txt"))
    assert config["find-links"] == "/opt/from-env"  # PIP_FIND_LINKS over the config file
    assert config["extra-index-url"] == "file:///nowhere/simple https://mirror.example/simple"
    assert config["constraint"] == str(tmp_path / "c.txt")
    assert "nonsense" not in config


def test_uv_gets_the_same_sources_less_the_local_ones_that_do_not_exist(tmp_path):
    constraint = tmp_path / "c.txt"
    constraint.write_text("torch<=2.14.1\n")
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    config = {"index-url": "https://index.example/simple",
              "extra-index-url": f"file:///nowhere/simple https://mirror.example/simple {wheels.as_uri()}",
              "find-links": f"{wheels} /no/such/folder", "constraint": str(constraint), "no-index": "false"}
    flags = installer.uv_flags(config)
    assert flags[:2] == ["--index-strategy", "unsafe-best-match"]  # pip's choice: the best version anywhere
    pairs = list(zip(flags[2::2], flags[3::2]))
    assert pairs == [("--index-url", "https://index.example/simple"),
                     ("--extra-index-url", "https://mirror.example/simple"), ("--extra-index-url", wheels.as_uri()),
                     ("--find-links", str(wheels)), ("--constraint", str(constraint))]
    assert installer.uv_flags({"no-index": "1"})[-1] == "--no-index"


def test_an_index_url_on_the_command_line_replaces_the_configured_one():
    config = {"index-url": "https://index.example/simple"}
    flags = installer.uv_flags(config, ["torch==2.13.0", "--index-url", "https://download.pytorch.org/whl/cpu"])
    assert "https://index.example/simple" not in flags


def test_installer_pip_means_pip():
    line, extra = installer.command(["--quiet", "tqdm"], env={"POLIBENCH_INSTALLER": "pip"})
    assert line == [sys.executable, "-m", "pip", "install", "--quiet", "tqdm"] and extra == {}


def test_the_makefile_installs_through_it_and_puts_uv_in_the_venv():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "INSTALL          := $(BIN)/python tools/install/installer.py --quiet" in makefile
    assert "-m pip install --quiet uv" in makefile
    # every package install after the venv's own tools goes through the installer
    assert makefile.count("$(INSTALL) ") == 4 and makefile.count("-m pip install") == 2


def test_real_uv_accepts_the_flags_made_from_this_machines_pip_config():
    """uv resolves an installed requirement with the flags built from this machine's pip configuration (a dry
    run). `make install` puts uv into the venv, so CI has it."""
    if not installer.has_uv():
        pytest.skip("uv is not installed in this venv (`make install` installs it)")
    done = subprocess.run([sys.executable, str(SCRIPT), "--dry-run", "--reinstall", "--no-deps", "tqdm"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "Resolved 1 package" in done.stdout + done.stderr
