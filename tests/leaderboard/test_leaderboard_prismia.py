"""The PrismIA 2026 tab's numbers: polibench's reading recomputed from the shipped samples equals the verified
entries, PrismIA's panel score is aggregated as their summary.json does, and the rank agreement sees a planted
agreement and does not flag a null one."""

import json
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import spearmanr

from polibench.families.faulborn.metric import bias_from_totals
from polibench.families.prismia.panel import PrismiaRow, _spearman, agreement, load_panel, panel_path, prismia_rows
from polibench.leaderboard.artifacts import read_artifact
from polibench.leaderboard.build import load_entries

ROOT = Path(__file__).resolve().parents[2]
ENTRIES = ROOT / "leaderboard" / "entries"
MONTHS = {"2026-03": 4, "2026-04": 4, "2026-05": 4, "2026-06": 4}


@pytest.fixture(scope="module")
def shipped():
    panel = load_panel(panel_path(ENTRIES))
    return panel, prismia_rows(load_entries(ENTRIES), ENTRIES, panel, read_artifact)


def test_sixteen_model_months_with_attribution(shipped):
    panel, rows = shipped
    assert {m: sum(r.month == m for r in rows) for m in MONTHS} == MONTHS
    assert len({r.model for r in rows}) == 8
    for r in rows:
        assert r.entry.imported.licence == "MIT" and "PrismIA" in r.entry.imported.citation
        assert r.task == ("prismia2026-analyst" if r.model.startswith("gemini") else "prismia2026")
    assert panel["licence"] == "MIT" and "Copyright (c) 2026 PrismIA" in (panel_path(ENTRIES).parent /
                                                                          "LICENSE").read_text()


def test_polibench_reading_is_the_verified_entry(shipped):
    for r in shipped[1]:
        assert round(float(bias_from_totals(r.sums.sum(axis=0))), 4) == r.bias.value


def test_panel_score_is_aggregated_as_their_summary(shipped):
    panel, rows = shipped
    for r in rows:
        run = panel["by_model"][r.entry.model.id]
        assert len(run["scores"]) == 80 and round(r.panel_mean, 3) == run["mean_score"]


def test_spearman_matches_scipy():
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=(5, 9)), rng.integers(0, 4, size=(5, 9)).astype(float)  # b with ties
    assert np.allclose(_spearman(a, b, __import__("scipy.stats").stats.rankdata),
                       [spearmanr(x, y).statistic for x, y in zip(a, b)])


def synthetic_rows(panel_of, n_models=8, seed=0):
    """Models with planted leanings (one answer per statement, 40 left- and 40 right-leaning ones); the panel score
    of each response is ``panel_of(model lean, rng)``."""
    rng = np.random.default_rng(seed)
    rows = []
    leanings = np.linspace(-0.45, 0.45, n_models)
    for n, lean in enumerate(leanings):
        side = np.arange(80) % 2                         # 0 = left-leaning statement, 1 = right-leaning
        agree = rng.random(80) < 0.5 + np.where(side == 1, lean, -lean)
        v = np.where(agree, 1.0, -1.0)
        sums = np.zeros((80, 2, 2))
        sums[np.arange(80), side, 0] = v
        sums[np.arange(80), side, 1] = 1.0
        rows.append(PrismiaRow(model=f"m{n}", month="2026-03", task="t", entry=None, bias=None, kept_share=1.0,
                               refusal=None, categories=None, panel_mean=0.0, panel_scores=panel_of(lean, rng),
                               items=[f"i{k:02d}" for k in range(80)], strata=side, sums=sums))
    for r in rows:
        r.panel_mean = float(r.panel_scores.mean())
    return rows


def test_planted_agreement_is_seen():
    rows = synthetic_rows(lambda lean, rng: np.clip(0.5 - lean + rng.normal(0, 0.1, 80), 0, 1))
    found = agreement(rows, resamples=500)
    assert found.rho > 0.8 and found.ci[0] > 0.3


def test_null_agreement_is_not_flagged():
    # the panel ignores the model: the interval should cover 0 in about 95% of draws (fixed seeds; 1 of these 20
    # misses, seed 0, as a 95% interval may)
    flagged = 0
    for seed in range(20):
        found = agreement(synthetic_rows(lambda lean, rng: rng.random(80), seed=seed), resamples=300)
        flagged += not (found.ci[0] <= 0 <= found.ci[1])
    assert flagged <= 2


def test_panel_file_errors_are_one_line(tmp_path):
    from polibench.errors import PolibenchError

    bad = tmp_path / "panel.json"
    bad.write_text(json.dumps({"runs": [{"entry_model": "x@2026-03", "scores": {"a": "high"}}]}))
    with pytest.raises(PolibenchError, match="not a PrismIA panel file"):
        load_panel(bad)


# --- change over time and agreement over models (issue 37 §3) -------------------------------------------------

