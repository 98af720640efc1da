"""A plugin package made in the test, with a metric, a run-level metric, a scorer, a backend and a task folder declared
as entry points (polibench.metrics, polibench.run_metrics, polibench.scorers, polibench.backends, polibench.tasks,
and polibench.families for the metric's leaderboard board), found by importlib.metadata through the dist-info a
build would install: they are listed, a run with them goes end to end, the metric reaches report.md, the run summary
and a built leaderboard page, and the run-level metric reaches results.json, report.md and the run summary, and
``score --check`` recomputes it. polibench runs in subprocesses, so nothing in this test process registers anything
by hand."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

MODULE = '''
"""A polibench plugin: an agree-share metric, a lexical scorer, a canned backend and a task folder."""
from pathlib import Path
from typing import Optional

import numpy as np

from polibench.metrics.blocks import EstimateBlock, Interval, Strict
from polibench.kit.registry import Family
from polibench.leaderboard.board import Board, Column
from polibench.metrics.bootstrap import percentile_intervals
from polibench.metrics.columns import AGREE
from polibench.metrics.registry import Estimate, Metric, MetricInput
from polibench.metrics.run_level import RunInput, RunMetric
from polibench.models.mock import MockBackend
from polibench.report.registry import Report, RunReport
from pydantic import BaseModel
from polibench.scorers.stance.lexical import LexicalScorer


class AgreeIntervals(Strict):
    agree: Optional[Interval] = None


class AgreeBlock(EstimateBlock):
    agree: Optional[float] = None
    ci: AgreeIntervals = AgreeIntervals()


def compute(data: MetricInput) -> AgreeBlock:
    t = data.table
    rows = t.pct_answer
    n_items = len(t.items)
    agree = np.bincount(t.item[rows], weights=(t.label[rows] == AGREE).astype(float), minlength=n_items)
    counted = np.bincount(t.item[rows], minlength=n_items).astype(float)
    if not counted.sum():
        return AgreeBlock()
    with np.errstate(invalid="ignore", divide="ignore"):
        (ci,) = percentile_intervals((data.weights @ agree) / (data.weights @ counted))
    return AgreeBlock(agree=round(float(agree.sum() / counted.sum()), 4), ci={"agree": ci})


def section(block, ctx):
    return ["### Plugin agree share", "", f"PLUGIN-SECTION {ctx.task}: agree share {block.agree}", ""]


def summary(block, ctx):
    return f" plugin agree share {block.agree};"


METRIC = Metric(name="plugin_agree", key="plugin_agree", block=AgreeBlock, compute=compute,
                description="share of kept agree/disagree responses that agree (a plugin)",
                estimates=(Estimate("agree", "Plugin agree share", 0, 1, "disagrees", "agrees", digits=3),))

# what the metric shows on the leaderboard (its family registers it, below)
BOARD = Board(details=lambda block, ctx: {"kept_agree": block.agree},
              columns=(Column("agree", "Plugin agree", "the plugin's agree share"),))


class KeptBlock(BaseModel):
    kept: int = 0
    responses: int = 0


def run_compute(data: RunInput) -> KeptBlock:
    return KeptBlock(kept=sum(1 for s in data.samples if s.stance is not None and s.stance.kept),
                     responses=len(data.samples))


def run_section(block, document):
    return ["## Plugin run metric", "", f"PLUGIN-RUN-SECTION kept {block.kept} of {block.responses}", ""]


def run_summary(block, document):
    return [f"plugin run metric: kept {block.kept} of {block.responses}"]


RUN_METRIC = RunMetric(name="plugin_kept", block=KeptBlock, compute=run_compute, empty=KeptBlock,
                       description="responses kept over the whole run (a plugin)")

# what the leaderboard, report.md and the run summary show of the two metrics: the plugin's family
# (group polibench.families), exactly a built-in family's shape
FAMILY = Family(name="plugin-demo", boards={"plugin_agree": BOARD},
                reports={"plugin_agree": Report(section=section, summary=summary)},
                run_reports={"plugin_kept": RunReport(section=run_section, summary=run_summary)})


class CannedBackend(MockBackend):
    name = "plugin-canned"


class PluginScorer(LexicalScorer):
    """The lexical scorer under another name."""


def tasks_dir():
    return Path(__file__).parent / "tasks"
'''

TASK = '''
task: plugin-task
version: 1
description: PCT statements read by the plugin's scorer and summarised by the plugin's metric.
instrument: pct
variant_set: feng-main
forms: [original]
generation: {samples: 2, max_new_tokens: 20, temperature: 1.0, seed: 7}
scoring: {scorer: plugin-lexical, threshold: 0.5, labels: [agree, disagree]}
metrics: [plugin_agree, coverage]
'''

ENTRY_POINTS = '''
[polibench.metrics]
plugin_agree = polibench_plugin_demo:METRIC

[polibench.run_metrics]
plugin_kept = polibench_plugin_demo:RUN_METRIC

[polibench.scorers]
plugin-lexical = polibench_plugin_demo:PluginScorer

[polibench.backends]
plugin-canned = polibench_plugin_demo:CannedBackend

[polibench.tasks]
plugin-tasks = polibench_plugin_demo:tasks_dir

[polibench.families]
plugin-demo = polibench_plugin_demo:FAMILY
'''


@pytest.fixture(scope="module")
def plugin_path(tmp_path_factory) -> Path:
    """A folder holding the plugin's module and the dist-info pip would install for it (METADATA, entry points)."""
    root = tmp_path_factory.mktemp("plugin")
    package = root / "polibench_plugin_demo"
    (package / "tasks").mkdir(parents=True)
    (package / "__init__.py").write_text(textwrap.dedent(MODULE))
    (package / "tasks" / "plugin-task.yaml").write_text(TASK)
    dist = root / "polibench_plugin_demo-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: polibench-plugin-demo\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text(ENTRY_POINTS)
    return root


