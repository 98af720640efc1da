"""Screenshot a built leaderboard page with headless Chromium (for docs/img/leaderboard.png).

    python leaderboard/screenshot.py leaderboard/site/index.html docs/img/leaderboard.png [WIDTH HEIGHT]
    python leaderboard/screenshot.py 'leaderboard/site/index.html#fairness' docs/img/leaderboard-fairness.png 1280 1500

Needs Debian's chromium and chromium-driver and the selenium package (the dev extra).
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars")


def screenshot(page: Path, out: Path, width: int = 1280, height: int = 900) -> Path:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser") or "chromium"
    profile = tempfile.mkdtemp(prefix="polibench-chromium-")
    for flag in (*FLAGS, f"--window-size={width},{height}", f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "chromedriver"), options=options)
    try:
        path, _, fragment = str(page).partition("#")
        driver.get(Path(path).resolve().as_uri() + (f"#{fragment}" if fragment else ""))
        out.parent.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(out))
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
    return out


if __name__ == "__main__":
    if len(sys.argv) not in (3, 5):
        sys.exit(__doc__)
    size = (int(sys.argv[3]), int(sys.argv[4])) if len(sys.argv) == 5 else ()
    print(screenshot(Path(sys.argv[1]), Path(sys.argv[2]), *size))
