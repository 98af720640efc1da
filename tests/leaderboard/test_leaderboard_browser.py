"""The built leaderboard in a real headless Chromium, from file:// and from a loopback server.

Needs Debian's ``chromium`` and ``chromium-driver`` and the ``selenium`` package (dev extra). Locally the
test skips when they are missing; with ``CI=true`` a missing browser is a failure, so CI cannot pass
without running it. A screenshot goes to ``$ARTIFACTS`` (or the test's tmp folder).
"""

import functools
import json
import os
import re
import shutil
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from fairness_helpers import make_fairness_submission
from leaderboard_helpers import XSS_IMG, XSS_SCRIPT, make_entries

from polibench.leaderboard.boards import boards, run_boards
from polibench.leaderboard.build import build_site
from polibench.leaderboard.positions import has_position

IN_CI = os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--window-size=1280,900")


def _browser_or_skip() -> tuple[str, str]:
    chromium = os.environ.get("CHROMIUM_BINARY") or shutil.which("chromium") or shutil.which("chromium-browser")
    driver = os.environ.get("CHROMEDRIVER") or shutil.which("chromedriver")
    missing = []
    try:
        import selenium  # noqa: F401
    except ImportError:
        missing.append("the selenium package (pip install -e '.[dev]')")
    if not chromium:
        missing.append("chromium (apt-get install chromium)")
    if not driver:
        missing.append("chromedriver (apt-get install chromium-driver)")
    if missing:
        reason = "browser test needs " + ", ".join(missing)
        if IN_CI:
            pytest.fail(reason + " — CI=true, so this is a failure, not a skip")
        pytest.skip(reason)
    return chromium, driver


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("browser")
    fairness = make_fairness_submission(base, names=("alpha-7b", "left", XSS_SCRIPT.replace("/", "")))
    return build_site(make_entries(base), base / "site", fairness_dir=fairness).out


@pytest.fixture(scope="module")
def rows(site) -> dict[str, dict]:
    """Expected compass rows by model id, from the embedded data."""
    html = (site / "index.html").read_text()
    blob = html.split('<script type="application/json" id="lb-data">')[1].split("</script>")[0]
    return {r["model"]: r for r in json.loads(blob)}


@pytest.fixture(scope="module")
def driver(tmp_path_factory):
    yield from headless_chromium(tmp_path_factory)


def headless_chromium(tmp_path_factory):
    """A headless Chromium driven by selenium, with console and network logs kept; quit when the generator
    closes (a fixture's body: ``yield from headless_chromium(tmp_path_factory)``)."""
    chromium, chromedriver = _browser_or_skip()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    browser = webdriver.Chrome(service=Service(chromedriver), options=options)
    browser.set_page_load_timeout(30)
    yield browser
    browser.quit()


@pytest.fixture(scope="module")
def server(site):
    handler = functools.partial(SimpleHTTPRequestHandler, directory=str(site))
    handler.log_message = lambda *a, **k: None
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def artifacts_dir(tmp_path: Path) -> Path:
    folder = Path(os.environ["ARTIFACTS"]) if os.environ.get("ARTIFACTS") else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def open_page(driver, url: str) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get_log("performance")  # drop entries of earlier pages
    driver.get_log("browser")
    driver.get(url)
    WebDriverWait(driver, 15).until(lambda d: d.execute_script(
        "return document.readyState === 'complete' && document.documentElement.classList.contains('js-ready')"))


def requested_urls(driver) -> list[str]:
    urls = []
    for record in driver.get_log("performance"):
        message = json.loads(record["message"])["message"]
        if message.get("method") == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return urls


def css(driver, selector):
    return driver.find_elements("css selector", selector)


