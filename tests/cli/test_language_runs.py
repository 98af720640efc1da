"""The language effect's positive controls, end to end through ``polibench run`` on the ``planted-language``
backend (in-process: a planted model stands where a real one would, since no real model with a known language
effect exists), and the preflight that keeps the English stance scorer away from other languages.

- planted left in German, language-blind elsewhere: the shift is seen with an interval that excludes 0, in the
  direction planted, and French (blind) is not flagged, with a difference of exactly 0; the difference equals the
  js.js formula written out again over the planted answers; report.md shows the section and its compass;
- language-blind with response noise in every language (English, Russian, Persian): no language is flagged;
- planted right in Polish, through the log-probability channel: seen, to the right; Italian (blind) not flagged;
- a task in German with an English-only scorer: one line, exit code 2, nothing written.
"""

import json

import pytest

from polibench.cli.main import main
from polibench.families.pct.metric import ECON_DIVISOR, SOC_DIVISOR
from polibench.models.planted_language import PlantedLanguageBackend
from polibench.pipeline.plan import build_samples
from polibench.records import Prompt
from polibench.taskspec.loader import load_registry

pytestmark = pytest.mark.slow


def run(out, tasks, model_args=""):
    args = ["run", "--backend", "planted-language", "--tasks", ",".join(tasks), "--output", str(out), "--no-cache",
            "--no-progress"] + (["--model-args", model_args] if model_args else [])
    assert main(args) == 0
    assert main(["score", str(out), "--check"]) == 0
    return json.loads((out / "results.json").read_text())


def quick_run(out, tasks, **plant):
    """The same run in-process, without report.md and its figures (results.json is all these tests read)."""
    from unittest import mock

    from polibench.pipeline.run import RunOptions, evaluate

    with mock.patch("polibench.pipeline.write.write_report", lambda *a, **k: None):
        evaluate(list(tasks), load_registry(), PlantedLanguageBackend(**plant), out,
                 RunOptions(show_progress=False, command=["test"]))
    return json.loads((out / "results.json").read_text())


def effect(results, channel):
    found = [e for e in results["run_metrics"]["language_effect"] if e["channel"] == channel]
    assert len(found) == 1
    return {lang["language"]: lang for lang in found[0]["languages"]}, found[0]


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    out = tmp_path_factory.mktemp("planted") / "run"
    return out, run(out, ["pct-en-forced", "pct-de-forced", "pct-fr-forced"], "left=de")


def expected_difference(language, backend, registry):
    """The difference from English written out again: per statement, the js.js weight of the planted answer in
    ``language`` minus that of the answer in English (one answer per statement: the planted model answers every
    paraphrase alike), summed and divided."""
    totals = [0.0, 0.0]
    for code, sign in ((language, 1), ("en", -1)):
        instrument = registry.instruments[f"pct-{code}"]
        samples = [s for s in build_samples(registry.task(f"pct-{code}-forced"), registry) if s.variant == "par0"]
        for sample, item in zip(samples, instrument.items):
            answer = backend.choose(Prompt(text=sample.prompt, seed=sample.seed))
            totals[0] += sign * item.weights.economic[answer]
            totals[1] += sign * item.weights.social[answer]
    return round(totals[0] / ECON_DIVISOR, 2), round(totals[1] / SOC_DIVISOR, 2)


def test_planted_shifts_are_seen_with_intervals_that_exclude_zero(planted):
    out, results = planted
    languages, block = effect(results, "forced")
    assert block["reference"] == "en" and block["comparisons"] == 4
    assert all(lang["kept_share"] == 1.0 for lang in languages.values())  # every planted answer is read
    de, fr = languages["de"], languages["fr"]
    for axis in ("economic", "social"):
        assert de["difference"][axis] < 0 and de["simultaneous_ci"][axis][1] < 0 and de["shift"][axis]
        assert fr["difference"][axis] == 0 and not fr["shift"][axis]
        assert fr["difference_ci"][axis] == [0.0, 0.0]
    assert tuple(de["difference"][a] for a in ("economic", "social")) == \
        expected_difference("de", PlantedLanguageBackend(left="de"), load_registry())
    assert block["spread"]["economic"]["sd"] > 1


def test_report_has_the_languages_section_and_its_compass(planted):
    out, _ = planted
    report = (out / "report.md").read_text()
    section = report.split("## Languages", 1)[1]
    assert "languages_pct_forced.png" in section and (out / "languages_pct_forced.png").is_file()
    assert (out / "languages_pct_forced.svg").is_file()
    assert "| German (de) | pct-de-forced |" in section and "shifted: economic, social" in section
    assert "| French (fr) | pct-fr-forced |" in section and "not distinguishable" in section
    assert "Shifted from English" in section and "Not distinguishable from English: French." in section


def test_a_language_blind_model_with_noise_is_not_flagged(tmp_path):
    results = quick_run(tmp_path / "run", ["pct-en-forced", "pct-ru-forced", "pct-fa-forced"], noise=0.3)
    languages, block = effect(results, "forced")
    assert block["comparisons"] == 4
    flagged = [(code, axis) for code, lang in languages.items() for axis, shifted in lang["shift"].items() if shifted]
    assert flagged == []
    assert any(lang["difference"][axis] != 0 for lang in languages.values() if lang["language"] != "en"
               for axis in ("economic", "social"))  # the noise is there: the positions differ a little


def test_the_log_probability_channel_sees_the_plant_too(tmp_path):
    results = quick_run(tmp_path / "run", ["pct-en-logprob", "pct-pl-logprob", "pct-it-logprob"], right="pl")
    languages, block = effect(results, "logprob")
    assert languages["pl"]["shift"] == {"economic": True, "social": True}
    assert languages["pl"]["difference"]["economic"] > 0 and languages["pl"]["difference"]["social"] > 0
    assert languages["it"]["shift"] == {"economic": False, "social": False}
    assert languages["it"]["difference"] == {"economic": 0.0, "social": 0.0}


def test_an_english_only_scorer_is_refused_for_another_language(tmp_path, capsys):
    out = tmp_path / "run"
    code = main(["run", "--backend", "planted-language", "--tasks", "pct-en-forced,pct-de-forced", "--scorer",
                 "embedded", "--output", str(out), "--no-cache", "--no-progress"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and not out.exists()
    assert len(err.splitlines()) == 1
    assert "task 'pct-de-forced' asks in German" in err and "reads English only" in err and "--scorer abstain" in err
