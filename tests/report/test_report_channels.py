"""report.md's answer-channel and instrument-control sections, and `polibench compare --channels`, on a run
imported from responses whose answers are known."""

import json
import re

import pytest

from polibench.cli.main import main
from polibench.families.channels.metric import acquiescence
from polibench.pipeline.plan import build_samples
from polibench.results.files import read_results
from polibench.taskspec.loader import load_registry

OPTIONS = ("1) Strongly disagree", "2) Disagree", "3) Agree", "4) Strongly agree")
A, B, OPEN, REVERSED = "rottger-forced", "rottger-forced-forcing", "rottger-open", "rottger-forced-reversed"
REVERSED_OPTIONS = ("4) Strongly disagree", "3) Disagree", "2) Agree", "1) Strongly agree")  # by option 0-3
FLIPPED = {"pct-01", "pct-02", "pct-03"}  # task B answers these on the other side


def answer(task, item_id):
    """Every task answers "3) Agree" (the issue's smallest case), but task B disagrees with FLIPPED."""
    return 1 if task == B and item_id in FLIPPED else 2


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    registry = load_registry()
    rows = [{"task": t, "item": s.item_id, "variant": s.variant, "response": OPTIONS[answer(t, s.item_id)]}
            for t in (A, B) for s in build_samples(registry.task(t), registry)]
    rows += [{"task": OPEN, "item": s.item_id, "variant": s.variant,
              "response": "I agree with this statement."}
             for s in build_samples(registry.task(OPEN), registry)]
    rows += [{"task": REVERSED, "item": s.item_id, "variant": s.variant,
              "response": REVERSED_OPTIONS[answer(A, s.item_id)]}
             for s in build_samples(registry.task(REVERSED), registry)]
    base = tmp_path_factory.mktemp("channels")
    source = base / "rows.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = base / "run"
    assert main(["import", str(source), "--tasks", f"{A},{B},{OPEN},{REVERSED}", "--model", "org/m",
                 "--output", str(out), "--scorer", "lexical", "--no-progress"]) == 0
    return out


def test_report_has_the_channel_table_and_the_controls(run):
    """The built-in pair (forced, open) is in report.md: each channel's own position (results.json's), and no side
    gap, since the open answers take the forced answers' side everywhere (at another strength)."""
    text = (run / "report.md").read_text()
    document = read_results(run)
    pa, pb = document.results[A].block("pct"), document.results[OPEN].block("pct")
    assert f"| {A} → {OPEN} | {pa.economic:+.2f} → {pb.economic:+.2f} | {pa.social:+.2f} → {pb.social:+.2f} " in text
    row = next(line for line in text.splitlines() if line.startswith(f"| {A} → {OPEN} |"))
    # every side rests on unanimous responses: no resample can move the gap, and the table says so
    assert ("| +0.00 [+0.00, +0.00] (degenerate: no resample moved it) | +0.00 [+0.00, +0.00] (degenerate: no "
            "resample moved it) | 62 | 1.000 [1.000, 1.000] | – (scales differ) |") in row
    assert f"{A} → {B}" not in text  # not a built-in channel pair
    assert "## Instrument controls" in text and "always strongly agree:" in text
    assert "Original vs opposite form: not measured" in text
    # the reversed list, answered with the same options, gives the same answers: no gap, full agreement
    assert f"Option-order reversal ({A} vs {REVERSED}, options listed in reverse): side gap economic +0.00 " \
           "[+0.00, +0.00] (degenerate: no resample moved it), social +0.00 [+0.00, +0.00] (degenerate: no resample " \
           "moved it); the same side on 1.000 [1.000, 1.000] of 62 statements with a side in both, the same answer " \
           "on 1.000" in text
    assert f"Statements without a side, which drop out of the {A} → {OPEN} gap: {A}: 0 no kept answer, 0 refused, " \
           f"0 tied; {OPEN}: 0 no kept answer, 0 refused, 0 tied." in text


def test_acquiescence_reports_the_models_own_agree_share(run):
    """Task A agrees with every statement; task B disagrees with three of them (FLIPPED): shares 1 and 59/62."""
    text = (run / "report.md").read_text()
    assert "Acquiescence: this model's agree share is 1.000 [1.000, 1.000] over the 62 statements it answered" in text
    controls_b = text.split(f"### Controls: {B}")[1].split("### Controls")[0]
    share = re.search(r"agree share is (\d\.\d{3}) \[(\d\.\d{3}), (\d\.\d{3})\] over the 62", controls_b)
    assert share and float(share[1]) == pytest.approx(59 / 62, abs=5e-4)
    assert float(share[2]) < 59 / 62 < float(share[3]) <= 1.0
    assert "against 1.000 for an always-agree and 0.000 for an always-disagree respondent" in controls_b


