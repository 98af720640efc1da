"""The plan `polibench run` prints before generating (polibench.cache.plan) and the speeds it keeps
(polibench.cache.speed): the counts it prints are the counts the run then makes, the ETA is the recorded speed
times what is left to generate, responses reused from the cache are counted apart and left out of the speed,
and the offline stance scorer's first-use training is announced with its steps and ETA. Mock backend only."""

from __future__ import annotations

import json
import re

import pytest

from polibench.cache import plan as plan_module
from polibench.cache.plan import GenerationPlan
from polibench.cache.speed import Speed, read_speed, record_speed, speed_path
from polibench.cli.main import main


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("POLIBENCH_CACHE", str(folder))
    return folder


def run(tmp_path, name, *flags):
    out = tmp_path / name
    argv = ["run", "--backend", "mock", "--tasks", "pct", "--limit", "3", "--scorer", "lexical", "--no-progress",
            "--output", str(out), *flags]
    assert main(argv) == 0
    return [json.loads(line) for line in (out / "samples.jsonl").read_text().splitlines()], \
        json.loads((out / "results.json").read_text())["configs"]["pct"]["generation"]["max_new_tokens"]


def plan_lines(text):
    return [line for line in text.splitlines() if line.startswith("polibench: plan:")]


def test_the_plan_counts_what_the_run_generates_and_the_next_run_reuses_its_speed(tmp_path, cache, capsys):
    samples, max_new_tokens = run(tmp_path, "first", "--samples", "1")
    err = capsys.readouterr().err
    lines = plan_lines(err)
    prompts = len({s["prompt"] for s in samples})
    assert lines[0] == (f"polibench: plan: pct: {len(samples)} requests ({prompts} distinct prompts), at most "
                        f"{max_new_tokens} new tokens each") and len(samples) == 3
    assert "no speed recorded for this backend yet: ETA after the first response" in lines[1]
    assert "generated responses took" not in err  # the one chunk left nothing to estimate
    (entry,) = json.loads(speed_path(cache).read_text()).values()
    assert entry["units"] == 3 and entry["what"].startswith("mock: pct")

    # 9 requests: the 3 of the first run are in the response cache (same seeds), 6 are generated
    samples, _ = run(tmp_path, "second", "--samples", "3")
    err = capsys.readouterr().err
    lines = plan_lines(err)
    assert lines[0].endswith(f"{len(samples)} requests (3 distinct prompts), at most {max_new_tokens} new tokens each; "
                             "3 already in the response cache, 6 to generate") and len(samples) == 9
    assert re.search(r"ETA about \d+ s \(\S+ s per response, measured on 3 responses on .+, on this backend\)",
                     lines[1]), lines[1]
    assert "generated responses took" not in err  # with a recorded speed, the plan gave the ETA already
    assert "3 reused, 6 new" in err  # the plan's look into the cache reuses nothing itself
    (entry,) = json.loads(speed_path(cache).read_text()).values()
    assert entry["units"] == 6  # the reused responses are not part of the measured speed


def test_the_eta_is_the_recorded_speed_times_what_is_left():
    speed = Speed(seconds=0.71, units=620, measured="2026-11-25 15:00 UTC", tokens=76.0)
    plan = GenerationPlan(task="pct", requests=640, prompts=64, cached=20, option_requests=0, max_new_tokens=200,
                          speed=speed, key="k")
    assert plan.lines() == [
        "pct: 640 requests (64 distinct prompts), at most 200 new tokens each; 20 already in the response cache, "
        "620 to generate",
        "pct: expected about 47,120 new tokens (76 per response), ETA about 7 min 20 s (0.71 s per response, "
        "measured on 620 responses on 2026-11-25 15:00 UTC, on this backend)"]  # 620 * 0.71 s = 440 s
    estimator = plan.estimator()
    assert estimator.remaining() == pytest.approx(620 * 0.71)
    bare = GenerationPlan(task="pct", requests=620, prompts=62, cached=0, option_requests=5, max_new_tokens=200,
                          speed=None, key="k")
    assert bare.lines()[0].endswith("; and 5 option-scoring requests (not in the ETA)")
    options_only = GenerationPlan(task="pct-logprob", requests=0, prompts=0, cached=0, option_requests=62,
                                  max_new_tokens=1, speed=None, key="k")
    assert options_only.lines() == ["pct-logprob: 62 option-scoring requests (log-probabilities of the answer "
                                    "options; no ETA for these)"]
    assert bare.lines()[1] == ("pct: expected at most 124,000 new tokens; no speed recorded for this backend yet: "
                               "ETA after the first 31 responses")  # 5% of 620
    estimator = bare.estimator()
    estimator.update(done=31, reused=0, elapsed=22.0)
    assert bare.warm_line(estimator) == ("pct: the first 31 generated responses took 22 s: ETA about 6 min 58 s "
                                         "for the remaining 589")  # 589 * 22 / 31 = 418 s
    done = GenerationPlan(task="pct", requests=9, prompts=3, cached=9, option_requests=0, max_new_tokens=100,
                          speed=None, key="k")
    assert done.lines() == ["pct: 9 requests (3 distinct prompts), at most 100 new tokens each; 9 already in the "
                            "response cache, 0 to generate"]


def test_a_small_run_does_not_replace_a_large_runs_speed(tmp_path):
    assert record_speed("k", 620 * 0.7, 620, folder=tmp_path).seconds == pytest.approx(0.7)
    record_speed("k", 10 * 3.0, 10, folder=tmp_path)  # a --limit run, 10 responses
    assert read_speed("k", tmp_path).units == 620
    record_speed("k", 150 * 1.0, 150, folder=tmp_path)  # 100 or more: the machine's current speed
    kept = read_speed("k", tmp_path)
    assert kept.units == 150 and kept.seconds == pytest.approx(1.0)
    speed_path(tmp_path).write_text("not json")
    assert read_speed("k", tmp_path) is None  # an unreadable record costs the ETA, not the run


