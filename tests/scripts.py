"""Load a script that is not part of the package (benchmarks/, tools/) as a module, by its path."""

import importlib.util
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
    try:
        spec.loader.exec_module(module)
    finally:
        if beside:
            sys.path.remove(folder)
    return module
