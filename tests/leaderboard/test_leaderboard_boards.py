"""A metric's board (polibench.leaderboard.board) reaches the site with no edit to the leaderboard: its details are
extracted into the entry, its column, tooltip line, tab and model-page section render with the planted values, a
version-1 field it owns moves into the entry's estimates and details, nothing of it shows where no row has it (not
even its tab),
and a tab drawn from every entry sees them and the files beside the entries folder, which the site copies.
The built-in boards' version-1 fields (PCT counts and per-variant coordinates, Faulborn per-prefix, Liu's
generation bias) move under ``details`` of their metrics."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import BaseModel

from polibench.leaderboard import extract
from polibench.leaderboard.board import Bars, Board, Column, EntriesTab, Section, Tab, Value
from polibench.leaderboard.boards import register_board, unregister_board
from polibench.leaderboard.render import index_page, model_page
from polibench.leaderboard.schema import TaskResult, load_entry
from polibench.metrics.registry import Estimate, Metric, register_metric, unregister_metric
from polibench.report.registry import ShowContext

ENTRY = (Path(__file__).resolve().parents[2] / "leaderboard" / "entries"
         / "SmolLM2-135M-Instruct-Q4_1-GGUF-embedded__pct.json")


class ToyBlock(BaseModel):
    score: float


def _sections(found, estimates):
    if not found:
        return [Section("Toy buckets", note="No toy buckets.")]
    return [Section("Toy buckets", bars=(Bars("toy per bucket", tuple((k, Value(**v))
                                                                       for k, v in found["buckets"].items())),))]


def _v1(task: dict) -> tuple[dict, dict]:
    old = task.pop("toy_old", None)
    return ({"score": {"value": old}}, {"buckets": {"all": {"value": old}}}) if old is not None else ({}, {})


TOY = Metric(
    name="toy", key="toy", description="a planted metric", block=ToyBlock, compute=lambda data: None,
    estimates=(Estimate("score", "Toy score", -1, 1, "low", "high"),),
)
TOY_BOARD = Board(
    details=lambda block, ctx: {"buckets": {"a": {"value": block.score, "ci": None}}} if block.score else {},
    columns=(Column("score", "Toy score", "the planted metric's score"),),
    tooltip=(("Toy", "score"),),
    sections=_sections, section_order=0, v1=_v1,
    tab=Tab(anchor="toy", title="Toy tab", lead='<p class="lead">planted</p>', table_id="toy-board",
            head="<th>Score</th>",
            cells=lambda found, task: f'<td class="num">{found["buckets"]["a"]["value"]:.4f}</td>',
            missing="no toy task.", empty="No toy entries yet."),
)


@pytest.fixture
def toy():
    register_metric(TOY)
    register_board(TOY.name, TOY_BOARD)
    yield TOY
    unregister_board(TOY.name)
    unregister_metric(TOY.name)


class FakeResults:
    def __init__(self, blocks):
        self.blocks = blocks

    def metrics(self):
        return self.blocks


def test_a_board_s_details_are_extracted_and_empty_ones_left_out(toy):
    context = ShowContext(task="t", results=FakeResults([(toy, ToyBlock(score=0.25))]))
    assert extract.details(context) == {"toy": {"buckets": {"a": {"value": 0.25, "ci": None}}}}
    assert extract.details(ShowContext(task="t", results=FakeResults([(toy, ToyBlock(score=0.0))]))) == {}


def _with_toy(entry, value: float):
    task = entry.tasks[0]
    task = task.model_copy(update={"estimates": {**task.estimates, "toy": {"score": Value(value=value)}},
                                   "details": {**task.details, "toy": {"buckets": {"a": {"value": value}}}}})
    return entry.model_copy(update={"tasks": [task]})


def test_a_board_reaches_the_table_tooltip_tab_and_model_page(toy):
    entry = _with_toy(load_entry(ENTRY), 0.4321)
    page = index_page([entry], "now")
    assert ('<th data-type="num" aria-sort="none" data-tasks="pct" title="the planted metric&#x27;s score">Toy score'
            '</th>') in page  # shown for the tasks whose rows have a value
    row = page.split('<tr data-row="0"')[1].split("</tr>")[0]
    assert '<td class="num" data-value="0.432100">+0.43</td>' in row
    assert '<a href="#toy" role="tab" data-tab="toy">Toy tab</a>' in page
    board = page.split('<table id="toy-board">')[1].split("</table>")[0]
    assert '<td class="num">0.4321</td>' in board and entry.model.id in board
    data = json.loads(page.split('id="lb-data">')[1].split("</script>")[0])
    assert data[0]["extra"][-1] == ["Toy", 0.4321]
    model = model_page(entry, "now")
    assert model.index("<h3>Toy buckets</h3>") < model.index("<h3>Per prefix</h3>")  # section_order 0 comes first
    assert "<h4>toy per bucket</h4>" in model and "+0.43" in model.split("<h4>toy per bucket</h4>")[1]


def test_a_board_no_row_has_shows_no_column_and_no_tab(toy):
    entry = load_entry(ENTRY)
    page = index_page([entry], "now")
    assert "Toy score" not in page
    assert 'data-tab="toy"' not in page and 'id="toy"' not in page and "No toy entries yet." not in page
    assert "<h3>Toy buckets</h3>" in model_page(entry, "now") and "No toy buckets." in model_page(entry, "now")


def test_a_version_1_field_moves_where_its_board_says(toy):
    task = json.loads(ENTRY.read_text())["tasks"][0]
    task["toy_old"] = 0.7
    migrated = TaskResult.model_validate(task)
    assert migrated.estimate("toy", "score").value == 0.7
    assert migrated.details["toy"] == {"buckets": {"all": {"value": 0.7}}}


def test_the_built_in_version_1_fields_move_under_their_metrics_details():
    task = json.loads(ENTRY.read_text())["tasks"][0]
    details, estimates = task.pop("details"), task.pop("estimates")
    metric = {"value": 0.1, "ci": [0.0, 0.2]}
    task.update(economic=estimates["pct_coordinates"]["economic"], social=estimates["pct_coordinates"]["social"],
                pct_answered={"economic": 3, "social": 4}, pct_statements={"economic": 18, "social": 43},
                agree_share=0.5, per_variant={"v": {"economic": 1.0, "social": -1.0}},
                faulborn_bias={"cultural": metric}, per_prefix={"p": {"cultural": metric}},
                generation_bias={"overall": {"indirect": metric}})
    migrated = TaskResult.model_validate(task)
    assert migrated.estimates["pct_coordinates"] == {k: Value(**v) for k, v in estimates["pct_coordinates"].items()}
    assert migrated.details["pct_coordinates"] == {"answered": {"economic": 3, "social": 4},
                                                   "statements": {"economic": 18, "social": 43}, "agree_share": 0.5,
                                                   "per_variant": {"v": {"economic": 1.0, "social": -1.0}}}
    assert migrated.estimates["faulborn_bias"] == {"social": Value(**metric)}  # "cultural" is the old name
    assert migrated.details["faulborn_bias"] == {"per_prefix": {"p": {"social": metric}}}
    assert migrated.details["liu_bias"] == {"overall": {"indirect": metric}}
    assert details["pct_coordinates"]["answered"] != {"economic": 3, "social": 4}  # the planted counts were moved


@pytest.mark.parametrize("metric, details, field", [
    ("pct_coordinates", {"agree_share": 2.0}, "details.pct_coordinates.agree_share"),
    ("pct_coordinates", {"per_variant": 5}, "details.pct_coordinates.per_variant"),
    ("faulborn_bias", {"per_prefix": {"p": {"total": {"value": "x"}}}}, "details.faulborn_bias.per_prefix.p.total"),
])
def test_malformed_details_are_one_error_naming_the_field(tmp_path, metric, details, field):
    from polibench.errors import PolibenchError

    data = json.loads(ENTRY.read_text())
    data["tasks"][0]["details"][metric] = details
    path = tmp_path / ENTRY.name
    path.write_text(json.dumps(data))
    with pytest.raises(PolibenchError, match=field.replace(".", r"\.")):
        load_entry(path)


def _entries_html(entries, entries_dir, site):
    if entries_dir is None:
        return '<p class="note">No toy file.</p>'
    beside = (entries_dir.parent / "toy" / "data.txt").read_text().strip()
    return f'<p id="toy-site">{len(entries)} entries; {beside}; {site.model_link(entries[0])}</p>'


TOY_SITE = Metric(name="toy_site", key="toy_site", description="a planted metric with a tab over every entry",
                  block=ToyBlock, compute=lambda data: None)
TOY_SITE_BOARD = Board(entries_tab=EntriesTab(anchor="toy-site", title="Toy site", heading="Toy over entries",
                                              html=_entries_html, files=("toy/data.txt", "toy/absent.txt")))


def test_an_entries_tab_sees_every_entry_and_the_files_beside_them(tmp_path):
    from polibench.leaderboard.build import build_site

    (tmp_path / "entries").mkdir()
    (tmp_path / "entries" / ENTRY.name).write_bytes(ENTRY.read_bytes())
    (tmp_path / "toy").mkdir()
    (tmp_path / "toy" / "data.txt").write_text("planted 0.8765\n")
    register_metric(TOY_SITE)
    register_board(TOY_SITE.name, TOY_SITE_BOARD)
    try:
        site = build_site(tmp_path / "entries", tmp_path / "site").out
        bare = index_page([load_entry(ENTRY)], "now")
    finally:
        unregister_board(TOY_SITE.name)
        unregister_metric(TOY_SITE.name)
    page = (site / "index.html").read_text()
    assert '<a href="#toy-site" role="tab" data-tab="toy-site">Toy site</a>' in page
    panel = page.split('<section id="toy-site" class="tab-panel">')[1].split("</section>")[0]
    assert "<h2>Toy over entries</h2>" in panel and "1 entries; planted 0.8765; <a href=\"models/" in panel
    assert (site / "toy" / "data.txt").read_text() == "planted 0.8765\n" and not (site / "toy" / "absent.txt").exists()
    assert '<p class="note">No toy file.</p>' in bare  # drawn without an entries folder


def test_the_built_in_families_register_the_built_in_boards_in_the_metric_registry_s_order():
    """Every family setup.cfg declares is installed and loads; their boards come back in the metric registry's
    order (the order of the site's columns and tabs), and a board that is not a Board is refused by name."""
    from polibench.kit.registry import BUILTIN_FAMILIES, families
    from polibench.leaderboard.boards import BOARDS, boards, run_boards

    assert {f.name for f in families()} >= set(BUILTIN_FAMILIES)
    assert [name for name, _ in boards()] == ["pct_coordinates", "faulborn_bias", "category_bias", "even_handedness",
                                              "liu_bias", "issue_bias"]
    assert [name for name, _ in run_boards()] == ["channels", "language_effect", "answering"]
    with pytest.raises(TypeError, match="is not a polibench Board"):
        BOARDS.add("toy", object())
    assert "toy" not in BOARDS