def test_first_use_training_is_in_the_plan_with_its_steps_and_eta(cache, monkeypatch):
    from polibench.pipeline.plan import RunOptions
    from polibench.pipeline.score import first_use_plans
    from polibench.scorers.stance import embedded
    from polibench.scorers.stance.data import gold_path, load_examples
    from polibench.taskspec.loader import load_registry

    tasks = [load_registry([]).task("pct")]
    options = RunOptions(offline_default="embedded")
    n_train = len(load_examples(gold_path("train")))
    steps = embedded.recipe().total_steps(n_train)
    (line,) = first_use_plans(tasks, options)  # nothing is trained: the scorer is only asked what it costs
    assert line == (f"the offline stance scorer is trained once, on first use: MiniLM-L6 on {n_train} gold examples, "
                    f"{steps} steps; no training speed recorded in this cache yet: ETA after the first "
                    f"{-(-steps * 5 // 100)} steps")
    record_speed(embedded.training_speed_key(), 2.0 * steps, steps)
    (line,) = first_use_plans(tasks, options)
    assert f"{steps} steps; ETA about {plan_module.duration(2.0 * steps)} (2.00 s per step, measured on {steps} " \
           "steps on" in line
    monkeypatch.setattr(embedded, "is_trained", lambda: True)
    assert first_use_plans(tasks, options) == []


def test_first_use_training_prints_its_measured_eta_after_five_percent_of_the_steps(monkeypatch, capsys):
    """The rate is measured from the end of the first step (which pays one-time costs): a first step of 30 s and
    then 2 s a step gives the ETA of 2 s a step, said once."""
    from types import SimpleNamespace

    from polibench.scorers.stance import embedded

    times = iter([0.0, 30.0] + [30.0 + 2 * k for k in range(1, 200)])  # train begins, step 1 ends at 30 s, then 2 s
    monkeypatch.setattr("time.perf_counter", lambda: next(times))
    callback = embedded.TrainingEta(steps=101)
    callback.on_train_begin(None, None, None)
    for step in range(1, 7):
        callback.on_step_end(None, SimpleNamespace(global_step=step), None)
        err = capsys.readouterr().err
        assert ("ETA" in err) == (step == 6)  # said once, at 5 of the 100 measured steps
    assert "training steps 2 to 6 took 10 s: ETA about 3 min 10 s for the remaining 95" in err  # 95 steps at 2 s
    callback.on_step_end(None, SimpleNamespace(global_step=7), None)
    assert capsys.readouterr().err == ""


def test_the_ideology_judges_first_use_is_in_the_plan(cache):
    from polibench.scorers.ideology import embedded
    from polibench.scorers.ideology.corpus import corpus_split

    n_train = len(corpus_split("train")) + len(corpus_split("dev"))  # neutral texts included (soft 0.5 targets)
    line = embedded.EmbeddedIdeologyScorer.first_use_plan()
    assert line.startswith(f"the offline ideology judge is trained once, on first use: TF-IDF words and MiniLM-L6 "
                           f"embeddings of "
                           f"{n_train} texts") and line.endswith("no training speed recorded in this cache yet "
                                                                  "(it embeds each text once)")
    record_speed(embedded.SPEED_KEY, 0.25 * n_train, n_train)
    assert f"; ETA about {plan_module.duration(0.25 * n_train)} (0.25 s per text, measured on {n_train} texts" \
        in embedded.EmbeddedIdeologyScorer.first_use_plan()
    assert embedded.EmbeddedIdeologyScorer.first_use_plan(judge="my/judge") is None  # a given judge is not trained


def test_the_issue_scorers_first_use_is_in_the_plan_and_its_training_speed_is_recorded(cache, monkeypatch, capsys):
    """The issue-stance scorer's plan line, with and without a recorded speed; training records its speed per gold
    response (the recipe's fit is replaced by a stub model: the line and the record are what is checked)."""
    from polibench.scorers.issue_stance import embedded as issue

    n_train = len(issue.training_examples())
    line = issue.IssueStanceScorer.first_use_plan()
    assert line == ("the offline issue-stance scorer is trained once, on first use: all-mpnet-base-v2 sentence "
                    f"embeddings of {n_train} gold responses + logistic regression; no training speed recorded in this "
                    "cache yet (it embeds every sentence once)")
    assert issue.IssueStanceScorer.first_use_plan(model="my/model") is None  # a given model is not trained

    class Stub:
        info: dict = {}

        def save(self, folder):
            folder.mkdir(parents=True)
            (folder / issue.MODEL_FILE).write_text("{}")

    clock = iter([100.0, 100.0 + 0.5 * n_train])
    monkeypatch.setattr(issue.time, "perf_counter", lambda: next(clock))
    monkeypatch.setattr(issue, "train_model", lambda *args, **kwargs: Stub())
    monkeypatch.setattr(issue, "recipe_encoder", lambda: "minilm")
    monkeypatch.setattr(issue, "default_key", lambda: "f" * 64)
    issue.ensure_default_model()
    assert "issue-stance scorer: embedding its gold texts" in capsys.readouterr().err  # the first use shows a bar
    kept = read_speed(issue.SPEED_KEY)
    assert kept.units == n_train and kept.seconds == pytest.approx(0.5)
    monkeypatch.setattr(issue, "default_key", lambda: "e" * 64)  # another key: not trained in this cache
    assert f"; ETA about {plan_module.duration(0.5 * n_train)} (0.50 s per response, measured on {n_train} " \
        "responses" in issue.IssueStanceScorer.first_use_plan()