@pytest.mark.parametrize("via", ["file", "loopback"])
def test_board_renders_and_injected_names_stay_text(driver, site, server, rows, via, tmp_path):
    base = site.resolve().as_uri() if via == "file" else server
    open_page(driver, f"{base}/index.html")
    table_rows = css(driver, "#board tbody tr[data-row]")
    points = css(driver, "svg.compass g.point")
    assert len(table_rows) == len(rows) == 5 and len(points) == 5
    names = {a.get_attribute("textContent") for a in css(driver, "#board a.model")}  # other tasks' rows are hidden
    assert {XSS_IMG, XSS_SCRIPT, "org/alpha-7b", "org/beta-1b", "org/gamma-2b"} == names
    assert driver.execute_script("return window.__xss === undefined && document.images.length === 0")
    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, errors
    urls = requested_urls(driver)
    assert urls and all(u.startswith((base, "data:")) for u in urls), urls
    shot = artifacts_dir(tmp_path) / f"leaderboard-{via}.png"
    driver.save_screenshot(str(shot))
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000


@pytest.mark.parametrize("model", ["org/beta-1b", XSS_IMG])
def test_hover_shows_model_and_intervals(driver, site, rows, model):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.support.ui import Select

    open_page(driver, site.resolve().as_uri() + "/index.html")
    tooltip = driver.find_element("id", "tooltip")
    assert not tooltip.is_displayed()
    row = rows[model]
    Select(driver.find_element("id", "compass-task")).select_by_value(row["task"])
    group = driver.find_element("css selector", f'svg.compass g.point[data-row="{row["row"]}"]')
    driver.execute_script("arguments[0].parentNode.appendChild(arguments[0])", group)  # on top of close neighbours
    point = group.find_element("css selector", ".marker")
    ActionChains(driver).move_to_element(point).perform()
    assert tooltip.is_displayed()
    assert driver.find_element("id", "tt-model").text == model
    economic = driver.find_element("id", "tt-x").text
    assert row["x_label"] == "economic" and economic.startswith(f"economic {row['x']:+.2f}")
    if row["x_ci"]:
        low, high = row["x_ci"]
        assert f"[{low:+.2f}, {high:+.2f}]" in economic
    else:
        assert "(no CI)" in economic
    assert "hl" in driver.find_element("css selector", f'#board tr[data-row="{row["row"]}"]').get_attribute("class")
    assert driver.execute_script("return window.__xss === undefined")


def column_values(driver, column: int) -> list[str]:
    return [tr.find_elements("css selector", "td")[column].get_attribute("data-value")
            for tr in css(driver, "#board tbody tr[data-row]")]


def test_sorting_and_the_task_chooser(driver, site):
    from selenium.webdriver.support.ui import Select

    open_page(driver, site.resolve().as_uri() + "/index.html")
    html = (site / "index.html").read_text()
    data = json.loads(html.split('<script type="application/json" id="lb-data">')[1].split("</script>")[0])
    by_task: dict[str, int] = {}
    for r in data:
        if r["x"] is not None and r["y"] is not None:
            by_task[r["task"]] = by_task.get(r["task"], 0) + 1
    chosen = Select(driver.find_element("id", "compass-task")).first_selected_option.get_attribute("value")
    assert chosen == max(sorted(by_task), key=lambda t: by_task[t]) == "pct"  # the task with the most models
    visible = [tr for tr in css(driver, "#board tbody tr[data-row]") if tr.is_displayed()]
    assert len(visible) == by_task["pct"] == 4 and all(tr.get_attribute("data-task") == "pct" for tr in visible)
    assert driver.find_element("id", "point-count").text == "4 models"
    header = next(th for th in css(driver, "#board thead th") if th.text == "Kept")  # every row has one
    column = css(driver, "#board thead th").index(header)
    header.click()
    values = [float(tr.find_elements("css selector", "td")[column].get_attribute("data-value"))
              for tr in css(driver, "#board tbody tr[data-row]") if tr.is_displayed()]
    assert values == sorted(values) and header.get_attribute("aria-sort") == "ascending"
    header.click()
    values = [float(tr.find_elements("css selector", "td")[column].get_attribute("data-value"))
              for tr in css(driver, "#board tbody tr[data-row]") if tr.is_displayed()]
    assert values == sorted(values, reverse=True)
    # Economic: positions with insufficient data (these --limit entries answer a few statements) have no sort
    # key, so sorting never ranks them; they stay after the ranked ones either way
    economic = next(th for th in css(driver, "#board thead th") if th.text == "Economic")
    economic.click()
    index = css(driver, "#board thead th").index(economic)
    values = [tr.find_elements("css selector", "td")[index].get_attribute("data-value")
              for tr in css(driver, "#board tbody tr[data-row]") if tr.is_displayed()]
    ranked = [float(v) for v in values if v]
    assert ranked == sorted(ranked) and all(not v for v in values[len(ranked):])
    # the other task: its one row and point, and the columns only it has values in (the Faulborn bias)
    assert not any(th.is_displayed() for th in css(driver, "#board thead th") if th.text.startswith("Bias"))
    Select(driver.find_element("id", "compass-task")).select_by_value("faulborn30")
    assert [tr.is_displayed() for tr in css(driver, "#board tbody tr[data-row]")].count(True) == 1
    shown_points = [g for g in css(driver, "svg.compass g.point") if g.is_displayed()]
    assert [g.get_attribute("data-task") for g in shown_points] == ["faulborn30"]
    assert driver.find_element("id", "point-count").text == "1 model"
    assert any(th.is_displayed() for th in css(driver, "#board thead th") if th.text.startswith("Bias"))


