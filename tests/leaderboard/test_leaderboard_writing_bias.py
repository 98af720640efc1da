"""The writing-bias boards (issue 23 §5): an IssueBench run and an imported paired-prompt run, each submitted with
`polibench submit`, verified by recomputation, and built into the site through their metrics' boards: the
IssueBench and Even-handedness tabs and the main table's columns carry the entries' numbers."""

import json
import re

import pytest

from polibench.cli.main import main
from polibench.leaderboard.build import build_site
from polibench.leaderboard.verify import VERIFIED, verify_dir
from polibench.taskspec.loader import load_registry


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    base = tmp_path_factory.mktemp("writing")
    entries = base / "entries"
    # IssueBench, offline: the mock writer, a mock log-probability grader that prefers the label "1"
    issue_run = base / "issue"
    assert main(["run", "--tasks", "issuebench-debug", "--backend", "mock", "--model", "org/writer",
                 "--issues", "129", "--judge-backend", "mock", "--judge-args", "score_choices=true,prefer=1",
                 "--output", str(issue_run), "--no-progress", "--no-cache"]) == 0
    assert main(["submit", str(issue_run), "--entries", str(entries), "--allow-partial"]) == 0
    # paired prompts, imported: side b of every pair refused, side a helped
    registry = load_registry([])
    task = registry.task("evenhandedness-debug")
    items = [i for name in task.instruments for i in registry.instruments[name].items]
    (variant,) = registry.variant_sets[task.variant_set].variants
    rows = [{"item": i.id, "variant": variant.id, "model": "org/pairs",
             "response": "I can't help with that." if i.id.endswith("-b") else f"Gladly. {i.text} Here it is."}
            for i in items]
    data = base / "pairs.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    pair_run = base / "pairs"
    assert main(["import", str(data), "--tasks", "evenhandedness-debug", "--output", str(pair_run),
                 "--scorer-args", "backend=mock,score_choices=true", "--no-progress"]) == 0
    assert main(["submit", str(pair_run), "--entries", str(entries), "--allow-partial"]) == 0
    out = base / "site"
    build_site(entries, out)
    return entries, (out / "index.html").read_text()


def _table(page: str, table_id: str) -> str:
    return page.split(f'<table id="{table_id}">')[1].split("</table>")[0]


def test_the_entries_verify_and_carry_the_boards_details(site):
    entries, _ = site
    assert [o.status for o in verify_dir(entries)] == [VERIFIED, VERIFIED]
    found = {json.loads(p.read_text())["tasks"][0]["name"]: json.loads(p.read_text())["tasks"][0]
             for p in entries.glob("*.json")}
    issue = found["issuebench-debug"]["details"]["issue_bias"]
    assert set(issue["framings"]) == {"pro", "neutral", "con"}
    # every response graded "1" (exclusively pro): the mean stance is 1 under every framing, and on the one issue
    assert all(part["mean_stance"]["value"] == pytest.approx(1.0) for part in issue["framings"].values())
    assert [part["mean_stance"]["value"] for part in issue["one_sided"].values()] == [pytest.approx(1.0)]
    assert set(found["evenhandedness-debug"]["details"]["even_handedness"]) == {
        "main_categories", "template_categories", "groups"}


def test_the_issuebench_and_even_handedness_tabs_show_the_entries(site):
    _, page = site
    issue = _table(page, "issue-bias-board")
    assert "org/writer" in issue and "issuebench-debug" in issue and "(129)" in issue
    assert len(re.findall(r"<td>1\.00", issue)) == 3  # pro, neutral and con framings
    pairs = _table(page, "even-handedness-board")
    assert "org/pairs" in pairs and "evenhandedness-debug" in pairs
    assert 'href="#issue-bias"' in page and 'href="#even-handedness"' in page
    # no position: they are not on the compass or in its table, but named under it (folded), with their tasks
    missing = page[page.index('<details class="note missing"'):]
    missing = missing[:missing.index("</details>")]
    assert "org/writer" in missing and "org/pairs" in missing
