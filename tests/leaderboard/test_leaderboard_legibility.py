"""The compass can be read at a glance (issue 26): one colour per model from a colour-blind-safe palette, one
marker shape per answer channel and an outline for forcing runs, a legend that says so, no all-empty columns,
and every model missing from a view named with the reason. Checked on the site built from the shipped entries
(no browser; tests/leaderboard/test_leaderboard_browser.py opens it in Chromium)."""

from __future__ import annotations

import itertools
import json
import re
from html import escape, unescape
from pathlib import Path

import numpy as np
import pytest

from polibench.leaderboard.build import build_site, load_entries
from polibench.leaderboard.markers import PALETTE, SAFE_COLOURS, answer_channels, channel_of, is_forcing, model_colours
from polibench.leaderboard.positions import has_position

REPO_ENTRIES = Path(__file__).resolve().parents[2] / "leaderboard" / "entries"


@pytest.fixture(scope="module")
def entries():
    return load_entries(REPO_ENTRIES)


@pytest.fixture(scope="module")
def index(entries, tmp_path_factory) -> str:
    return (build_site(REPO_ENTRIES, tmp_path_factory.mktemp("legible") / "site").out / "index.html").read_text()


# --- colour-blind safety: CIELAB distances under Machado et al. (2009)'s simulations (severity 1) ---------------
CVD = {"normal": np.eye(3),
       "deuteranopia": np.array([[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413],
                                 [-0.011820, 0.042940, 0.968881]]),
       "protanopia": np.array([[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216],
                               [-0.003882, -0.048116, 1.051998]]),
       "tritanopia": np.array([[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602],
                               [0.004733, 0.691367, 0.303900]])}
SRGB_TO_XYZ = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])


def lab(colour: str, vision: np.ndarray) -> np.ndarray:
    rgb = np.array([int(colour[i:i + 2], 16) for i in (1, 3, 5)]) / 255
    linear = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    xyz = SRGB_TO_XYZ @ np.clip(vision @ linear, 0, 1) / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def test_the_palettes_safe_part_stays_apart_for_colour_blind_readers():
    safe = PALETTE[:SAFE_COLOURS]
    closest = min(np.linalg.norm(lab(a, m) - lab(b, m)) for a, b in itertools.combinations(safe, 2)
                  for m in CVD.values())
    assert closest >= 13.0
    # none near-black: black (the axes' and the forcing outline's colour) and a dark navy were read as one
    assert min(lab(c, CVD["normal"])[0] for c in safe) >= 38 and "#000000" not in PALETTE
    assert lab("#000000", CVD["normal"])[0] < 38 and lab("#332288", CVD["normal"])[0] < 38  # the two removed
    # the check can fail: the old matplotlib-style palette had a pair closer than that under deuteranopia
    old = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2")
    assert min(np.linalg.norm(lab(a, m) - lab(b, m)) for a, b in itertools.combinations(old, 2)
               for m in CVD.values()) < 13.0


@pytest.mark.parametrize("n", [1, 11, len(PALETTE), len(PALETTE) + 9])
def test_every_model_gets_its_own_colour(n):
    colours = model_colours(f"org/m{k}" for k in range(n))
    assert len(colours) == n and len(set(colours.values())) == n
    assert list(colours.values())[:min(n, SAFE_COLOURS)] == list(PALETTE[:min(n, SAFE_COLOURS)])


def test_one_colour_per_model_on_the_board(entries, index):
    data = json.loads(index.split('<script type="application/json" id="lb-data">')[1].split("</script>")[0])
    colour = {}
    for r in data:
        assert colour.setdefault(r["model"], r["colour"]) == r["colour"]  # one colour per model, every row
    assert len(set(colour.values())) == len(colour)  # no two models share a colour
    models = {e.model.id for e in entries if any(has_position(t) for t in e.tasks)}
    assert len(models) >= 11
    # each view of the compass (one task) shows only colour-blind-safe colours, the largest one included
    views: dict[str, set[str]] = {}
    for r in data:
        if r["x"] is not None and r["y"] is not None:
            views.setdefault(r["task"], set()).add(r["model"])
    assert max(len(v) for v in views.values()) <= SAFE_COLOURS
    for task, shown in views.items():
        assert {colour[m] for m in shown} <= set(PALETTE[:SAFE_COLOURS]) or len(shown) == 1, task
    for model in models:  # each point of the model wears its colour
        points = re.findall(rf'<g class="point[^"]*" [^>]*data-model="{re.escape(escape(model))}"[^>]*>.*?</g>',
                            index)
        # solid points are filled with it; hollow ones (insufficient data) are outlined in it (color=)
        assert points and all((f'fill="{colour[model]}"' in p) != (f'fill="#ffffff" color="{colour[model]}"' in p)
                              for p in points), model