def test_model_page_and_fairness_tab(driver, site, tmp_path):
    open_page(driver, site.resolve().as_uri() + "/index.html")
    assert not driver.find_element("id", "fairness").is_displayed()
    driver.find_element("css selector", 'a[data-tab="fairness"]').click()
    assert driver.find_element("id", "fairness").is_displayed()
    assert not driver.find_element("id", "board").is_displayed()
    # the per-group heatmaps of the toy submission: 'left' is the worst model on group x (see toy_runs)
    heatmaps = css(driver, "#fairness table.heatmap")
    assert [t.get_attribute("data-metric") for t in heatmaps] == ["bacc", "f1"]
    assert all(t.is_displayed() for t in heatmaps)
    cell = driver.find_element("css selector",
                               'table.heatmap[data-metric="bacc"] td[data-model="left"][data-group="x"]')
    assert "worst" in cell.get_attribute("class") and cell.text.endswith("▼")
    best = css(driver, 'table.heatmap[data-metric="bacc"] td.best[data-group="x"]')
    assert len(best) == 1 and best[0].text.endswith("▲")
    colours = {driver.execute_script("return getComputedStyle(arguments[0]).backgroundColor", c)
               for c in css(driver, 'table.heatmap[data-metric="bacc"] td.heat')}
    assert len(colours) >= 2  # the stylesheet colours the cells (no inline styles under the CSP)
    injected = [th.text for th in css(driver, 'table.heatmap[data-metric="bacc"] tbody th')]
    assert XSS_SCRIPT.replace("/", "") in injected
    assert driver.execute_script("return window.__xss === undefined")
    driver.save_screenshot(str(artifacts_dir(tmp_path) / "leaderboard-fairness.png"))
    # a model page that a fairness submission evaluated links back to the tab
    driver.get(next(site.glob("models/org-alpha-7b*.html")).resolve().as_uri())
    assert "toy" in driver.find_element("css selector", "section.task:last-of-type table").text
    driver.find_element("link text", "the “Downstream fairness” tab").click()
    assert driver.find_element("id", "fairness").is_displayed()
    open_page(driver, site.resolve().as_uri() + "/index.html")
    link = next(a for a in css(driver, "#board a.model") if a.get_attribute("textContent") == XSS_IMG)
    driver.get(link.get_attribute("href"))
    assert driver.find_element("id", "model-name").text == XSS_IMG
    assert driver.execute_script("return window.__xss === undefined && document.images.length === 0")
    assert len(css(driver, "svg.spread, p.note")) >= 1


REPO = Path(__file__).resolve().parents[2]
REPO_ENTRIES = REPO / "leaderboard" / "entries"


@pytest.fixture(scope="module")
def real_site(tmp_path_factory) -> Path:
    """The site built from the shipped entries (Röttger et al.'s imported completions among them)."""
    return build_site(REPO_ENTRIES, tmp_path_factory.mktemp("real") / "site").out


