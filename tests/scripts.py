"""Scripts that are not part of the package (benchmarks/, tools/): load one as a module, by its path, or run one
as ``python SCRIPT ARGS`` in a fork of tests/fork_runner.py (the ``fork_runner`` fixture of tests/conftest.py)."""

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType


def load_script(path: Path, name: str | None = None, *, beside: bool = False) -> ModuleType:
    """The module of the script at ``path`` (named ``name``, default its file name). ``beside``: the script's
    folder is on ``sys.path`` while it loads, for scripts that import their sibling helpers."""
    spec = importlib.util.spec_from_file_location(name or path.stem, path)
    assert spec is not None and spec.loader is not None, f"not a Python file: {path}"
    module = importlib.util.module_from_spec(spec)
    folder = str(path.parent)
    if beside:
        sys.path.insert(0, folder)
    before = sys.modules.get(spec.name)
    sys.modules[spec.name] = module  # while it loads: a script's dataclasses look their module up there
    try:
        spec.loader.exec_module(module)
    finally:
        if beside:
            sys.path.remove(folder)
        if before is None:
            sys.modules.pop(spec.name, None)
        else:
            sys.modules[spec.name] = before
    return module


def run_script(runner, script: Path, args: list[str], tmp_path: Path, timeout: float = 600) -> tuple[int, str, str]:
    """``python SCRIPT ARGS`` (in a fork of ``runner``, a tests/fork_runner.py process), in the repository's root,
    with ``TMPDIR`` set to ``tmp_path``: exit status, stdout, stderr."""
    out, err = tmp_path / f"{script.name}.stdout", tmp_path / f"{script.name}.stderr"
    request = {"script": str(script), "args": args, "cwd": str(Path(__file__).resolve().parents[1]),
               "env": {"TMPDIR": str(tmp_path)}, "stdout": str(out), "stderr": str(err), "timeout": timeout}
    runner.stdin.write(json.dumps(request) + "\n")
    runner.stdin.flush()
    reply = runner.stdout.readline()
    assert reply, f"tests/fork_runner.py stopped (exit status {runner.poll()})"
    return json.loads(reply)["returncode"], out.read_text(errors="replace"), err.read_text(errors="replace")
