"""`polibench shift` and `polibench personas`: tables, shift.json, figures and errors, on synthetic runs whose
leaning is set by hand (`pretrain` -> `run` -> `shift` on a tiny model: tests/pretrain/test_planted_leaning.py)."""

import json
import random

import pytest
from metrics_samples import make_run

from polibench.cli.main import main
from polibench.pipeline.compute import results_document
from polibench.pipeline.plan import RunOptions, RunPlan, build_samples
from polibench.records import Stance
from polibench.results.files import write_results, write_samples
from polibench.shift.paired import PairedEstimate
from polibench.shift.persona import holm, verdict
from polibench.taskspec.loader import load_registry


def estimates(path):
    data = json.loads((path / "shift.json").read_text())
    return {(c["run"], e["metric"], e["axis"]): e for c in data["comparisons"] for e in c["estimates"]}


def test_shift_table_json_and_figures(tmp_path, capsys):
    base, same, left = tmp_path / "base", tmp_path / "same", tmp_path / "left"
    make_run(base, task="pct", lean=0.0, limit=40, samples=4, seed=1, model="base")
    make_run(same, task="pct", lean=0.0, limit=40, samples=4, seed=1, model="same")   # identical responses
    make_run(left, task="pct", lean=0.45, limit=40, samples=4, seed=1, model="left")  # agrees with the left
    out = tmp_path / "shift"
    assert main(["shift", str(base), str(same), str(left), "--output", str(out), "--resamples", "500",
                 "--permutations", "500", "--trajectory"]) == 0
    printed = capsys.readouterr().out
    assert "| left |" in printed and "PCT economic" in printed
    found = estimates(out)
    for axis in ("economic", "social"):
        assert found[("same", "pct", axis)]["shift"] == 0 and found[("same", "pct", axis)]["p_value"] == 1.0
    moved = found[("left", "bias", "total")]
    assert moved["shift"] < 0 and moved["ci"][1] < 0 and moved["p_value"] < 0.01  # further left, clearly
    assert found[("left", "pct", "economic")]["shift"] < 0
    for name in ("pct_shift_compass.png", "pct_shift_compass.svg", "pct_trajectory.png", "shift.md"):
        assert (out / name).is_file(), name
    settings = json.loads((out / "shift.json").read_text())["settings"]  # the same design: nothing to override
    assert settings["allow_different_designs"] is False and settings["design_differences"] == []


def persona_run(folder, leans: dict):
    """A finished persona-control run whose stances lean by variant (positive lean = agrees with the left)."""
    registry = load_registry([])
    config = registry.task("persona-control")
    built = build_samples(config, registry, samples_per_prompt=3, limit=30)
    rng = random.Random(5)
    done = []
    for s in built:
        lean = leans[s.variant]
        label = "agree" if rng.random() < 0.5 + (lean if s.agree_side == "left" else -lean) else "disagree"
        done.append(s.model_copy(update={"response": "r", "stance": Stance(
            label=label, confidence=1.0, probs={label: 1.0}, scorer="hand", kept=True)}))
    document = results_document(RunPlan.from_registry(registry, [config.task]), {config.task: done},
                                {"model": "m", "backend": "synthetic"},
                                {config.task: {"scorer": "hand", "threshold": 0.0}},
                                RunOptions(limit=30, samples_per_prompt=3))
    write_samples(folder, done)
    write_results(folder, document)


def test_personas_separate_or_say_plainly_they_do_not(tmp_path, capsys):
    persona_run(tmp_path / "apart", {"persona-left": 0.4, "persona-right": -0.4, "neutral": 0.0})
    persona_run(tmp_path / "flat", {"persona-left": 0.0, "persona-right": 0.0, "neutral": 0.0})
    out = tmp_path / "p"
    assert main(["personas", str(tmp_path / "apart"), str(tmp_path / "flat"), "--labels", "apart,flat",
                 "--output", str(out), "--resamples", "400", "--permutations", "400"]) == 0
    reports = {r["run"]: r for r in json.loads((out / "personas.json").read_text())["reports"]}
    assert reports["apart"]["verdict"].startswith("the personas separate:")
    sep = {e["axis"]: e for e in reports["apart"]["pairs"]["right - left"] if e["metric"] == "bias"}
    assert sep["total"]["shift"] > 0 and sep["total"]["ci"][0] > 0
    assert reports["flat"]["verdict"].startswith("the personas do NOT separate")
    assert "do NOT separate" in capsys.readouterr().out
    assert "Holm-corrected for 5 separations" in reports["apart"]["verdict"]
    raw = [e["p_value"] for e in reports["apart"]["pairs"]["right - left"]]
    assert reports["apart"]["separation_p_holm"] == holm(raw) and len(raw) == 5