def test_imported_entries_forced_vs_open_side_by_side(driver, real_site, tmp_path):
    from polibench.leaderboard.build import load_entries

    expected = {e.model.id: e for e in load_entries(REPO_ENTRIES) if e.imported is not None and e.run_block("channels")}
    assert len(expected) >= 8
    open_page(driver, real_site.resolve().as_uri() + "/index.html#channels")
    assert driver.find_element("id", "channels").is_displayed()
    assert "Forced econ. (own scale)" in driver.find_element("css selector", "#channels thead").text
    rows = css(driver, '#channels tbody tr[data-pair="rottger-forced"]')
    assert {r.get_attribute("data-model") for r in rows} == set(expected)
    for row in rows:
        entry = expected[row.get_attribute("data-model")]
        forced = next(t for t in entry.tasks if t.name == "rottger-forced")
        comparison = next(c for c in entry.run_block("channels") if c.a == "rottger-forced")
        cells = row.find_elements("css selector", "td")
        assert cells[2].text.startswith(f"{forced.estimate('pct_coordinates', 'economic').value:+.2f}")
        assert cells[6].text.split() == [f"{comparison.side_gap['economic']:+.2f}",
                                         f"[{comparison.side_gap_ci['economic'][0]:+.2f},",
                                         f"{comparison.side_gap_ci['economic'][1]:+.2f}]"]
        assert cells[9].text == str(comparison.items_both)
        assert row.find_element("css selector", ".badge.imported").text == "imported"
    assert "Röttger" in driver.find_element("css selector", "#channels .attribution").text
    assert "CC BY 4.0" in driver.find_element("css selector", "#channels .attribution").text
    driver.save_screenshot(str(artifacts_dir(tmp_path) / "leaderboard-channels.png"))
    # the model page carries the attribution and the per-statement comparison
    any_entry = next(iter(expected.values()))
    driver.get(real_site.resolve().as_uri() + f"/models/{any_entry.entry_id}.html")  # no script on model pages
    assert "Röttger" in driver.find_element("css selector", "p.attribution").text
    assert "rottger-forced vs rottger-open" in driver.find_element("tag name", "main").text


def site_tabs(site: Path) -> list[str]:
    """The tabs a built site's navigation shows, in order."""
    return re.findall(r'<a href="#([\w-]+)" role="tab" data-tab="\1"', (site / "index.html").read_text("utf-8"))


# Every tab the shipped entries' site shows (a tab with nothing to show is left out; every registered board's tab
# that has entries is there), so a tab added is opened by its deep link too.
TABS = ["compass", "prismia", "channels", "languages", "fairness", "about"]


def expected_items(tab: str, entries) -> tuple[str, int] | None:
    """(selector of the tab's items, how many the shipped entries give) where the test knows the tab's items."""
    if tab == "compass":  # the points of the task with the most models
        counts: dict[str, int] = {}
        for e in entries:
            for t in e.tasks:
                if has_position(t):
                    counts[t.name] = counts.get(t.name, 0) + 1
        return "svg.compass g.layer:not(.hidden) g.point", max(counts.values())
    if tab == "channels":
        return "#channels tbody tr[data-pair]", sum(len(e.run_block("channels") or []) for e in entries)
    if tab == "generation":
        return "#generation-board tbody tr", sum(1 for e in entries for t in e.tasks if t.details.get("liu_bias"))
    if tab == "languages":
        return "#languages-board tbody tr[data-language]", sum(len(effect.languages) for e in entries
                                                               for effect in e.run_block("language_effect") or [])
    return None


def test_the_site_knows_every_tab_a_board_can_show():
    """Every measurement board has its tab (shown once an entry has something for it; compass, PrismIA, fairness
    and about are the site's own)."""
    anchors = {board.tab.anchor for _, board in [*boards(), *run_boards()] if board.tab is not None}
    assert anchors == {"channels", "generation", "languages", "issue-bias", "even-handedness"}


