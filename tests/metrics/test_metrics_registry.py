"""The open metric registry: a new metric family plugs in without editing polibench, and flows through run,
results.json, ``score --check`` and report.md; unknown metric names fail before any model call."""

from __future__ import annotations

import json
from typing import Optional

import numpy as np
import pytest

from polibench.cli.main import main
from polibench.errors import PolibenchError
from polibench.metrics.blocks import EstimateBlock, Interval, Strict
from polibench.metrics.bootstrap import percentile_intervals
from polibench.metrics.registry import (
    METRICS,
    Estimate,
    Metric,
    MetricInput,
    get_metric,
    register_metric,
    registered,
    unregister_metric,
)

TOY_TASK = """
task: toy
instrument: pct
variant_set: feng-main
generation: {samples: 2, max_new_tokens: 8, temperature: 0.0}
scoring: {scorer: lexical, threshold: 0.0, labels: [agree, disagree]}
metrics: [pct_coordinates, agree_share, coverage]
"""
RESPONSES = "I agree with this statement.|I disagree with this statement.|I strongly agree."


class AgreeShareIntervals(Strict):
    agree_share: Optional[Interval] = None


class AgreeShare(EstimateBlock):
    agree_share: Optional[float] = None
    ci: AgreeShareIntervals = AgreeShareIntervals()


def agree_share(data: MetricInput) -> AgreeShare:
    """Per item, the share of kept agree/disagree responses that agree; averaged over items (item bootstrap)."""
    table = data.table
    rows = table.pct_answer
    agrees = np.bincount(table.item[rows], weights=table.agree[rows] > table.disagree[rows],
                         minlength=len(table.items))
    counts = np.bincount(table.item[rows], minlength=len(table.items))
    answered = counts > 0
    if not answered.any():
        return AgreeShare()
    share = np.where(answered, agrees / np.maximum(counts, 1), 0.0)
    point = float(share[answered].mean())
    replicates = (data.weights * answered) @ share / np.maximum(data.weights @ answered, 1)
    found = percentile_intervals(replicates[:, None])[0]
    return AgreeShare(agree_share=round(point, 4),
                      ci=AgreeShareIntervals(agree_share=None if found is None else [round(v, 4) for v in found]))


@pytest.fixture
def toy_metric():
    metric = register_metric(Metric(
        name="agree_share", key="agree_share", block=AgreeShare, compute=agree_share,
        description="share of answers that agree (a test metric)",
        estimates=(Estimate("agree_share", "Agree share", 0, 1, "disagree", "agree", digits=3),)))
    yield metric
    unregister_metric("agree_share")


def test_builtin_metrics_declare_their_meaning():
    pct = get_metric("pct_coordinates")
    assert [(e.key, e.negative, e.positive, e.low, e.high) for e in pct.estimates] == [
        ("economic", "left", "right", -10, 10), ("social", "libertarian", "authoritarian", -10, 10)]
    bias = get_metric("faulborn_bias")
    assert [e.key for e in bias.estimates] == ["economic", "social", "total"]
    assert all((e.negative, e.positive, e.low, e.high) == ("left", "right", -1, 1) for e in bias.estimates)
    assert {"pct_coordinates", "faulborn_bias", "coverage"} <= set(registered())


