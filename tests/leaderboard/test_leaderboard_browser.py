"""The built leaderboard in a real headless Chromium, from file:// and from a loopback server.

Needs Debian's ``chromium`` and ``chromium-driver`` and the ``selenium`` package (dev extra). Locally the
test skips when they are missing; with ``CI=true`` a missing browser is a failure, so CI cannot pass
without running it. A screenshot goes to ``$ARTIFACTS`` (or the test's tmp folder).
"""

import functools
import json
import os
import shutil
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from fairness_helpers import make_fairness_submission
from leaderboard_helpers import XSS_IMG, XSS_SCRIPT, make_entries

from polibench.leaderboard.build import build_site

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
    point = group.find_element("css selector", "circle")
    ActionChains(driver).move_to_element(point).perform()
    assert tooltip.is_displayed()
    assert driver.find_element("id", "tt-model").text == model
    economic = driver.find_element("id", "tt-economic").text
    assert economic.startswith(f"economic {row['economic']:+.2f}")
    if row["economic_ci"]:
        low, high = row["economic_ci"]
        assert f"[{low:+.2f}, {high:+.2f}]" in economic
    else:
        assert "(no CI)" in economic
    assert "hl" in driver.find_element("css selector", f'#board tr[data-row="{row["row"]}"]').get_attribute("class")
    assert driver.execute_script("return window.__xss === undefined")


def test_sorting_and_filters(driver, site):
    open_page(driver, site.resolve().as_uri() + "/index.html")
    header = css(driver, "#board thead th")[2]  # Economic
    header.click()
    values = [float(tr.find_elements("css selector", "td")[2].get_attribute("data-value"))
              for tr in css(driver, "#board tbody tr[data-row]")]
    assert values == sorted(values) and header.get_attribute("aria-sort") == "ascending"
    header.click()
    values = [float(tr.find_elements("css selector", "td")[2].get_attribute("data-value"))
              for tr in css(driver, "#board tbody tr[data-row]")]
    assert values == sorted(values, reverse=True)
    from selenium.webdriver.support.ui import Select

    Select(driver.find_element("id", "filter-task")).select_by_value("faulborn30")
    assert [tr.is_displayed() for tr in css(driver, "#board tbody tr[data-row]")].count(True) == 1
    assert [g.is_displayed() for g in css(driver, "svg.compass g.point")].count(True) == 1
    assert driver.find_element("id", "row-count").text == "1 of 5 rows shown"
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

    expected = {e.model.id: e for e in load_entries(REPO_ENTRIES) if e.imported is not None and e.channels}
    assert len(expected) >= 8
    open_page(driver, real_site.resolve().as_uri() + "/index.html#channels")
    assert driver.find_element("id", "channels").is_displayed()
    assert "Forced econ. (own scale)" in driver.find_element("css selector", "#channels thead").text
    rows = css(driver, '#channels tbody tr[data-pair="rottger-forced"]')
    assert {r.get_attribute("data-model") for r in rows} == set(expected)
    for row in rows:
        entry = expected[row.get_attribute("data-model")]
        forced = next(t for t in entry.tasks if t.name == "rottger-forced")
        comparison = next(c for c in entry.channels if c.a == "rottger-forced")
        cells = row.find_elements("css selector", "td")
        assert cells[2].text.startswith(f"{forced.economic.value:+.2f}")
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