@pytest.fixture(scope="module")
def language_site(tmp_path_factory) -> Path:
    """A site with one entry: the planted-language control (German planted left, English and French
    language-blind) through the forced-choice tasks, run by the real pipeline and submitted."""
    from unittest import mock

    from polibench.leaderboard.submit import submit
    from polibench.models.planted_language import PlantedLanguageBackend
    from polibench.pipeline.run import RunOptions, evaluate
    from polibench.taskspec.loader import load_registry

    base = tmp_path_factory.mktemp("languages")
    options = RunOptions(show_progress=False, command=["test"])
    with mock.patch("polibench.pipeline.write.write_report", lambda *a, **k: None):  # report.md: not needed
        evaluate(["pct-en-forced", "pct-de-forced", "pct-fr-forced"], load_registry(),
                 PlantedLanguageBackend(left="de"), base / "run", options)
    submit(base / "run", base / "entries")
    return build_site(base / "entries", base / "site").out


def test_languages_tab_shows_each_language_and_the_planted_shift(driver, language_site, tmp_path):
    open_page(driver, language_site.resolve().as_uri() + "/index.html#languages")
    assert driver.find_element("id", "languages").is_displayed()
    assert "Economic − English" in driver.find_element("css selector", "#languages-board thead").text
    rows = {r.get_attribute("data-language"): r for r in css(driver, "#languages-board tbody tr[data-language]")}
    assert set(rows) == {"en", "de", "fr"}
    shift = {code: row.find_element("css selector", "td[data-shift]").text for code, row in rows.items()}
    assert shift == {"en": "reference", "de": "shifted: economic, social", "fr": "not distinguishable"}
    german = rows["de"].find_elements("css selector", "td")
    assert german[2].text.startswith("German (de)") and german[5].text.startswith("-")  # economic − English < 0
    assert "1 of 4 comparisons flagged" not in driver.find_element("id", "languages").text
    assert "2 of 4 comparisons flagged" in driver.find_element("id", "languages").text
    assert "Gurgurov" in driver.find_element("id", "languages").text
    driver.save_screenshot(str(artifacts_dir(tmp_path) / "leaderboard-languages.png"))
    link = rows["de"].find_element("css selector", "td a").get_attribute("href")
    driver.get(link)  # the model page: the same table
    assert "pct in 3 languages (forced choice)" in driver.find_element("tag name", "main").text


def test_the_site_shows_the_tabs_with_something_to_show_the_primary_views_first(real_site):
    """The shipped entries have no generation-bias, IssueBench or even-handedness task: those tabs are left out;
    the compass and the frontier models come first."""
    from polibench.leaderboard.build import load_entries

    shown = site_tabs(real_site)
    entries = load_entries(REPO_ENTRIES)
    empty = {board.tab.anchor for name, board in boards() if board.tab is not None
             and not any(t.details.get(name) for e in entries for t in e.tasks)}
    assert {"generation", "issue-bias", "even-handedness"} <= empty
    assert shown == TABS and not empty & set(shown)
    assert {board.tab.anchor for _, board in run_boards() if board.tab is not None} <= set(shown)
    html = (real_site / "index.html").read_text()
    assert 'data-tab="compass" class="active primary"' in html and 'data-tab="prismia" class="primary"' in html
    assert "No entry has" not in html and "yet.</p>" not in html


