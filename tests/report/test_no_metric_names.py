"""The consumers of the metric registry name no metric (issue 28): report.md's assembly, its plain-language
reading, ``polibench compare`` and ``polibench run``'s summary ask each registered metric's hooks. A metric is
named when one of its names or results keys selects something (a call argument, a subscript, a comparison) or
its block class is used.

The leaderboard asks each metric's board (polibench.leaderboard.board) for its entry details, columns, position,
sections and tab, and each run-level metric's board for the block its entry keeps, its tab and its part of the model
page, and each board's tabs drawn from every entry (the PrismIA 2026 tab, the ``category_bias`` board): every
module of leaderboard/ is a consumer."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from polibench.metrics.registry import registered
from polibench.metrics.run_level import registered_run_metrics

PACKAGE = Path(__file__).resolve().parents[2] / "polibench"
CONSUMERS = ["report/markdown.py", "report/reading.py", "report/summary.py", "report/compare.py", "report/plots.py",
             "report/registry.py", "cli/run.py",
             *sorted(f"leaderboard/{p.name}" for p in (PACKAGE / "leaderboard").glob("*.py"))]
# report/ modules that draw or write for particular metrics without being a hook module themselves (the rows of
# the PrismIA 2026 tab moved to the prismia family: polibench/families/prismia/panel.py)
REPORT_HELPERS = {"report/text.py", "report/__init__.py"}


def metric_names_used(source: str) -> list[str]:
    """``"name (line N)"`` for each place ``source`` selects by a registered metric's name or key or a run-level
    metric's name, or uses a metric's block class."""
    metrics = registered().values()
    names = {n for m in metrics for n in (m.name, m.key)} | set(registered_run_metrics())
    blocks = {m.block.__name__ for m in metrics}
    found = []
    for node in ast.walk(ast.parse(source)):
        selectors: list[ast.expr] = []
        if isinstance(node, ast.Call):
            selectors = list(node.args)
        elif isinstance(node, ast.Subscript):
            selectors = [node.slice]
        elif isinstance(node, ast.Compare):
            selectors = [node.left, *node.comparators]
        found += [f"{s.value} (line {s.lineno})" for s in selectors
                  if isinstance(s, ast.Constant) and isinstance(s.value, str) and s.value in names]
        if isinstance(node, ast.Name) and node.id in blocks:
            found.append(f"{node.id} (line {node.lineno})")
        if isinstance(node, ast.ImportFrom):
            found += [f"{a.name} (line {node.lineno})" for a in node.names if a.name in blocks]
    return found


def test_the_check_sees_a_metric_named_in_each_way():
    planted = ('from polibench.metrics.blocks import PctBlock\n'
               'x = results.block("faulborn_bias")\ny = blocks["liu_bias"]\nz = key == "logprob"\n'
               'ok = isinstance(x, PctBlock)\n')
    assert sorted(metric_names_used(planted)) == ["PctBlock (line 1)", "PctBlock (line 5)", "faulborn_bias (line 2)",
                                                  "liu_bias (line 3)", "logprob (line 4)"]
    assert metric_names_used('parser.add_argument("--tasks", default="pct")\n') == []  # a task's name, not a lookup


@pytest.mark.parametrize("path", CONSUMERS)
def test_consumers_name_no_metric(path):
    assert metric_names_used((PACKAGE / path).read_text(encoding="utf-8")) == []


def test_every_report_module_is_a_consumer_or_a_helper():
    """A module of report/ is checked here (a consumer) or is one of the helpers consumers use: a new report module
    has to say which it is (a metric's own presentation lives in its family's report.py, polibench/families/)."""
    modules = {f"report/{p.name}" for p in (PACKAGE / "report").glob("*.py")}
    assert modules - set(CONSUMERS) - REPORT_HELPERS == set()