def test_marker_shape_follows_the_channel_and_forcing_is_outlined(entries, index):
    expected = [(e.model.id, t.name, channel_of(t), is_forcing(t)) for e in entries for t in e.tasks
                if has_position(t)]
    points = re.findall(r'<g class="point[^"]*" [^>]*data-task="([^"]+)"[^>]*data-model="([^"]+)"[^>]*'
                        r'data-channel="(\w+)"[^>]*>.*?class="(marker[^"]*)" data-shape="(\w+)"', index)
    assert len(points) == len(expected) >= 30
    found = sorted((unescape(m), t, c, "forcing" in cls.split()) for t, m, c, cls, _ in points)
    assert found == sorted(expected)
    assert all(shape == answer_channels()[c][0] for _, _, c, _, shape in points)
    seen = {(t, c) for t, _, c, _, _ in points}
    assert ("rottger-forced", "forced") in seen and ("rottger-open", "open") in seen
    assert ("pct", "open") in seen and ("rottger-forced-forcing", "forced") in seen
    assert {t for t, _, _, cls, _ in points if "forcing" in cls.split()} == {"rottger-forced-forcing",
                                                                              "rottger-open-forcing"}


def test_the_legend_names_each_shape_on_the_board_and_the_outline(entries, index):
    legend = index[index.index('id="shape-legend"'):]
    legend = legend[:legend.index("</ul>")]
    # no logprob entry on the board; hollow points and flagged models are there
    assert re.findall(r'data-channel="(\w+)"', legend) == ["open", "forced", "forcing", "hollow", "flagged"]
    assert 'data-shape="circle"' in legend and 'data-shape="square"' in legend and "outlined" in legend
    counts: dict[str, int] = {}
    for e in entries:
        for t in e.tasks:
            if has_position(t):
                counts[t.name] = counts.get(t.name, 0) + 1
    n = max(counts.values())
    assert f'<span class="count" id="point-count" data-total="{n}">{n} models</span>' in index


def test_all_empty_columns_are_hidden_and_filled_ones_shown(entries, index, tmp_path):
    head = index[index.index('<table id="board">'):index.index("</thead>")]
    # a Faulborn bias column is shown exactly when some shipped entry has a value on that dimension
    # the compass's table: the tasks with a position (a Faulborn column shows where one of them has a value)
    filled = [name for name, key in (("Bias econ.", "economic"), ("Bias social", "social"), ("Bias total", "total"))
              if any((m := t.estimate("faulborn_bias", key)) is not None and m.value is not None
                     for e in entries for t in e.tasks if has_position(t))]
    assert re.findall(r"<th [^>]*>([^<]+)</th>", head) == ["Model", "Task", "Economic", "Social", *filled,
                                                           "Kept", "Date"]
    first_row = index[index.index('<tr data-row="'):]
    assert first_row[:first_row.index("</tr>")].count("<td") == 6 + len(filled)
    # a board none of whose entries has a Faulborn bias (the PCT entries alone) shows no Bias column at all
    from polibench.leaderboard.render import index_page

    no_bias = [e for e in entries if not any(t.estimates.get("faulborn_bias") for t in e.tasks)]
    assert no_bias
    page = index_page(no_bias, "now")
    assert "Bias" not in page[page.index('<table id="board">'):page.index("</thead>")]
    from leaderboard_helpers import make_entries

    with_bias = (build_site(make_entries(tmp_path), tmp_path / "site").out / "index.html").read_text()
    head = with_bias[with_bias.index('<table id="board">'):with_bias.index("</thead>")]
    assert "Bias econ." in head and "Bias total" in head


def test_models_missing_from_a_view_are_named_with_the_reason(entries, index):
    channels = index[index.index('id="channels"'):]
    note = channels[channels.index('class="note missing"'):]
    note = note[:note.index("</details>")]
    missing = {e.model.id for e in entries if not e.run_block("channels")}
    assert {"gpt-4-0613", "gpt-4-1106-preview"} <= missing
    listed = dict(re.findall(r'<li data-model="([^"]+)">[^:]+: ([^<]+)</li>', note))
    assert set(listed) == missing
    assert listed["gpt-4-0613"] == "rottger-forced-forcing without rottger-open-forcing"
    assert "no forced-choice and open-ended pair" in listed["SmolLM2-135M-Instruct (Q4_1 GGUF, embedded)"]
    assert 'id="generation"' not in index  # no shipped entry has a generation-bias task: no tab
    compass = index[index.index('id="compass"'):]
    folded = compass[compass.index('<details class="note missing"'):]
    folded = folded[:folded.index("</details>")]
    unplaced = {e.model.id for e in entries if not any(has_position(t) for t in e.tasks)}
    assert set(map(unescape, re.findall(r'<li data-model="([^"]+)"', folded))) == unplaced and len(unplaced) == 16