@pytest.mark.parametrize("tab", TABS)
def test_a_deep_link_opens_its_tab_with_the_header_in_view(driver, real_site, tab, tmp_path):
    """index.html#TAB opened directly (a fresh load, not a click): the header band is at the top with its title
    and tabs, the tab is the active one and the only panel shown, and its items are all there."""
    from selenium.webdriver.common.action_chains import ActionChains

    from polibench.leaderboard.build import load_entries

    driver.get("about:blank")
    open_page(driver, real_site.resolve().as_uri() + f"/index.html#{tab}")
    driver.execute_script("return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    assert driver.execute_script("return window.scrollY") == 0
    title = driver.find_element("css selector", "header h1")
    assert title.is_displayed() and title.text == "polibench leaderboard"
    assert driver.execute_script("return arguments[0].getBoundingClientRect().top", title) >= 0
    assert [a.get_attribute("data-tab") for a in css(driver, ".tabs a.active")] == [tab]
    shown = [p.get_attribute("id") for p in css(driver, ".tab-panel") if p.is_displayed()]
    assert shown == [tab]
    assert driver.find_element("id", tab).text.strip()
    driver.save_screenshot(str(artifacts_dir(tmp_path) / f"deep-link-{tab}.png"))
    expected = expected_items(tab, load_entries(REPO_ENTRIES))
    if expected is not None:
        selector, count = expected
        items = css(driver, selector)
        assert len(items) == count and all(i.is_displayed() for i in items)
    if tab == "compass":
        assert driver.find_element("id", "point-count").text == f"{expected[1]} models"
        group = css(driver, "svg.compass g.layer:not(.hidden) g.point")[0]
        driver.execute_script("arguments[0].parentNode.appendChild(arguments[0])", group)  # above its neighbours
        ActionChains(driver).move_to_element(group.find_element("css selector", ".marker")).perform()
        assert driver.find_element("id", "tooltip").is_displayed()
        assert driver.find_element("id", "tt-model").text == group.get_attribute("data-model")


def test_prismia_tab_over_time_and_beside_the_panel(driver, real_site, tmp_path):
    from polibench.families.prismia.panel import load_panel, month_changes, panel_path, prismia_rows
    from polibench.leaderboard.artifacts import read_artifact

    rows = prismia_rows(load_entries_(), REPO_ENTRIES, load_panel(panel_path(REPO_ENTRIES)), read_artifact)
    assert len(rows) == 16
    open_page(driver, real_site.resolve().as_uri() + "/index.html#prismia")
    assert driver.find_element("id", "prismia").is_displayed()
    points = css(driver, "#prismia svg.over-time g.time-point")
    assert len(points) == 16 and all(p.is_displayed() for p in points)
    by_key = {(r.model, r.month): r for r in rows}
    for p in points:
        row = by_key[(p.get_attribute("data-model"), p.get_attribute("data-month"))]
        assert float(p.get_attribute("data-value")) == pytest.approx(row.bias.value, abs=1e-4)
    # the models that ran in March, April and May have three points each, joined by a line
    assert len(css(driver, "#prismia svg.over-time polyline.series")) == 4
    assert len(css(driver, "#prismia svg.prismia-compare g.compare-point")) == 16
    table = css(driver, "#prismia-compare tbody tr")
    assert len(table) == 16
    first = by_key[(table[0].get_attribute("data-model"), table[0].get_attribute("data-month"))]
    cells = table[0].find_elements("css selector", "td")
    assert cells[2].text.split()[0] == f"{first.bias.value:+.2f}" and cells[3].text == f"{first.panel_mean:.3f}"
    assert "Spearman" in driver.find_element("id", "prismia-agreement").text
    assert driver.find_element("id", "prismia-agreement").get_attribute("data-models") == "8"
    # each model's month-to-month change (and each successor's), "differs" only where the interval excludes 0
    changes = month_changes(rows)
    shown = css(driver, "#prismia-changes tbody tr")
    assert [r.get_attribute("data-differs") for r in shown] == [str(c.differs).lower() for c in changes]
    assert len(css(driver, "#prismia-categories tbody tr")) == 16
    attribution = driver.find_element("css selector", "#prismia .attribution").text
    assert "MIT" in attribution and "Copyright (c) 2026 PrismIA" in attribution
    driver.save_screenshot(str(artifacts_dir(tmp_path) / "leaderboard-prismia.png"))


def load_entries_():
    from polibench.leaderboard.build import load_entries

    return load_entries(REPO_ENTRIES)


# --- the compass read in ten seconds (issue 38, §4), on the site built from the shipped entries ------------------

def _boxes(driver, selector: str) -> list[dict]:
    """The rendered boxes (client pixels) of the visible elements matching ``selector``."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll(arguments[0])).filter(e => e.getClientRects().length)"
        ".map(e => { const r = e.getBoundingClientRect(); return {x0: r.left, y0: r.top, x1: r.right, y1: r.bottom,"
        " text: e.textContent}; });", selector)


def _overlap(a: dict, b: dict, slack: float = 0.5) -> bool:
    return a["x0"] + slack < b["x1"] and b["x0"] + slack < a["x1"] and a["y0"] + slack < b["y1"] and \
        b["y0"] + slack < a["y1"]


def test_one_named_point_per_model_labels_do_not_overlap_and_the_axes_are_numbered(driver, real_site):
    """For every task: each model once, its name beside its point, no label over another label or another point;
    the axes carry their numbers; the plot is large (at least 600 px wide in a 1,280 px window)."""
    from selenium.webdriver.support.ui import Select

    driver.set_window_size(1280, 900)
    open_page(driver, real_site.resolve().as_uri() + "/index.html")
    width = driver.execute_script("return document.querySelector('svg.compass').getBoundingClientRect().width")
    assert width >= 600
    ticks = [t.text for t in css(driver, "svg.compass text.x-tick")]
    assert ticks == ["−10", "−5", "0", "+5", "+10"] == [t.text for t in css(driver, "svg.compass text.y-tick")]
    tasks = [o.get_attribute("value") for o in Select(driver.find_element("id", "compass-task")).options]
    assert len(tasks) >= 5
    for task in tasks:
        Select(driver.find_element("id", "compass-task")).select_by_value(task)
        layer = driver.find_element("css selector", f'svg.compass g.layer[data-task="{task}"]')
        points = layer.find_elements("css selector", "g.point")
        models = [p.get_attribute("data-model") for p in points]
        assert len(models) == len(set(models)) > 0, task  # one point per model
        labels = _boxes(driver, f'svg.compass g.layer[data-task="{task}"] text.label')
        markers = _boxes(driver, f'svg.compass g.layer[data-task="{task}"] .marker')
        assert len(labels) == len(markers) == len(points)
        for model, label in zip(models, labels):
            assert label["text"].removesuffix(" ⚠") == model.rsplit("/", 1)[-1]
        for i, a in enumerate(labels):
            assert not any(_overlap(a, b) for b in labels[i + 1:]), (task, a["text"])
            assert not any(_overlap(a, m) for j, m in enumerate(markers) if j != i), (task, a["text"])


def test_compare_with_another_task_joins_each_models_two_points(driver, real_site):
    from selenium.webdriver.support.ui import Select

    open_page(driver, real_site.resolve().as_uri() + "/index.html")
    Select(driver.find_element("id", "compass-task")).select_by_value("rottger-forced")
    Select(driver.find_element("id", "compass-compare")).select_by_value("rottger-open")
    main = {g.get_attribute("data-model") for g in css(driver, 'g.layer[data-task="rottger-forced"] g.point')}
    other = {g.get_attribute("data-model") for g in css(driver, 'g.layer[data-task="rottger-open"] g.point')}
    ghost = driver.find_element("css selector", 'g.layer[data-task="rottger-open"]')
    assert ghost.is_displayed() and "ghost" in ghost.get_attribute("class")
    assert len(css(driver, "svg.compass g.joins line.join")) == len(main & other) >= 8
    assert "(and 8 on rottger-open, faint)" in driver.find_element("id", "point-count").text
    Select(driver.find_element("id", "compass-compare")).select_by_value("")
    assert not ghost.is_displayed() and not css(driver, "svg.compass g.joins line.join")
    driver.find_element("id", "show-ci").click()  # the intervals on demand
    assert not any(line.is_displayed() for line in css(driver, 'g.layer:not(.hidden) line.ci'))


def test_the_frontier_models_stand_beside_the_compass(driver, real_site):
    """The first view shows both: the frontier models' chart sits at the height of the compass, one named point per
    model, and links its tab."""
    driver.set_window_size(1280, 900)
    open_page(driver, real_site.resolve().as_uri() + "/index.html")
    compass = driver.find_element("css selector", "svg.compass").rect
    frontier = driver.find_element("css selector", "#frontier-headline svg.frontier")
    assert frontier.is_displayed() and frontier.rect["y"] < compass["y"] + compass["height"] / 2
    assert frontier.rect["x"] > compass["x"] + compass["width"] - 5  # beside it, not under it
    points = css(driver, "#frontier-headline g.frontier-point")
    assert len(points) == len({p.get_attribute("data-model") for p in points}) == 8
    driver.find_element("css selector", '#frontier-headline h3 a[href="#prismia"]').click()
    assert driver.find_element("id", "prismia").is_displayed()


def test_the_table_fits_1280_px_and_its_lists_are_folded_below_it(driver, real_site):
    from selenium.webdriver.support.ui import Select

    driver.set_window_size(1280, 900)
    open_page(driver, real_site.resolve().as_uri() + "/index.html")
    for option in Select(driver.find_element("id", "compass-task")).options:
        Select(driver.find_element("id", "compass-task")).select_by_value(option.get_attribute("value"))
        wrap = driver.execute_script("const w = document.querySelector('#compass .table-wrap');"
                                     "return [w.scrollWidth, w.clientWidth, document.documentElement.scrollWidth];")
        assert wrap[0] <= wrap[1] and wrap[2] <= 1280, option.text
    for tab in ("compass", "channels"):
        open_page(driver, real_site.resolve().as_uri() + f"/index.html#{tab}")
        folded = driver.find_element("css selector", f"#{tab} details.note.missing")
        assert folded.get_attribute("open") is None and int(folded.get_attribute("data-count")) > 0
        table = driver.find_element("css selector", f"#{tab} table")
        assert driver.execute_script("return arguments[0].compareDocumentPosition(arguments[1]) & 4", table, folded)
    rows = css(driver, "#channels tbody tr")
    assert rows and all(r.text.count("imported") == 1 for r in rows)
    open_page(driver, real_site.resolve().as_uri() + "/index.html")
    for row in (r for r in css(driver, "#board tbody tr[data-row]") if r.is_displayed()):
        assert row.text.count("imported") <= 1


def test_a_flagged_model_is_marked_on_the_compass_and_in_the_table(driver, real_site):
    from selenium.webdriver.support.ui import Select

    open_page(driver, real_site.resolve().as_uri() + "/index.html")
    data = json.loads(driver.find_element("id", "lb-data").get_attribute("textContent"))
    flagged = [r for r in data if r["warnings"] and r["x"] is not None and r["y"] is not None]
    assert flagged
    for r in flagged:
        Select(driver.find_element("id", "compass-task")).select_by_value(r["task"])
        group = driver.find_element("css selector", f'svg.compass g.point[data-row="{r["row"]}"]')
        assert "flagged" in group.get_attribute("class")
        assert group.find_element("css selector", "text.label").text.endswith("⚠")
        row = driver.find_element("css selector", f'#board tr[data-row="{r["row"]}"]')
        assert row.find_elements("css selector", ".badge.warn, .badge.alert")


def test_every_tab_screenshot_is_in_the_docs(driver, real_site, tmp_path):
    """A screenshot of every tab the site shows (1,280 px wide), kept as an artifact, or written to the docs with
    POLIBENCH_SCREENSHOTS=docs/img; docs/leaderboard.md shows one for each tab."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("screenshot", REPO / "leaderboard" / "screenshot.py")
    shooter = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(shooter)
    folder = Path(os.environ["POLIBENCH_SCREENSHOTS"]) if os.environ.get("POLIBENCH_SCREENSHOTS") else \
        artifacts_dir(tmp_path) / "tabs"
    shots = shooter.screenshot_tabs(real_site, folder)
    assert [p.name for p in shots] == [f"leaderboard-{tab}.png" for tab in site_tabs(real_site)]
    assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and p.stat().st_size > 20_000 for p in shots)
    docs = (REPO / "docs" / "leaderboard.md").read_text()
    shown = re.findall(r"\(img/(leaderboard-[\w-]+\.png)\)", docs[docs.index("## Screenshots"):])
    assert shown == [p.name for p in shots]
    assert all((REPO / "docs" / "img" / name).is_file() for name in shown)
