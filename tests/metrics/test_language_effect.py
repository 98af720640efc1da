"""The language effect (polibench.families.languages.metric) on hand-made answer sheets: the difference from English is
the js.js formula over the statements answered in both, a statement unanswered in one language is left out of it,
identical sheets give 0 with the interval [0, 0], the simultaneous level covers the group's comparisons, the spread is
the SD of the positions, and tasks group by translated instrument and channel."""

from __future__ import annotations

import pytest

from polibench.families.languages.metric import language_effects
from polibench.families.pct.metric import ECON_DIVISOR, SOC_DIVISOR
from polibench.metrics.compute import compute_task_results
from polibench.metrics.run_level import RunInput
from polibench.records import Sample, Stance
from polibench.scoring.forced_choice import forced_choice_stance
from polibench.taskspec.loader import load_registry

RESAMPLES = 2000


class Results:
    def __init__(self, blocks: dict):
        self.blocks = blocks

    def block(self, key: str):
        return self.blocks.get(key)


@pytest.fixture(scope="module")
def registry():
    return load_registry()


def sheet(registry, language: str, answers: dict[str, int | None], default: int = 2, channel: str = "forced"):
    """One parsed answer per statement (0-3; None: unanswered) as the samples of task pct-<language>-<channel>."""
    task = registry.task(f"pct-{language}-{channel}")
    scoring = "logprob" if channel == "logprob" else ("forced_choice" if language == "en" else
                                                       f"forced_choice_{language}")
    samples = []
    for item in registry.instruments[f"pct-{language}"].items:
        answer = answers.get(item.id, default)
        if answer is None:
            stance = Stance(label=None, scorer="abstain", kept=False, reason="abstained")
        else:
            label, probs = forced_choice_stance(answer)
            stance = Stance(label=label, confidence=1.0, probs=probs, scorer="forced_choice:x", kept=True)
        samples.append(Sample(task=task.task, instrument=f"pct-{language}", item_id=item.id, statement=item.text,
                              dimension=item.dimension, agree_side=item.agree_side, variant="par0", scoring=scoring,
                              sample_index=0, seed=1, prompt="p", response="r", stance=stance))
    return task, samples


def effects(registry, sheets):
    tasks = {task.task: task for task, _ in sheets}
    samples = [s for _, found in sheets for s in found]
    instruments = {name: registry.instruments[name] for name in {s.instrument for s in samples}}
    results = {task.task: Results(compute_task_results(task, instruments, found, resamples=RESAMPLES))
               for task, found in sheets}
    return language_effects(RunInput(tasks=tasks, instruments=instruments, samples=samples, results=results),
                            resamples=RESAMPLES)


def test_the_difference_is_the_js_formula_over_the_statements_answered_in_both(registry):
    english = sheet(registry, "en", {})
    # German: strongly agree with pct-01 (economic weights [7, 5, 0, -2]) and pct-02 (social [-8, -6, 0, 2]);
    # pct-03 unanswered in German, so it leaves the comparison
    german = sheet(registry, "de", {"pct-01": 3, "pct-02": 3, "pct-03": None})
    (effect,) = effects(registry, [english, german])
    de = next(lang for lang in effect.languages if lang.language == "de")
    assert de.difference == {"economic": round(-2 / ECON_DIVISOR, 2), "social": round(2 / SOC_DIVISOR, 2)}
    assert de.statements_both["social"] == effect.languages[0].answered["social"] - 1
    assert effect.reference == "en" and effect.comparisons == 2 and effect.simultaneous_level == 1 - 0.05 / 2
    assert effect.languages[0].difference == {}  # the reference has no difference of its own


def test_identical_answers_in_every_language_are_no_shift(registry):
    answers = {f"pct-{n:02d}": n % 4 for n in range(1, 63)}
    found = effects(registry, [sheet(registry, code, answers) for code in ("en", "fr", "ru", "fa")])
    (effect,) = found
    assert effect.comparisons == 6
    for lang in effect.languages[1:]:
        assert lang.difference == {"economic": 0.0, "social": 0.0}
        assert lang.difference_ci == {"economic": [0.0, 0.0], "social": [0.0, 0.0]}
        assert lang.shift == {"economic": False, "social": False}
    assert effect.spread["economic"].sd == 0.0 and effect.spread["social"].range == 0.0
    assert effect.shifted() == []


def test_a_planted_shift_is_flagged_and_a_small_one_is_reported_as_not_distinguishable(registry):
    left = {item.id: (3 if item.agree_side == "left" else 0) for item in registry.instruments["pct"].items}
    one = {"pct-01": 3}  # a single statement moved: a small difference, its interval includes 0
    found = effects(registry, [sheet(registry, "en", {}), sheet(registry, "de", left), sheet(registry, "it", one)])
    (effect,) = found
    de, it = effect.languages[1], effect.languages[2]
    assert de.language == "de" and de.shift == {"economic": True, "social": True}
    assert de.difference["economic"] < 0 and de.simultaneous_ci["economic"][1] < 0
    assert it.shift == {"economic": False, "social": False} and it.difference["economic"] < 0
    assert it.difference_ci["economic"][0] < 0 <= it.difference_ci["economic"][1]
    assert [(lang.language, axis) for lang, axis in effect.shifted()] == [("de", "economic"), ("de", "social")]
    positions = [lang.position["economic"] for lang in effect.languages]
    mean = sum(positions) / 3
    sd = (sum((p - mean) ** 2 for p in positions) / 2) ** 0.5
    # the pct coordinates are rounded to two decimals, the spread is computed from the unrounded positions
    assert effect.spread["economic"].sd == pytest.approx(sd, abs=0.011)
    assert effect.spread["economic"].range == pytest.approx(max(positions) - min(positions), abs=0.011)
    assert effect.spread["economic"].sd_ci[0] <= effect.spread["economic"].sd <= effect.spread["economic"].sd_ci[1]


def test_channels_and_runs_without_english_are_kept_apart(registry):
    found = effects(registry, [sheet(registry, "de", {}), sheet(registry, "fr", {"pct-05": 0}),
                               sheet(registry, "de", {}, channel="logprob"),
                               sheet(registry, "en", {}, channel="logprob")])
    by_channel = {effect.channel: effect for effect in found}
    assert set(by_channel) == {"forced", "logprob"}
    assert by_channel["forced"].reference is None and by_channel["forced"].comparisons == 0
    assert all(lang.difference == {} for lang in by_channel["forced"].languages)
    assert by_channel["logprob"].reference == "en"


def test_one_language_alone_is_no_comparison(registry):
    assert effects(registry, [sheet(registry, "de", {})]) == []