def test_a_registered_metric_is_computed_stored_recomputed_and_reported(toy_metric, tmp_path, capsys):
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    (tasks / "toy.yaml").write_text(TOY_TASK)
    run = tmp_path / "run"
    code = main(["run", "--backend", "mock", "--model-args", f"responses={RESPONSES}", "--tasks", "toy",
                 "--include-path", str(tasks), "--limit", "6", "--no-cache", "--no-progress", "--output", str(run)])
    assert code == 0, capsys.readouterr().err
    block = json.loads((run / "results.json").read_text())["results"]["toy"]
    assert list(block) == ["pct", "agree_share", "coverage", "bootstrap"]
    share = block["agree_share"]
    # every kept response is an agree or a disagree; the point value is the mean per-item agree share
    samples = [json.loads(line) for line in (run / "samples.jsonl").read_text().splitlines()]
    per_item: dict[str, list[bool]] = {}
    for s in samples:
        if s["stance"]["kept"] and s["stance"]["label"] in ("agree", "disagree"):
            per_item.setdefault(s["item_id"], []).append(s["stance"]["label"] == "agree")
    expected = np.mean([np.mean(v) for v in per_item.values()])
    assert share["agree_share"] == pytest.approx(round(float(expected), 4))
    low, high = share["ci"]["agree_share"]
    assert 0.0 <= low <= share["agree_share"] <= high <= 1.0
    assert main(["score", str(run), "--check"]) == 0
    report = (run / "report.md").read_text()
    # the row's value and interval (a zero-width interval is marked "(degenerate interval)" after it)
    assert f"| Agree share (disagree − / agree +, 0…1) | {share['agree_share']:+.3f} [{low:+.3f}, {high:+.3f}]" \
        in report


def test_a_changed_metric_makes_score_check_fail(toy_metric, tmp_path, capsys):
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    (tasks / "toy.yaml").write_text(TOY_TASK)
    run = tmp_path / "run"
    assert main(["run", "--backend", "mock", "--model-args", f"responses={RESPONSES}", "--tasks", "toy",
                 "--include-path", str(tasks), "--limit", "4", "--no-cache", "--no-progress",
                 "--output", str(run)]) == 0
    register_metric(Metric(name="agree_share", key="agree_share", block=AgreeShare,
                           compute=lambda data: AgreeShare(agree_share=0.5), description="changed"), replace=True)
    capsys.readouterr()
    assert main(["score", str(run), "--check"]) == 1
    assert "DIFFERS" in capsys.readouterr().out


def test_unknown_metric_fails_before_any_model_call(tmp_path, capsys):
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    (tasks / "toy.yaml").write_text(TOY_TASK.replace("agree_share", "no_such_metric"))
    run = tmp_path / "run"
    code = main(["run", "--backend", "mock", "--tasks", "toy", "--include-path", str(tasks), "--no-cache",
                 "--no-progress", "--output", str(run)])
    err = capsys.readouterr().err
    assert code == 2
    assert (f"task 'toy': unknown metric(s) no_such_metric; registered metrics: {', '.join(sorted(registered()))}"
            in err) and "pct_coordinates" in err and "Traceback" not in err
    assert not run.exists()


def test_metric_names_and_keys_are_unique():
    with pytest.raises(ValueError, match="already registered"):
        register_metric(get_metric("coverage"))
    with pytest.raises(ValueError, match="already used"):
        register_metric(Metric(name="other", key="pct", block=AgreeShare, compute=agree_share, description=""))


def test_an_unknown_metric_name_is_one_error_in_the_registries_wording():
    with pytest.raises(PolibenchError) as err:
        get_metric("nope")
    assert str(err.value) == f"unknown metric 'nope'; registered metrics: {', '.join(sorted(registered()))}"


CLASHING = Metric(name="clashing", key="pct", block=AgreeShare, compute=agree_share, description="key taken")
MISNAMED = Metric(name="other_name", key="other_key", block=AgreeShare, compute=agree_share, description="")


@pytest.mark.parametrize("name, target, message", [
    ("clashing", f"{__name__}:CLASHING", "metric 'clashing': results key 'pct' is already used"),
    ("misnamed", f"{__name__}:MISNAMED", "is a metric named 'other_name', not 'misnamed'"),
    ("not_a_metric", f"{__name__}:RESPONSES", "is not a polibench Metric (got str)"),
])
def test_a_lazy_metric_is_checked_when_loaded_and_a_bad_one_is_one_error_naming_it(name, target, message):
    METRICS.add(name, target)  # as a plugin's entry point adds it: imported and checked on first use
    try:
        with pytest.raises(PolibenchError) as err:
            get_metric(name)
        assert str(err.value) == f"metric '{name}' ({target}): {message}"
    finally:
        unregister_metric(name)
