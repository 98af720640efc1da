"""The "Add your own survey by YAML" example of docs/instruments.md, taken from the page itself, loads and
runs, so the documented example cannot drift from what polibench accepts."""

import json
import re
from pathlib import Path

import pytest

from polibench.cli.main import main

DOC = Path(__file__).resolve().parents[2] / "docs" / "instruments.md"


def documented_files() -> dict[str, str]:
    """``{"my_tasks/...yaml": text}`` from the page: a backticked path line, then a ```yaml block."""
    section = DOC.read_text(encoding="utf-8").split("## Add your own survey by YAML", 1)[1]
    return dict(re.findall(r"^`(my_tasks/[\w/]+\.yaml)`\n\n```yaml\n(.*?)```", section, flags=re.M | re.S))


def write_example(root: Path) -> Path:
    files = documented_files()
    assert len(files) == 3, f"the docs example changed shape: {sorted(files)}"
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root / "my_tasks"


def test_the_documented_survey_loads(tmp_path, capsys):
    folder = write_example(tmp_path)
    assert main(["list", "--include-path", str(folder)]) == 0
    out = capsys.readouterr().out
    assert re.search(r"my-task\s+3 items x 3 form\(s\) x 2 variant\(s\) x 3 sample\(s\)\s+\[housing\]", out)
    assert re.search(r"housing\s+3 items", out)


@pytest.mark.slow
def test_the_documented_survey_runs_on_the_embedded_model(tmp_path):
    pytest.importorskip("llama_cpp")
    folder = write_example(tmp_path)
    out = tmp_path / "run"
    assert main(["run", "--include-path", str(folder), "--tasks", "my-task", "--limit", "2", "--samples", "1",
                 "--scorer", "lexical", "--output", str(out), "--no-progress", "--no-cache"]) == 0
    samples = [json.loads(line) for line in (out / "samples.jsonl").read_text().splitlines()]
    assert len(samples) == 12  # 2 items x 3 forms x 2 prompts x 1 sample
    assert {s["scoring"] for s in samples} == {"stance", "likert"}
    results = json.loads((out / "results.json").read_text())["results"]["my-task"]
    assert "faulborn_bias" in results and results["coverage"]["responses"] == 12
