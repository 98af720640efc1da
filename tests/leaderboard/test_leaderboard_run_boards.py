"""A run-level metric's board (polibench.leaderboard.board.RunBoard) reaches the site with no edit to the leaderboard:
its block is kept in the entry under ``run_metrics`` (left out when empty, typed by the registration), its tab and
model-page part render from it, and a field an earlier entry kept the block in migrates there. The built-in
``channels`` board: an entry of the earlier layout (a top-level ``channels`` field, versions 1 and 2) reads with
the same comparisons, a malformed block is one error naming the field, and verify catches an edited comparison."""

from __future__ import annotations

import json
import shutil
from html import escape
from pathlib import Path

import pytest
from pydantic import BaseModel

from polibench.errors import PolibenchError
from polibench.leaderboard import extract
from polibench.leaderboard.board import RunBoard, RunTab
from polibench.leaderboard.boards import register_run_board, unregister_run_board
from polibench.leaderboard.render import index_page, model_page
from polibench.leaderboard.schema import load_entry
from polibench.leaderboard.verify import check_entry
from polibench.metrics.run_level import RunMetric, RunMetrics, register_run_metric, unregister_run_metric

ENTRIES = Path(__file__).resolve().parents[2] / "leaderboard" / "entries"
PCT_ENTRY = ENTRIES / "SmolLM2-135M-Instruct-Q4_1-GGUF-embedded__pct.json"
PAIR_ENTRY = ENTRIES / ("HuggingFaceH4-zephyr-7b-beta__rottger-forced__rottger-forced-forcing__rottger-open__"
                         "rottger-open-forcing.json")


class Tally(BaseModel):
    pairs: int = 0


def _tab(rows, site) -> str:
    return "".join(f"<p class='toy-run'>{site.model_link(entry)}: {block.pairs} pairs</p>" for entry, block in rows)


TOY = RunMetric(
    name="toy_run", description="a planted run-level metric", block=Tally, compute=lambda data: Tally(pairs=3),
    empty=Tally)
TOY_BOARD = RunBoard(tab=RunTab(anchor="toy-run", title="Toy run", heading="Toy run heading", html=_tab),
                     page=lambda block: f"<h3>Toy run: {block.pairs} pairs</h3>",
                     v1=lambda entry: entry.pop("toy_old", None))


@pytest.fixture
def toy():
    register_run_metric(TOY)
    register_run_board(TOY.name, TOY_BOARD)
    yield TOY
    unregister_run_board(TOY.name)
    unregister_run_metric(TOY.name)


def _written(tmp_path: Path, data: dict, name: str) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_only_the_non_empty_blocks_of_metrics_with_a_board_are_kept(toy):
    kept = extract.run_blocks(RunMetrics.model_validate({"toy_run": {"pairs": 2}, "controls": {}}))
    assert kept == {"toy_run": Tally(pairs=2)}  # controls has no board; channels is empty
    assert extract.run_blocks(RunMetrics.model_validate({"toy_run": {"pairs": 0}})) == {}


def test_a_run_board_reaches_the_tab_and_the_model_page(toy, tmp_path):
    data = json.loads(PCT_ENTRY.read_text(encoding="utf-8"))
    data["toy_old"] = {"pairs": 7}  # the field an earlier entry kept it in
    entry = load_entry(_written(tmp_path, data, PCT_ENTRY.name))
    assert entry.run_block("toy_run") == Tally(pairs=7)
    page = index_page([entry], "now")
    assert '<a href="#toy-run" role="tab" data-tab="toy-run">Toy run</a>' in page
    panel = page.split('<section id="toy-run" class="tab-panel">')[1].split("</section>")[0]
    assert "<h2>Toy run heading</h2>" in panel and f"{escape(entry.model.id)}</a>: 7 pairs" in panel
    assert "<h3>Toy run: 7 pairs</h3>" in model_page(entry, "now")
    bare = load_entry(PCT_ENTRY)  # keeps no block: no entry has anything for the tab, so there is none
    assert 'data-tab="toy-run"' not in index_page([bare], "now") and "Toy run:" not in model_page(bare, "now")
    both = index_page([entry, bare], "now")  # beside an entry with a block, the bare one gets the empty block
    assert f"{escape(entry.model.id)}</a>: 7 pairs" in both and "</a>: 0 pairs" in both


@pytest.mark.parametrize("version", [1, 2])
def test_an_entry_with_the_old_channels_field_reads_with_the_same_comparisons(tmp_path, version):
    data = json.loads(PAIR_ENTRY.read_text(encoding="utf-8"))
    current = load_entry(PAIR_ENTRY)
    old = {k: v for k, v in data.items() if k != "run_metrics"}
    old["channels"] = data["run_metrics"]["channels"]
    if version == 1:  # version 1's fixed PCT fields
        for task in old["tasks"]:
            estimates = task.pop("estimates")
            task.update(economic=estimates["pct_coordinates"]["economic"],
                        social=estimates["pct_coordinates"]["social"])
        old["schema_version"] = 1
    migrated = load_entry(_written(tmp_path, old, PAIR_ENTRY.name))
    assert len(current.run_block("channels")) == 2
    assert migrated.run_block("channels") == current.run_block("channels")  # (its other run-level blocks are new)
    assert index_page([migrated], "now").count('data-pair="') == 2


def test_a_malformed_run_block_is_one_error_naming_the_field(tmp_path):
    data = json.loads(PAIR_ENTRY.read_text(encoding="utf-8"))
    data["run_metrics"]["channels"][1]["side_agreement"] = "most"
    with pytest.raises(PolibenchError, match=r"run_metrics\.channels\.1\.side_agreement"):
        load_entry(_written(tmp_path, data, PAIR_ENTRY.name))


def test_verify_catches_an_edited_run_level_block(tmp_path):
    for path in ENTRIES.glob(PAIR_ENTRY.name.removesuffix(".json") + ".*"):
        shutil.copyfile(path, tmp_path / path.name)
    data = json.loads(PAIR_ENTRY.read_text(encoding="utf-8"))
    data["run_metrics"]["channels"][0]["side_gap"]["economic"] += 0.5
    entry = load_entry(_written(tmp_path, data, PAIR_ENTRY.name))
    with pytest.raises(PolibenchError, match=r"run-level metrics differ .*run_metrics\.channels\[0\]\.side_gap"):
        check_entry(entry, tmp_path)