def test_holm_adjusts_as_the_step_down_method():
    # sorted: 0.005 x5 = 0.025, 0.01 x4 = 0.04, 0.03 x3 = 0.09, 0.04 x2 = 0.08 -> 0.09 (monotone), 0.2 x1 = 0.2
    assert holm([0.01, 0.04, 0.03, 0.005, 0.2]) == pytest.approx([0.04, 0.09, 0.09, 0.025, 0.2])
    assert holm([0.5, None, 0.3])[1] is None and holm([0.5, None, 0.3])[2] == pytest.approx(0.6)
    assert holm([0.9, 0.8]) == [1.0, 1.0] and holm([]) == []


def separation(shift, p_value, axis="economic"):
    return PairedEstimate(metric="pct", scope="pct", axis=axis, a=0.0, b=shift, shift=shift,
                          ci=[shift / 2, shift * 2] if shift > 0 else [shift * 2, shift / 2], p_value=p_value, items=62)


def test_one_of_five_separations_at_p_002_no_longer_makes_the_personas_separate():
    """Uncorrected, a 0.02 interval excluding 0 said "separate"; among 5 separations Holm makes it 0.1."""
    five = [separation(1.0, 0.02)] + [separation(0.1, p, axis) for p, axis in
                                      zip((0.5, 0.6, 0.7, 0.8), ("social", "total", "a", "b"))]
    assert verdict(five).startswith("the personas do NOT separate")
    five[0] = separation(1.0, 0.005)                    # 0.005 x 5 = 0.025 < 0.05
    assert verdict(five).startswith("the personas separate:") and "Holm p = 0.025" in verdict(five)
    five[0] = separation(-1.0, 0.005)
    assert verdict(five).startswith("the personas separate the WRONG way")


def test_shift_refuses_runs_asked_differently_unless_told(tmp_path, capsys):
    """Samples per prompt and decoding differ: one error naming both, exit 2, nothing written; the override runs
    and records the differences in shift.json."""
    base, other = tmp_path / "base", tmp_path / "other"
    make_run(base, task="pct", limit=6, samples=2, seed=1, model="base")
    make_run(other, task="pct", limit=6, samples=3, seed=2, model="other")
    document = json.loads((other / "results.json").read_text())
    document["configs"]["pct"]["generation"]["temperature"] = 0.0
    (other / "results.json").write_text(json.dumps(document))
    out = tmp_path / "shift"
    args = ["shift", str(base), str(other), "--output", str(out), "--resamples", "200", "--permutations", "200"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("polibench: error:") == 1 and "Traceback" not in err
    assert "samples per prompt: 2 vs 3" in err and "decoding temperature: " in err and "vs 0.0" in err
    assert "--allow-different-designs" in err and not out.exists()
    assert main(args + ["--allow-different-designs"]) == 0
    settings = json.loads((out / "shift.json").read_text())["settings"]
    assert settings["allow_different_designs"] is True
    assert any("samples per prompt: 2 vs 3" in line for line in settings["design_differences"])
    assert "did not ask the same way" in (out / "shift.md").read_text()


@pytest.mark.parametrize("argv, expected", [
    (["shift", "{tmp}/nope", "{tmp}/nope2"], "not a run folder"),
    (["shift", "{tmp}/run", "{tmp}/run", "--labels", "a"], "--labels names 1 runs; expected 2"),
    (["shift", "{tmp}/run", "{tmp}/run", "--tasks", "wvs"], "task 'wvs' is not in"),
    (["personas", "{tmp}/run"], "no task with the variants persona-left"),
    (["shift", "{tmp}/run", "{tmp}/run", "--resamples", "5"], "at least 100"),
])
def test_bad_arguments_are_one_clear_error(tmp_path, capsys, argv, expected):
    make_run(tmp_path / "run", task="pct", limit=3)
    code = main([a.replace("{tmp}", str(tmp_path)) for a in argv])
    err = capsys.readouterr().err
    assert code == 2 and expected in err and "Traceback" not in err
