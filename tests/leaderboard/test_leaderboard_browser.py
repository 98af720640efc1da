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

from polibench.leaderboard.build import build_site
from polibench.leaderboard.positions import has_position
from polibench.leaderboard.render import boards, run_boards

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
    names = {a.text for a in css(driver, "#board a.model")}
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

    open_page(driver, site.resolve().as_uri() + "/index.html")
    tooltip = driver.find_element("id", "tooltip")
    assert not tooltip.is_displayed()
    row = rows[model]
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


def test_sorting_and_filters(driver, site):
    open_page(driver, site.resolve().as_uri() + "/index.html")
    header = css(driver, "#board thead th")[7]  # Coverage: every row has one
    header.click()
    values = [float(v) for v in column_values(driver, 7)]
    assert values == sorted(values) and header.get_attribute("aria-sort") == "ascending"
    header.click()
    values = [float(v) for v in column_values(driver, 7)]
    assert values == sorted(values, reverse=True)
    # Economic: positions with insufficient data (these --limit entries answer a few statements) have no sort
    # key, so sorting never ranks them; they stay after the ranked ones either way
    economic = css(driver, "#board thead th")[2]
    economic.click()
    values = column_values(driver, 2)
    ranked = [float(v) for v in values if v]
    assert ranked == sorted(ranked) and all(not v for v in values[len(ranked):])
    html = (site / "index.html").read_text()
    data = json.loads(html.split('<script type="application/json" id="lb-data">')[1].split("</script>")[0])
    assert len(values) - len(ranked) == sum(1 for r in data if r["x"] is not None and not r["sufficient"]) > 0
    from selenium.webdriver.support.ui import Select

    assert driver.find_element("id", "point-count").text == "5 points"
    Select(driver.find_element("id", "filter-task")).select_by_value("faulborn30")
    assert [tr.is_displayed() for tr in css(driver, "#board tbody tr[data-row]")].count(True) == 1
    assert [g.is_displayed() for g in css(driver, "svg.compass g.point")].count(True) == 1
    assert driver.find_element("id", "row-count").text == "1 of 5 rows shown"
    assert driver.find_element("id", "point-count").text == "1 of 5 points shown (filtered)"  # the caption follows
    Select(driver.find_element("id", "filter-task")).select_by_value("")
    Select(driver.find_element("id", "filter-instrument")).select_by_value("wvs")
    assert [tr.is_displayed() for tr in css(driver, "#board tbody tr[data-row]")].count(True) == 1


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


REPO_ENTRIES = Path(__file__).resolve().parents[2] / "leaderboard" / "entries"


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


# Every tab of the page template, read from its navigation, and every registered metric's own tab, so a tab added
# there is opened by its deep link too.
TEMPLATE = Path(__file__).resolve().parents[2] / "polibench" / "leaderboard" / "templates" / "index.html"
TABS = re.findall(r'<a href="#([\w-]+)" role="tab" data-tab="\1"', TEMPLATE.read_text(encoding="utf-8")) \
    + [board.tab.anchor for _, board in boards() if board.tab is not None] \
    + [board.tab.anchor for _, board in run_boards() if board.tab is not None]


def expected_items(tab: str, entries) -> tuple[str, int] | None:
    """(selector of the tab's items, how many the shipped entries give) where the test knows the tab's items."""
    if tab == "compass":
        return "svg.compass g.point", sum(1 for e in entries for t in e.tasks
                                          if has_position(t))
    if tab == "channels":
        return "#channels tbody tr[data-pair]", sum(len(e.run_block("channels") or []) for e in entries)
    if tab == "generation":
        return "#generation-board tbody tr", sum(1 for e in entries for t in e.tasks if t.details.get("liu_bias"))
    if tab == "languages":
        return "#languages-board tbody tr[data-language]", sum(len(effect.languages) for e in entries
                                                               for effect in e.run_block("language_effect") or [])
    return None


def test_the_template_has_the_known_tabs():
    assert {"compass", "channels", "fairness", "generation", "about", "languages"} <= set(TABS)


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
        assert driver.find_element("id", "point-count").text == f"{expected[1]} points"
        group = css(driver, "svg.compass g.point")[0]
        driver.execute_script("arguments[0].parentNode.appendChild(arguments[0])", group)  # above its neighbours
        ActionChains(driver).move_to_element(group.find_element("css selector", ".marker")).perform()
        assert driver.find_element("id", "tooltip").is_displayed()
        assert driver.find_element("id", "tt-model").text == group.get_attribute("data-model")


def test_prismia_tab_over_time_and_beside_the_panel(driver, real_site, tmp_path):
    from polibench.leaderboard.artifacts import read_artifact
    from polibench.report.prismia import load_panel, month_changes, panel_path, prismia_rows

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