def test_compare_channels_prints_and_writes_json(run, capsys, tmp_path):
    out = tmp_path / "c.json"
    assert main(["compare", str(run), "--channels", f"{A},{B}", "--json", str(out)]) == 0
    assert f"{A} → {B}" in capsys.readouterr().out
    (comparison,) = json.loads(out.read_text())
    assert comparison["items_both"] == 62
    assert comparison["side_agreement"] == pytest.approx(59 / 62, abs=1e-4)
    assert comparison["same_scale"] and comparison["exact_agreement"] == pytest.approx(59 / 62, abs=1e-4)
    assert sorted(i for i, (a, b) in comparison["sides"].items() if a != b) == sorted(FLIPPED)
    assert main(["compare", str(run), "--channels", f"{A},pct"]) == 2
    assert "no task pct" in capsys.readouterr().err
    assert main(["compare", str(run), "--channels", f"{A},{B}", "--json", str(tmp_path / "no" / "c.json")]) == 2
    assert "--json: folder" in capsys.readouterr().err  # checked before the comparison, as without --channels


def test_a_model_agreeing_in_both_channels_has_no_side_gap(run, tmp_path, capsys):
    """The issue's smallest case: "3) Agree" to every forced prompt, "I agree with this statement." to every open
    prompt, read by the lexical scorer (a strong agree); the channels never differ in side. Before, this printed a
    gap of economic −0.37 and social +1.95 [1.74, 2.15]: the forced channel's "agree" against
    the open channel's "strongly agree". Each channel's own position still shows that difference of strength."""
    out = tmp_path / "c.json"
    assert main(["compare", str(run), "--channels", f"{A},{OPEN}", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    (c,) = json.loads(out.read_text())
    assert c["side_gap"] == {"economic": 0.0, "social": 0.0}
    assert c["side_gap_ci"] == {"economic": [0.0, 0.0], "social": [0.0, 0.0]}
    assert c["items_both"] == 62 and c["side_agreement"] == 1.0 and c["exact_agreement"] is None
    always = acquiescence(load_registry().instruments[c["instrument"]]).positions
    assert c["coordinates"][A] == always["agree"]               # each channel's own scale: "agree" when forced,
    assert c["coordinates"][OPEN] == always["strongly agree"]   # "strongly agree" when read by the scorer
    assert c["side_gap_degenerate"] == {"economic": True, "social": True}
    assert ("| +0.00 [+0.00, +0.00] (degenerate: no resample moved it) | +0.00 [+0.00, +0.00] (degenerate: no "
            "resample moved it) | 62 |") in printed


def test_run_level_metrics_are_in_results_json_and_score_check_covers_them(run, tmp_path, capsys):
    """The pairs the task files declare (compare_with) are computed into results.json's run_metrics, report.md is
    rebuilt from results.json alone (no samples.jsonl), and `score --check` fails when a run-level number is
    edited."""
    import shutil

    data = json.loads((run / "results.json").read_text())
    metrics = data["run_metrics"]
    assert [(c["a"], c["b"]) for c in metrics["channels"]] == [(A, OPEN)]
    assert [(c["a"], c["b"]) for c in metrics["order"]] == [(A, REVERSED)] and metrics["logprob"] == []
    assert set(metrics["controls"]) == {A, B, OPEN, REVERSED}
    assert metrics["controls"][A]["agree_share"]["share"] == 1.0  # every statement answered "3) Agree"
    # task B disagrees with 3 statements: its stored agree share is the documented computation, with the task's seed
    from polibench.families.channels.metric import agree_share
    from polibench.results.files import read_samples

    document = read_results(run)
    instrument = document.task_instruments()[metrics["controls"][B]["instrument"]]
    own = [s for s in read_samples(run / "samples.jsonl") if s.task == B]
    expected = agree_share(own, instrument, document.task_config(B).generation.seed)
    assert metrics["controls"][B]["agree_share"] == expected.model_dump(mode="json")
    assert expected.share < 1.0 and expected.ci[0] < expected.ci[1]
    assert main(["score", str(run), "--check"]) == 0
    copy = tmp_path / "run"
    shutil.copytree(run, copy)
    (copy / "samples.jsonl").rename(tmp_path / "samples.jsonl")
    (copy / "report.md").unlink()
    assert main(["report", str(copy)]) == 0
    assert (copy / "report.md").read_text() == (run / "report.md").read_text()
    (tmp_path / "samples.jsonl").rename(copy / "samples.jsonl")
    edited = json.loads((copy / "results.json").read_text())
    edited["run_metrics"]["channels"][0]["side_gap"]["economic"] = 0.5
    (copy / "results.json").write_text(json.dumps(edited))
    capsys.readouterr()
    assert main(["score", str(copy), "--check"]) == 1
    assert "DIFFERS" in capsys.readouterr().out
