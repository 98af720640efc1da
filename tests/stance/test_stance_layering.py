"""The stance recipe sits above the scoring layer: scoring/ never imports stance/, and the registry reaches the
embedded stance scorer by its "module:Class" string."""

import importlib
import pkgutil
import subprocess
import sys

import polibench.scoring
from polibench.scoring.registry import OFFLINE_DEFAULT, SCORERS


def test_no_scoring_module_imports_stance():
    modules = [f"polibench.scoring.{m.name}" for m in pkgutil.iter_modules(polibench.scoring.__path__)]
    code = ("import sys, importlib\n"
            f"for name in {modules!r}: importlib.import_module(name)\n"
            "print(sorted(m for m in sys.modules if m.startswith('polibench.stance')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert len(modules) > 5 and out.strip() == "[]"


def test_embedded_scorer_is_registered_by_string():
    target = SCORERS.target(OFFLINE_DEFAULT)
    assert isinstance(target, str)
    module_name, _, class_name = target.partition(":")
    assert module_name == "polibench.stance.embedded"
    cls = getattr(importlib.import_module(module_name), class_name)
    assert cls.name == "embedded" and issubclass(cls, importlib.import_module("polibench.scoring.classifier")
                                                 .ClassifierScorer)