def leaning_row(model: str, month: str, agree_right: np.ndarray, items: int = 80) -> PrismiaRow:
    """One answer per statement (even statements lean left, odd right); ``agree_right[k]`` True: statement k is
    answered so as to lean right (agree with a right-leaning one, disagree with a left-leaning one)."""
    side = np.arange(items) % 2
    v = np.where(agree_right == (side == 1), 1.0, -1.0)
    sums = np.zeros((items, 2, 2))
    sums[np.arange(items), side, 0] = v
    sums[np.arange(items), side, 1] = 1.0
    return PrismiaRow(model=model, month=month, task="t", entry=None, bias=None, kept_share=1.0, refusal=None,
                      categories=None, panel_mean=0.5, panel_scores=np.full(items, 0.5),
                      items=[f"i{k:02d}" for k in range(items)], strata=side, sums=sums)


def test_a_planted_change_by_hand_and_identical_months_are_degenerate():
    from polibench.families.prismia.panel import month_changes

    base = np.arange(80) < 20                    # leans right on 20 statements: bias (20 - 60) / 80 = -0.5
    moved = np.arange(80) < 50                   # then on 50: (50 - 30) / 80 = +0.25
    rows = [leaning_row("m-1", "2026-03", base), leaning_row("m-1", "2026-04", base),
            leaning_row("m-1", "2026-05", moved)]
    same, change = month_changes(rows, resamples=1000)
    assert (same.before.month, same.after.month, change.before.month) == ("2026-03", "2026-04", "2026-04")
    # Faulborn bias (Bias_right - Bias_left) / 2, Bias_d = (agree_d - disagree_d) / 40: a statement answered leaning
    # right adds one agree on the right side or one disagree on the left, so bias = (#right - #left) / 80
    assert change.change == pytest.approx(((50 - 30) - (20 - 60)) / 80)
    assert change.differs and change.ci[0] > 0 and not change.successor
    assert same.change == 0.0 and same.ci == [0.0, 0.0] and not same.differs


def test_a_null_change_is_seldom_called_a_difference():
    from polibench.families.prismia.panel import month_changes

    rng = np.random.default_rng(1)
    flagged = 0
    for _ in range(40):   # the same model answering the same way at random twice: ~5% of 95% intervals miss 0
        rows = [leaning_row("m-1", month, rng.random(80) < 0.5) for month in ("2026-03", "2026-04")]
        (c,) = month_changes(rows, resamples=400)
        flagged += c.differs
    assert flagged <= 6


def test_a_successor_is_paired_with_its_familys_model_of_the_month_before():
    from polibench.families.prismia.panel import month_changes

    half = np.arange(80) < 40
    rows = [leaning_row("grok-4-1", "2026-05", half), leaning_row("grok-4-3", "2026-06", half),
            leaning_row("gpt-5.4", "2026-05", half), leaning_row("gpt-5.5", "2026-06", half),
            leaning_row("gpt-5.4", "2026-06", half),            # gpt-5.4 stays: gpt-5.5 is no successor of it
            leaning_row("x-1", "2026-05", half), leaning_row("x-2", "2026-05", half),
            leaning_row("x-3", "2026-06", half)]                # two x models before: x-3 follows neither
    pairs = {(c.before.model, c.after.model): c.successor for c in month_changes(rows, resamples=100)}
    assert pairs == {("grok-4-1", "grok-4-3"): True, ("gpt-5.4", "gpt-5.4"): False}


def test_agreement_counts_each_model_once_at_its_latest_month():
    from scipy.stats import spearmanr

    rng = np.random.default_rng(2)
    rows = []
    for n, lean in enumerate(np.linspace(0.2, 0.8, 5)):
        for month in ("2026-03", "2026-04", "2026-05"):
            row = leaning_row(f"m{n}", month, rng.random(80) < lean)
            row.panel_scores = np.clip(1 - lean + rng.normal(0, 0.2, 80), 0, 1)
            row.panel_mean = float(row.panel_scores.mean())
            rows.append(row)
    found = agreement(rows, resamples=300)
    latest = [r for r in rows if r.month == "2026-05"]
    assert found.n == 5 and found.months == ["2026-05"] * 5
    expected = spearmanr([bias_from_totals(r.sums.sum(axis=0)) for r in latest],
                         [r.panel_position for r in latest]).statistic
    assert found.rho == pytest.approx(expected)
    assert all(r.panel_ci is not None for r in rows)   # every model-month keeps its panel interval


def test_shipped_changes_and_agreement_are_what_the_docs_say(shipped):
    """docs/leaderboard.md's over-time table and agreement line are the numbers the code computes from the shipped
    entries (rewritten from them, not remembered)."""
    from polibench.families.prismia.board import change_reading, change_text
    from polibench.families.prismia.panel import month_changes

    rows = shipped[1]
    docs = " ".join((ROOT / "docs" / "leaderboard.md").read_text(encoding="utf-8").split())
    for c in month_changes(rows):
        line = (f"| {c.family} | {c.before.model}, {c.before.month} | {c.after.model}, {c.after.month}"
                f"{' (successor)' if c.successor else ''} | {change_text(c)} | {change_reading(c)} |")
        assert line in docs, line
    found = agreement(rows)
    assert f"over the {found.n} models at their latest month: **{found.rho:+.2f} [{found.ci[0]:+.2f}, " \
           f"{found.ci[1]:+.2f}]**" in docs
    assert sum(c.differs for c in month_changes(rows)) == docs.count("| differs |")
