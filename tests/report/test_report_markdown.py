"""report.md and its figures, from a results document (synthetic run folders, no model)."""

import pytest
from metrics_samples import make_run, typed_document

from polibench.cli.main import main
from polibench.report.markdown import headline_table, render_report, with_ci, write_report
from polibench.results.files import read_results


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("report") / "run"
    return out, make_run(out, seed=2, limit=8)  # 2 statements per stratum: intervals that can vary


def test_report_files_and_links(run):
    out, document = run
    path = write_report(out, read_results(out))
    text = path.read_text()
    for kind in ("compass", "bias_by_prefix", "coverage"):
        for fmt in ("png", "svg"):
            figure = out / f"faulborn30_{kind}.{fmt}"
            assert figure.is_file() and figure.stat().st_size > 1000
            assert f"(faulborn30_{kind}.{fmt})" in text
        assert (out / f"faulborn30_{kind}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "<svg" in (out / "faulborn30_compass.svg").read_text()
    assert not list(out.glob("*.tmp"))
    bias = document["results"]["faulborn30"]["faulborn_bias"]
    low, high = bias["ci"]["total"]
    row = f"| Faulborn bias, total (left − / right +, −1…1) | {bias['total']:+.3f} [{low:+.3f}, {high:+.3f}] |"
    assert row in text
    for heading in ("### Faulborn bias per prefix", "### Steerability", "### Faulborn bias per statement form",
                    "### PCT coordinates per prompt variant", "### Coverage", "### Faulborn bias per instrument"):
        assert heading in text
    assert "| likert |" in text and "| *sd* |" in text


def test_report_command(run, capsys):
    out, _ = run
    assert main(["report", str(out)]) == 0
    assert "report.md" in capsys.readouterr().out


def test_pct_only_task_has_no_bias_sections():
    document = typed_document({"pct": {
        "pct": {"economic": -1.5, "social": 2.0, "ci": {"economic": [-2.0, -1.0], "social": None},
                "per_variant": {"p": {"economic": -1.5, "social": 2.0}}},
        "coverage": {"items": 2, "items_answered": 1, "responses": 4, "filtered_low_confidence": 1,
                     "filtered_abstained": 0, "filtered_empty": 0, "kept_labels": {"agree": 3},
                     "answered_share": 0.75, "unrelated_share": 0.0, "filtered_share": 0.25}}}, run={"seed": 1})
    text = render_report(document)
    assert "| PCT economic (left − / right +, −10…10) | -1.50 [-2.00, -1.00] |" in text
    assert "| PCT social (libertarian − / authoritarian +, −10…10) | +2.00 |" in text   # no interval: none shown
    # the social axis has no interval: no quadrant may be named, and the report says which axis and why
    assert "Faulborn" not in text and "authoritarian left" not in text and "Quadrant" not in text
    assert "No quadrant is named: the social axis cannot be told from the centre: it has no interval" in text
    assert "75.0% answered" in text


def test_number_formatting():
    assert with_ci(0.12345, [0.1, 0.2], 3) == "+0.123 [+0.100, +0.200]"
    assert with_ci(None, [0.1, 0.2]) == "–"
    assert headline_table(typed_document({"t": {}}).results["t"]) == []
