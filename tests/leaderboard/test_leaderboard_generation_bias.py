"""The generation-bias tab: an entry of a Liu task made by `polibench submit`, verified by recomputation, its
numbers in the entry, and the tab rendered in headless Chromium."""

import json

import pytest
from leaderboard_helpers import ScriptedBackend, _registry
from test_leaderboard_browser import css, headless_chromium, open_page

from polibench.cli.main import main
from polibench.leaderboard.build import build_site
from polibench.leaderboard.verify import VERIFIED, verify_dir
from tests.tiny_models import tiny_ideology_classifier


@pytest.fixture(scope="module")
def entries(tmp_path_factory):
    from polibench.pipeline.run import RunOptions, evaluate

    base = tmp_path_factory.mktemp("genbias")
    judge = tiny_ideology_classifier(base / "judge")
    run = base / "run"
    options = RunOptions(limit=4, samples_per_prompt=2, scorer="ideology_classifier",
                         scorer_args={"model": str(judge), "device": "cpu"}, show_progress=False, command=["test"])
    evaluate(["liu-gender"], _registry(), ScriptedBackend("org/liu-model"), run, options)
    entries = base / "entries"
    assert main(["submit", str(run), "--entries", str(entries), "--allow-partial"]) == 0
    return entries


def test_entry_carries_the_recomputed_generation_bias(entries):
    (path,) = sorted(p for p in entries.glob("*.json"))
    task = json.loads(path.read_text())["tasks"][0]
    gb = task["details"]["liu_bias"]
    assert set(gb) == {"overall", "male", "female"}
    assert gb["overall"]["indirect"]["value"] == pytest.approx(
        (gb["male"]["indirect"]["value"] + gb["female"]["indirect"]["value"]) / 2, abs=1e-6)
    for part in gb.values():  # observed, the permutation null, the excess over it and the p-value
        for measure in ("indirect", "direct"):
            assert part[f"{measure}_excess"]["value"] == pytest.approx(
                part[measure]["value"] - part[f"{measure}_null"]["value"], abs=2e-6)
            assert part[f"{measure}_excess"]["ci"] is not None and 0 < part[f"{measure}_p"]["value"] <= 1
    assert [o.status for o in verify_dir(entries)] == [VERIFIED]


def test_tampered_generation_bias_fails_verification(entries, tmp_path):
    import shutil

    copy = tmp_path / "entries"
    shutil.copytree(entries, copy)
    (path,) = sorted(copy.glob("*.json"))
    data = json.loads(path.read_text())
    data["tasks"][0]["details"]["liu_bias"]["male"]["indirect"]["value"] += 0.01
    path.write_text(json.dumps(data))
    (outcome,) = verify_dir(copy)
    assert outcome.status != VERIFIED and "details.liu_bias" in outcome.detail
    data["tasks"][0]["details"]["liu_bias"]["male"]["indirect"]["value"] -= 0.01
    data["tasks"][0]["details"]["liu_bias"]["male"]["indirect_null"]["value"] += 0.01  # the null is checked too
    path.write_text(json.dumps(data))
    (outcome,) = verify_dir(copy)
    assert outcome.status != VERIFIED and "details.liu_bias" in outcome.detail


@pytest.fixture(scope="module")
def driver(tmp_path_factory):
    yield from headless_chromium(tmp_path_factory)


def test_generation_bias_tab_renders_in_the_browser(entries, driver, tmp_path):
    site = build_site(entries, tmp_path / "site").out
    (path,) = sorted(entries.glob("*.json"))
    overall = json.loads(path.read_text())["tasks"][0]["details"]["liu_bias"]["overall"]
    open_page(driver, site.resolve().as_uri() + "/index.html")
    panel = driver.find_element("id", "generation")
    assert not panel.is_displayed()
    driver.find_element("css selector", '.tabs a[data-tab="generation"]').click()
    assert panel.is_displayed()
    (row,) = css(driver, "#generation-board tbody tr")
    cells = row.find_elements("css selector", "td")
    assert cells[0].text.startswith("org/liu-model") and cells[1].text.startswith("liu-gender")
    low, high = overall["indirect"]["ci"]
    assert cells[2].text.replace("\n", "") == f"{overall['indirect']['value']:.4f}[{low:.4f}, {high:.4f}]"
    excess, note = overall["indirect_excess"], cells[4].find_element("css selector", ".sub").text
    low, high = excess["ci"]
    assert cells[4].text.replace("\n", "").startswith(f"{excess['value']:.4f}[{low:.4f}, {high:.4f}]")
    assert note.startswith(f"null {overall['indirect_null']['value']:.4f} · p {overall['indirect_p']['value']:.3f}")
    assert note.endswith("≈ null") == (overall["indirect_p"]["value"] >= 0.05)
    assert "male: indirect" in cells[6].text and "female: indirect" in cells[6].text
    assert "excess" in cells[6].text
    assert not [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
