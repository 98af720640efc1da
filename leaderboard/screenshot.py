"""Screenshots of a built leaderboard with headless Chromium: one page, or every tab (the docs' images).

    python leaderboard/screenshot.py --all leaderboard/site docs/img      # docs/img/leaderboard-<tab>.png, each tab
    python leaderboard/screenshot.py leaderboard/site/index.html out.png [WIDTH HEIGHT]
    python leaderboard/screenshot.py 'leaderboard/site/index.html#fairness' out.png 1280 1500

``--all`` reads the tabs from the page's navigation, so a new tab gets its screenshot too, and opens each by
its deep link (``index.html#<tab>``). Build the site first (``polibench leaderboard build``). Needs Debian's
chromium and chromium-driver and the selenium package (the dev extra).
"""

from __future__ import annotations

import re
import shutil
import sys
import tempfile
from pathlib import Path

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
         "--disable-dev-shm-usage")
TAB_SIZES = {"compass": (1280, 1400), "channels": (1280, 1200), "fairness": (1280, 1500), "prismia": (1280, 1700)}
DEFAULT_SIZE = (1280, 900)


def tabs(site: Path) -> list[str]:
    """The tab names of a built site, in the navigation's order."""
    return re.findall(r'<a href="#([\w-]+)" role="tab" data-tab="\1"', (site / "index.html").read_text("utf-8"))


def _driver(width: int, height: int, profile: str):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser") or "chromium"
    for flag in (*FLAGS, f"--window-size={width},{height}", f"--user-data-dir={profile}"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(shutil.which("chromedriver") or "chromedriver"), options=options)


def _shoot(driver, url: str, out: Path, width: int, height: int) -> Path:
    from selenium.webdriver.support.ui import WebDriverWait

    driver.set_window_size(width, height)
    driver.get("about:blank")
    driver.get(url)
    WebDriverWait(driver, 15).until(lambda d: d.execute_script(
        "return document.readyState === 'complete' && "
        "(document.documentElement.classList.contains('js-ready') || !document.getElementById('lb-data'))"))
    driver.execute_script("return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    out.parent.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(out))
    return out


def screenshot(page: Path, out: Path, width: int = DEFAULT_SIZE[0], height: int = DEFAULT_SIZE[1]) -> Path:
    """One page (``index.html`` or ``index.html#tab``) into ``out``."""
    profile = tempfile.mkdtemp(prefix="polibench-chromium-")
    driver = _driver(width, height, profile)
    try:
        path, _, fragment = str(page).partition("#")
        return _shoot(driver, Path(path).resolve().as_uri() + (f"#{fragment}" if fragment else ""), out, width, height)
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def screenshot_tabs(site: Path, folder: Path) -> list[Path]:
    """Every tab of ``site``, each opened by its deep link, into ``folder/leaderboard-<tab>.png``."""
    profile = tempfile.mkdtemp(prefix="polibench-chromium-")
    driver = _driver(*DEFAULT_SIZE, profile)
    try:
        index = (site / "index.html").resolve().as_uri()
        return [_shoot(driver, f"{index}#{tab}", folder / f"leaderboard-{tab}.png", *TAB_SIZES.get(tab, DEFAULT_SIZE))
                for tab in tabs(site)]
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--all":
        for path in screenshot_tabs(Path(sys.argv[2]), Path(sys.argv[3])):
            print(path)
    elif len(sys.argv) in (3, 5):
        size = (int(sys.argv[3]), int(sys.argv[4])) if len(sys.argv) == 5 else ()
        print(screenshot(Path(sys.argv[1]), Path(sys.argv[2]), *size))
    else:
        sys.exit(__doc__)
