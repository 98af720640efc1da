"""The layer list has one source, the import-linter contract in pyproject.toml; docs/architecture.md draws it.
This test fails when the drawing and the contract disagree (a layer added, removed, renamed or moved)."""

import re
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parents[2]


def contract_layers() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = [c for c in config["tool"]["importlinter"]["contracts"]
                 if c["type"] == "layers" and c["containers"] == ["polibench"]]
    assert len(contracts) == 1, "one layers contract over the whole package"
    return [" ".join(layer.split()) for layer in contracts[0]["layers"]]


def drawn_layers() -> list[str]:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split("## Layers and their imports", 1)[1]
    block = re.search(r"```\n(.*?)```", section, re.S).group(1)
    # each line: the layer, then (after a run of spaces or a box-drawing bar) what it is
    return [re.split(r"\s{2,}|\s*[┐│▼]", line.strip(), maxsplit=1)[0].strip() for line in block.splitlines()
            if line.strip()]


def test_the_architecture_diagram_is_the_import_linter_contract():
    assert drawn_layers() == contract_layers()


def test_the_testing_page_points_to_the_one_list_instead_of_copying_it():
    testing = (ROOT / "docs" / "testing.md").read_text(encoding="utf-8")
    assert "__main__ →" not in testing and "architecture.md" in testing
