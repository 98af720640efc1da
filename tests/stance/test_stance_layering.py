"""The scorers sit above the scoring engine: scoring/ never imports scorers/, and the registry reaches the built-in
scorers through polibench's own entry points (setup.cfg, group polibench.scorers), not through strings of its own."""

import importlib
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import polibench.scoring
from polibench.kit.registry import own_entry_point_targets
from polibench.scoring.registry import BUILTIN_SCORERS, OFFLINE_DEFAULT, SCORERS

ROOT = Path(__file__).resolve().parents[2]


def test_no_scoring_module_imports_a_scorer():
    modules = [f"polibench.scoring.{m.name}" for m in pkgutil.iter_modules(polibench.scoring.__path__)]
    code = ("import sys, importlib\n"
            f"for name in {modules!r}: importlib.import_module(name)\n"
            "print(sorted(m for m in sys.modules if m.startswith('polibench.scorers')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert len(modules) > 5 and out.strip() == "[]"


def test_the_scoring_engine_names_no_scorer_module_in_a_string():
    """No "module:Class" string (nor any string literal) of the engine names a scorer module: only prose may."""
    for path in (ROOT / "polibench" / "scoring").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert re.search(r"[\"']polibench\.scorers\.", text) is None, path.name


def test_embedded_scorer_is_an_entry_point_of_polibench_itself():
    target = SCORERS.target(OFFLINE_DEFAULT)
    assert isinstance(target, str) and target == own_entry_point_targets("scorers")[OFFLINE_DEFAULT]
    module_name, _, class_name = target.partition(":")
    assert module_name == "polibench.scorers.stance.embedded"
    cls = getattr(importlib.import_module(module_name), class_name)
    assert cls.name == "embedded" and issubclass(cls, importlib.import_module("polibench.scorers.stance.classifier")
                                                 .ClassifierScorer)


def test_every_builtin_scorer_is_declared_and_names_itself():
    declared = own_entry_point_targets("scorers")
    assert sorted(declared) == sorted(BUILTIN_SCORERS)
    for name in BUILTIN_SCORERS:
        assert declared[name].startswith("polibench.scorers.")
        assert SCORERS.target(name) == declared[name]
