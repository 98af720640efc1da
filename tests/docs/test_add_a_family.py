"""docs/architecture.md's "How to add a family", done exactly as it says: the package is built from the section's
blocks (each the file its ``family-file`` mark names), installed by pip from its own pyproject.toml (so its entry
point in group ``polibench.families`` is in the dist-info pip writes, as for any plugin package), and run through
polibench in subprocesses (nothing in this test process registers anything). The family's metric reaches report.md
and the run summary, ``polibench score --check`` recomputes its block (and catches a changed number of it), and a
built leaderboard page shows it; a change of the code that the doc no longer matches fails here."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import tomllib
from doc_blocks import marked_files

from tests.plugins.test_plugin_package import polibench  # polibench in a subprocess, the package on its path

REPO = Path(__file__).resolve().parents[2]
DOC = Path("docs/architecture.md")
PACKAGE = "polibench-agreement"
# what the section's tree says the package holds
FILES = {"pyproject.toml", "polibench_agreement/__init__.py", "polibench_agreement/metric.py",
         "polibench_agreement/report.py", "polibench_agreement/board.py",
         "polibench_agreement/tasks/agreement-pct.yaml"}
ANSWERS = "responses=I agree.|I agree.|I disagree."


def test_the_section_spells_out_every_file_of_its_tree():
    files = marked_files(DOC, "family-file")
    assert set(files) == FILES
    text = (REPO / DOC).read_text(encoding="utf-8")
    section = text.split("## How to add a family", 1)[1].split("\n## ", 1)[0]
    for name in FILES:  # the tree drawn at the top names every file the blocks give
        assert Path(name).name in section.split("<!-- family-file")[0], name


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The doc's package, written from its blocks and installed by pip into a folder of its own."""
    root = tmp_path_factory.mktemp("family")
    source = root / PACKAGE
    for name, text in marked_files(DOC, "family-file").items():
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        (source / name).write_text(text, encoding="utf-8")
    target = root / "site-packages"
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                           "--no-index", "--disable-pip-version-check", "--target", str(target), str(source)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    entry_points = next(target.glob("polibench_agreement-*.dist-info")) / "entry_points.txt"
    declared = tomllib.loads((source / "pyproject.toml").read_text())["project"]["entry-points"]
    assert declared == {"polibench.families": {"agreement": "polibench_agreement:FAMILY"}}
    assert "[polibench.families]" in entry_points.read_text()  # pip wrote the entry point from the doc's metadata
    assert (target / "polibench_agreement" / "tasks" / "agreement-pct.yaml").is_file()  # the package data
    return target


def test_the_family_of_the_doc_reaches_the_report_the_check_and_the_site(installed, tmp_path):
    listed = polibench(installed, "list", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert "agreement-pct" in listed.stdout
    assert "agreement" in next(x for x in listed.stdout.splitlines() if x.startswith("Metrics:"))

    run = tmp_path / "runs" / "agreement"
    done = polibench(installed, "run", "--backend", "mock", "--model", "canned", "--tasks", "agreement-pct",
                     "--limit", "6", "--no-cache", "--no-progress", "--output", str(run), "--model-args", ANSWERS,
                     cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    samples = [json.loads(line) for line in (run / "samples.jsonl").read_text().splitlines()]
    kept = [s["stance"]["label"] for s in samples
            if s["stance"]["kept"] and s["stance"]["label"] in ("agree", "disagree")]
    share = round(kept.count("agree") / len(kept), 4)
    assert 0 < share < 1  # both answers were read: the share is not a trivial 0 or 1
    block = json.loads((run / "results.json").read_text())["results"]["agreement-pct"]["agreement"]
    assert block["agree_share"] == share and block["answered"] == len(kept)
    low, high = block["ci"]["agree_share"]
    assert low <= share <= high
    interval = f"{share:+.3f} [{low:+.3f}, {high:+.3f}]"
    report = (run / "report.md").read_text()
    assert f"Of {len(kept)} kept agree/disagree answers to agreement-pct, a share of {interval} agree." in report
    assert f"| Agree share (disagrees − / agrees +, 0…1) | {share:+.3f} [" in report  # the headline table
    assert f" agree share {interval};" in done.stdout  # the run summary

    checked = polibench(installed, "score", str(run), "--check", cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    changed = tmp_path / "changed"
    changed.mkdir()
    (changed / "samples.jsonl").write_bytes((run / "samples.jsonl").read_bytes())
    document = json.loads((run / "results.json").read_text())
    document["results"]["agreement-pct"]["agreement"]["agree_share"] = round(share + 0.01, 4)
    (changed / "results.json").write_text(json.dumps(document))
    caught = polibench(installed, "score", str(changed), "--check", cwd=tmp_path)
    assert caught.returncode != 0
    assert "agreement" in caught.stdout + caught.stderr and "agree_share" in caught.stdout + caught.stderr

    entries, site = tmp_path / "my-entries", tmp_path / "my-site"
    submitted = polibench(installed, "submit", str(run), "--entries", str(entries), "--allow-partial",
                          "--allow-custom-tasks", cwd=tmp_path)
    assert submitted.returncode == 0, submitted.stderr
    entry = json.loads(next(entries.glob("*.json")).read_text())
    task = entry["tasks"][0]
    assert task["estimates"]["agreement"]["agree_share"]["value"] == share
    assert task["details"]["agreement"] == {"answered": len(kept)}  # the board's details
    built = polibench(installed, "leaderboard", "build", "--entries", str(entries), "--output", str(site),
                      cwd=tmp_path)
    assert built.returncode == 0, built.stdout + built.stderr
    page = next((site / "models").glob("*.html")).read_text()
    assert "Agree share (disagrees − / agrees +)" in page and f"{share:+.2f}" in page
