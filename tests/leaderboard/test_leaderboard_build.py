"""``polibench leaderboard build``: a self-contained static site in which every entry value is escaped."""

import json
import re
from pathlib import Path

import pytest
from leaderboard_helpers import XSS_IMG, XSS_SCRIPT, edit_json, make_entries

from polibench.cli.main import main
from polibench.leaderboard.build import build_site

EXTERNAL = re.compile(r"""(?:src|href|action|srcset)\s*=\s*["']?\s*(?:[a-z][a-z0-9+.-]*:)?//"""
                      r"""|url\(\s*["']?(?:https?:)?//|@import""", re.I)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("build")
    entries = make_entries(base)
    (base / "no-fairness").mkdir()
    assert main(["leaderboard", "build", "--entries", str(entries), "--fairness", str(base / "no-fairness"),
                 "--output", str(base / "site"), "--verify"]) == 0
    return base / "site"


def pages(site: Path) -> list[Path]:
    return [site / "index.html", *sorted((site / "models").glob("*.html"))]


def test_site_has_an_index_a_page_per_entry_data_json_and_assets(site):
    data = json.loads((site / "data.json").read_text())
    ids = sorted(e["entry_id"] for e in data["entries"])
    assert len(ids) == 5 and data["schema_version"] == 3
    assert sorted(p.stem for p in (site / "models").glob("*.html")) == ids
    assert {e["model"]["id"] for e in data["entries"]} >= {XSS_IMG, XSS_SCRIPT, "org/alpha-7b"}
    for name in ("assets/style.css", "assets/app.js"):
        assert (site / name).stat().st_size > 500
    index = (site / "index.html").read_text()
    assert index.count('<tr data-row="') == 5 and index.count('class="point') == 5
    assert 'id="fairness"' in index and "No downstream fairness results yet" in index  # an empty --fairness folder


@pytest.mark.parametrize("name", [XSS_IMG, XSS_SCRIPT])
def test_injected_names_are_escaped_on_every_page(site, name):
    escaped = name.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    index = (site / "index.html").read_text()
    assert escaped in index
    for page in pages(site):
        html = page.read_text()
        assert name not in html, page
        scripts = 2 if page.name == "index.html" else 0
        assert "<img" not in html and html.count("<script") == html.count("</script>") == scripts
    page = next(p for p in (site / "models").glob("*.html") if escaped in p.read_text())
    assert f'<h1 id="model-name">{escaped}</h1>' in page.read_text()


def test_embedded_json_cannot_close_its_script_element(site):
    index = (site / "index.html").read_text()
    blob = index.split('<script type="application/json" id="lb-data">')[1].split("</script>")[0]
    assert "<" not in blob and ">" not in blob
    assert XSS_SCRIPT in [row["model"] for row in json.loads(blob)]


def test_no_page_or_asset_loads_anything_from_the_network(site):
    for path in [*pages(site), site / "assets" / "style.css", site / "assets" / "app.js"]:
        text = path.read_text()
        assert not EXTERNAL.search(text), (path, EXTERNAL.search(text))
        assert "fetch(" not in text and "XMLHttpRequest" not in text


def test_faulborn_entry_page_shows_per_prefix_and_per_variant_charts(site):
    (page,) = (site / "models").glob("org-gamma-2b__faulborn30.html")
    html = page.read_text()
    assert html.count('<svg class="bars"') >= 1 and '<svg class="spread"' in html
    assert "No per-prefix breakdown" not in html
    single = (site / "models" / "org-alpha-7b__pct.html").read_text()
    assert "One prompt variant" in single


def test_build_refuses_tampered_entries_by_default_and_keeps_the_old_site(site, tmp_path, capsys):
    entries = tmp_path / "entries"
    entries.mkdir()
    for path in (site / "entries").iterdir():
        (entries / path.name).write_bytes(path.read_bytes())
    out = tmp_path / "site"
    assert main(["leaderboard", "build", "--entries", str(entries), "--output", str(out)]) == 0  # verified
    assert "verified" in capsys.readouterr().out
    before = (out / "index.html").read_text()
    assert "--no-verify" not in before and 'class="banner unverified"' not in before
    edit_json(entries / "org-beta-1b__pct.json",
              lambda d: d["tasks"][0]["estimates"]["pct_coordinates"]["social"].update(value=9.0))
    for argv in ([], ["--verify"]):  # the default, and the flag spelt out
        assert main(["leaderboard", "build", "--entries", str(entries), "--output", str(out), *argv]) == 2
        assert "org-beta-1b__pct.json: verification failed" in capsys.readouterr().err
        assert (out / "index.html").read_text() == before
    # --no-verify publishes it, and the site says that nothing was recomputed
    assert main(["leaderboard", "build", "--entries", str(entries), "--output", str(out), "--no-verify"]) == 0
    assert "NOT verified" in capsys.readouterr().out
    html = (out / "index.html").read_text()
    assert 'class="banner unverified"' in html and "+9.00" in html


def test_build_never_replaces_a_folder_that_is_not_a_site(tmp_path, site):
    out = tmp_path / "precious"
    out.mkdir()
    (out / "thesis.tex").write_text("keep me")
    with pytest.raises(Exception, match="not a polibench site"):
        build_site(site / "entries", out)
    assert (out / "thesis.tex").read_text() == "keep me"


def test_empty_entries_folder_builds_an_empty_board(tmp_path):
    (tmp_path / "entries").mkdir()
    built = build_site(tmp_path / "entries", tmp_path / "site")
    assert built.n_entries == 0 and "No entries yet" in built.index.read_text()