def polibench(plugin_path: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(plugin_path)])}
    return subprocess.run([sys.executable, "-m", "polibench", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300)


def test_a_plugin_package_is_listed_runs_and_reaches_the_report_and_the_site(plugin_path, tmp_path):
    listed = polibench(plugin_path, "list", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert "plugin-task" in listed.stdout
    for line, name in (("Backends:", "plugin-canned"), ("Scorers:", "plugin-lexical"), ("Metrics:", "plugin_agree"),
                       ("Run-level metrics:", "plugin_kept")):
        assert name in next(x for x in listed.stdout.splitlines() if x.startswith(line))

    run = tmp_path / "run"
    done = polibench(plugin_path, "run", "--backend", "plugin-canned", "--model", "canned", "--tasks", "plugin-task",
                     "--limit", "6", "--no-cache", "--no-progress", "--output", str(run),
                     "--model-args", "responses=I agree.|I agree.|I disagree.", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    samples = [json.loads(line) for line in (run / "samples.jsonl").read_text().splitlines()]
    kept = [s["stance"]["label"] for s in samples
            if s["stance"]["kept"] and s["stance"]["label"] in ("agree", "disagree")]
    expected = round(kept.count("agree") / len(kept), 4)
    assert 0 < expected < 1  # both answers were given: the share is not a trivial 0 or 1
    block = json.loads((run / "results.json").read_text())["results"]["plugin-task"]["plugin_agree"]
    assert block["agree"] == expected and block["ci"]["agree"][0] <= expected <= block["ci"]["agree"][1]
    assert f"plugin agree share {expected};" in done.stdout
    report = (run / "report.md").read_text()
    assert f"PLUGIN-SECTION plugin-task: agree share {expected}" in report
    assert f"| Plugin agree share (disagrees − / agrees +, 0…1) | {expected:+.3f} [" in report
    kept_all = sum(1 for s in samples if s["stance"]["kept"])
    assert kept_all > 0
    stored = json.loads((run / "results.json").read_text())["run_metrics"]
    assert stored["plugin_kept"] == {"kept": kept_all, "responses": len(samples)}
    assert f"PLUGIN-RUN-SECTION kept {kept_all} of {len(samples)}" in report
    assert f"plugin run metric: kept {kept_all} of {len(samples)}" in done.stdout
    checked = polibench(plugin_path, "score", str(run), "--check", cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    tampered = tmp_path / "tampered"
    tampered.mkdir()
    for name in ("samples.jsonl", "results.json"):
        (tampered / name).write_bytes((run / name).read_bytes())
    edited = json.loads((tampered / "results.json").read_text())
    edited["run_metrics"]["plugin_kept"]["kept"] += 1
    (tampered / "results.json").write_text(json.dumps(edited))
    assert polibench(plugin_path, "score", str(tampered), "--check", cwd=tmp_path).returncode != 0

    entries, site = tmp_path / "entries", tmp_path / "site"
    submitted = polibench(plugin_path, "submit", str(run), "--entries", str(entries), "--allow-partial",
                          "--allow-custom-tasks", cwd=tmp_path)
    assert submitted.returncode == 0, submitted.stderr
    entry = json.loads(next(entries.glob("*.json")).read_text())
    assert entry["schema_version"] == 3 and entry["tasks"][0]["estimates"]["plugin_agree"]["agree"]["value"] == expected
    built = polibench(plugin_path, "leaderboard", "build", "--entries", str(entries), "--output", str(site),
                      "--no-verify", cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    page = next((site / "models").glob("*.html")).read_text()
    assert "Plugin agree share (disagrees − / agrees +)" in page and f"{expected:+.2f}" in page
    assert entry["tasks"][0]["details"]["plugin_agree"] == {"kept_agree": expected}  # its board's details
    # The plugin's task gives no compass position, so since issue 38's redesign its row is not in the compass tab's
    # table (which lists the chosen task's points): the index names the model, folded, under the models that are
    # not on the compass, and the model's page (above) carries the board's column with its value.
    index = (site / "index.html").read_text()
    assert 'data-model="canned"' in index.split("Not on the compass")[1]
