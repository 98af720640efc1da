"""tools/install/llama_wheel.py, which `make install` uses to compile llama.cpp once per machine: the first
install compiles and keeps the wheel, the next one with the same version and CMake flags installs that wheel
without compiling, other flags or another version compile anew, `clean` empties the folder. pip is replaced
by a recorder that writes a fake wheel where `pip wheel` would."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from scripts import load_script

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tools" / "install" / "llama_wheel.py"
llama_wheel = load_script(SCRIPT)

SPEC = "llama-cpp-python==0.3.36"
FLAGS = "-DGGML_NATIVE=OFF -DGGML_AVX2=ON"


class FakePip:
    """Records each pip call; `pip wheel` leaves one wheel named after the requirement and the flags."""

    def __init__(self) -> None:
        self.calls: list[tuple[list[str], dict[str, str]]] = []

    def __call__(self, args, extra_env) -> None:
        args = list(args)
        self.calls.append((args, dict(extra_env)))
        if args[0] == "wheel":
            folder = Path(args[args.index("--wheel-dir") + 1])
            version = args[-1].split("==")[1]
            (folder / f"llama_cpp_python-{version}-cp311-cp311-linux_x86_64.whl").write_text(extra_env["CMAKE_ARGS"])

    def commands(self) -> list[str]:
        return [args[0] for args, _ in self.calls]

    def installed(self) -> Path:
        args = [args for args, _ in self.calls if args[0] == "install"][-1]
        return Path(args[-1])


def quiet(_: str) -> None:
    pass


def test_the_second_install_uses_the_kept_wheel_and_compiles_nothing(tmp_path):
    pip = FakePip()
    assert llama_wheel.install(SPEC, FLAGS, tmp_path, run=pip, say=quiet) is True
    assert pip.commands() == ["wheel", "install"]
    args, env = pip.calls[0]
    assert env == {"CMAKE_ARGS": FLAGS} and "--no-cache-dir" in args and args[-1] == SPEC
    first = pip.installed()
    assert first.parent.parent == tmp_path and first.read_text() == FLAGS

    again = FakePip()
    assert llama_wheel.install(SPEC, "  -DGGML_NATIVE=OFF   -DGGML_AVX2=ON ", tmp_path, run=again, say=quiet) is False
    assert again.commands() == ["install"] and again.installed() == first


@pytest.mark.parametrize("spec, flags", [(SPEC, "-DGGML_NATIVE=ON"), (SPEC, "-DGGML_AVX2=ON -DGGML_NATIVE=OFF"),
                                         ("llama-cpp-python==0.3.37", FLAGS), (SPEC, "")])
def test_other_flags_or_another_version_compile_anew(tmp_path, spec, flags):
    llama_wheel.install(SPEC, FLAGS, tmp_path, run=FakePip(), say=quiet)
    pip = FakePip()
    assert llama_wheel.install(spec, flags, tmp_path, run=pip, say=quiet) is True
    assert pip.commands() == ["wheel", "install"] and pip.calls[0][1] == {"CMAKE_ARGS": flags}
    assert pip.installed().read_text() == flags
    assert len([p for p in tmp_path.iterdir()]) == 2  # both wheels are kept


def test_a_folder_whose_record_does_not_match_is_not_trusted(tmp_path):
    llama_wheel.install(SPEC, FLAGS, tmp_path, run=FakePip(), say=quiet)
    (folder,) = tmp_path.iterdir()
    (folder / llama_wheel.KEY_FILE).write_text('{"inputs": {"spec": "something else"}}')
    pip = FakePip()
    assert llama_wheel.install(SPEC, FLAGS, tmp_path, run=pip, say=quiet) is True
    assert pip.commands() == ["wheel", "install"]


def test_a_failed_compile_keeps_nothing(tmp_path):
    def failing(args, extra_env):
        raise SystemExit(1)

    with pytest.raises(SystemExit):
        llama_wheel.install(SPEC, FLAGS, tmp_path, run=failing, say=quiet)
    assert list(tmp_path.iterdir()) == []


def test_the_cache_folder_follows_the_environment(tmp_path):
    home = Path.home() / ".cache" / "polibench" / "wheels"
    assert llama_wheel.wheel_cache_dir({}) == home
    assert llama_wheel.wheel_cache_dir({"POLIBENCH_WHEEL_CACHE": ""}) == home
    assert llama_wheel.wheel_cache_dir({"XDG_CACHE_HOME": "/x"}) == Path("/x/polibench/wheels")
    assert llama_wheel.wheel_cache_dir({"XDG_CACHE_HOME": "/x", "POLIBENCH_CACHE": "/p"}) == Path("/p/wheels")
    assert llama_wheel.wheel_cache_dir({"POLIBENCH_CACHE": "/p", "POLIBENCH_WHEEL_CACHE": "/w"}) == Path("/w")


def test_make_clean_wheels_empties_the_folder(tmp_path):
    cache = tmp_path / "wheels"
    llama_wheel.install(SPEC, FLAGS, cache, run=FakePip(), say=quiet)
    assert any(cache.iterdir())
    done = subprocess.run(["make", "clean-wheels", f"POLIBENCH_WHEEL_CACHE={cache}", f"PYTHON={sys.executable}"],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert not cache.exists() and f"removed {cache}" in done.stdout


def test_make_install_goes_through_the_wheel_cache():
    """The Makefile installs llama-cpp-python with this script, with its pinned version and flags."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert ('tools/install/llama_wheel.py install --spec "$(LLAMA_CPP_SPEC)" --cmake-args "$(LLAMA_CMAKE_ARGS)"'
            in makefile)
    assert "pip install --quiet --no-cache-dir \"$(LLAMA_CPP_SPEC)\"" not in makefile
