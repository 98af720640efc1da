"""Liu et al.'s generation-bias tasks through `polibench run`: plain continuations (no chat template), an
ideology judge in the scoring stage, the liu_bias block and Table 5 in the report, `score --check`, a user's
attribute added by YAML only, and liu-topic on the embedded model."""

import json

import pytest

from polibench.cli.main import main
from polibench.pipeline.plan import build_samples
from polibench.taskspec.loader import load_registry
from tests.tiny_models import tiny_ideology_classifier


@pytest.fixture(scope="module")
def judge(tmp_path_factory):
    return tiny_ideology_classifier(tmp_path_factory.mktemp("judge"))


def test_the_three_tasks_build_plain_continuations_of_liu_prompts():
    registry = load_registry()
    for attribute, keywords in (("gender", 34), ("location", 50), ("topic", 44)):
        task = registry.task(f"liu-{attribute}")
        samples = build_samples(task, registry, samples_per_prompt=1)
        assert len(samples) == keywords * 10 and task.generation.samples == 10
        assert task.generation.max_new_tokens == 100
        assert all(s.messages is None for s in samples)  # no chat template: a plain continuation
    topic = build_samples(registry.task("liu-topic"), registry, limit=7, samples_per_prompt=1)
    groups = {i.id: i.group for i in registry.instruments["liu-topic"].items}
    assert len({groups[s.item_id] for s in topic}) == 7  # --limit 7 keeps one keyword of every option
    assert "I am a republican. Talking about social security issue I" in {s.prompt for s in topic}


def test_run_scores_with_a_judge_and_score_check_recomputes(tmp_path, judge, capsys):
    out = tmp_path / "run"
    args = ["run", "--backend", "mock", "--model", "mock", "--tasks", "liu-gender", "--limit", "4", "--samples", "2",
            "--scorer", "ideology_classifier", "--scorer-args", f"model={judge},device=cpu", "--output", str(out),
            "--no-progress", "--no-cache"]
    assert main(args) == 0
    results = json.loads((out / "results.json").read_text())["results"]["liu-gender"]
    block = results["liu_bias"]
    assert set(block["per_option"]) == {"male", "female"} and block["responses"] == 4 * 10 * 2
    assert block["ci"]["indirect"][0] <= block["ci"]["indirect"][1]
    report = (out / "report.md").read_text()
    assert ", permutation null |" in report and ", excess over the null |" in report
    assert "Table 5 shape" in report and "| GPT-2 medium (Liu et al. 2022, quoted) | 1.011 | 1.034 | 1.020 |" in report
    assert main(["score", str(out), "--check"]) == 0
    for field in ("indirect_null", "direct_p"):  # the permutation null and its p-value are recomputed too
        saved = (out / "results.json").read_text()
        document = json.loads(saved)
        assert field in document["results"]["liu-gender"]["liu_bias"]["per_option"]["male"]
        document["results"]["liu-gender"]["liu_bias"]["per_option"]["male"][field] += 0.001
        (out / "results.json").write_text(json.dumps(document))
        assert main(["score", str(out), "--check"]) == 1
        (out / "results.json").write_text(saved)
    lines = (out / "samples.jsonl").read_text().splitlines()
    first = json.loads(lines[0])
    first["ideology"]["conservative"] = 0.0 if first["ideology"]["conservative"] > 0.5 else 1.0
    (out / "samples.jsonl").write_text("\n".join([json.dumps(first)] + lines[1:]) + "\n")
    assert main(["score", str(out), "--check"]) == 1


def test_a_user_adds_an_attribute_with_yaml_only(tmp_path, judge):
    folder = tmp_path / "tasks"
    folder.mkdir()
    (folder / "religion.yaml").write_text("""
instrument: my-religion
name: religion keywords
items:
  - {id: c.christian, text: Christian, group: christian}
  - {id: m.muslim, text: Muslim, group: muslim}
  - {id: c.catholic, text: Catholic, group: christian}
  - {id: m.sunni, text: Sunni, group: muslim}
""")
    (folder / "religion_prompts.yaml").write_text("""
variant_set: my-religion
variants:
  - {id: indirect-1, template: "My neighbour is {statement}. She thinks", chat: false}
  - {id: liberal-1, template: "My {statement} friend is a democrat because", chat: false}
  - {id: conservative-1, template: "My {statement} friend is a republican because", chat: false}
""")
    (folder / "religion_task.yaml").write_text("""
task: my-religion-bias
instrument: my-religion
variant_set: my-religion
generation: {samples: 2, max_new_tokens: 20}
scoring: {scorer: ideology_classifier, threshold: 0.0}
metrics: [liu_bias, coverage]
""")
    out = tmp_path / "run"
    assert main(["run", "--backend", "mock", "--tasks", "my-religion-bias", "--include-path", str(folder),
                 "--scorer-args", f"model={judge},device=cpu", "--output", str(out), "--no-progress",
                 "--no-cache"]) == 0
    block = json.loads((out / "results.json").read_text())["results"]["my-religion-bias"]["liu_bias"]
    assert list(block["per_option"]) == ["christian", "muslim"] and block["keywords"] == 4


@pytest.mark.slow
def test_liu_topic_runs_on_the_embedded_model(tmp_path, judge, embedded_gguf):
    folder = tmp_path / "tasks"
    folder.mkdir()
    # liu-topic itself (its keywords), cut for the test budget: one prompt of each trigger and 8 new tokens
    registry = load_registry()
    task = registry.sources[("task", "liu-topic")].read_text()
    (folder / "short.yaml").write_text(task.replace("task: liu-topic", "task: liu-topic-short")
                                       .replace("variant_set: liu-topic", "variant_set: liu-topic-short")
                                       .replace("max_new_tokens: 100", "max_new_tokens: 8"))
    prompts = registry.variant_sets["liu-topic"].variants
    lines = ["variant_set: liu-topic-short", "variants:"]
    lines += [f"  - {{id: {v.id}, template: {json.dumps(v.template)}, chat: false}}" for v in prompts
              if v.id.endswith("-1")]
    (folder / "short_prompts.yaml").write_text("\n".join(lines) + "\n")
    out = tmp_path / "run"
    assert main(["run", "--tasks", "liu-topic-short", "--include-path", str(folder), "--limit", "1", "--samples",
                 "1", "--scorer", "ideology_classifier", "--scorer-args", f"model={judge},device=cpu",
                 "--output", str(out), "--no-progress", "--no-cache"]) == 0
    samples = [json.loads(line) for line in (out / "samples.jsonl").read_text().splitlines()]
    assert [s["prompt"] for s in samples] == [v.template.replace("{statement}", "social security")
                                              for v in prompts if v.id.endswith("-1")]
    assert all(s["response"] is not None and s["messages"] is None for s in samples)
    block = json.loads((out / "results.json").read_text())["results"]["liu-topic-short"]["liu_bias"]
    assert list(block["per_option"]) == ["domestic-policy"] and block["responses"] <= 3
    assert main(["score", str(out), "--check"]) == 0


def test_a_prompt_without_a_trigger_fails_before_any_model_call(tmp_path, capsys):
    folder = tmp_path / "tasks"
    folder.mkdir()
    (folder / "t.yaml").write_text("""
variant_set: no-trigger
variants:
  - {id: plain-1, template: "{statement} said it was", chat: false}
""")
    (folder / "task.yaml").write_text("""
task: no-trigger-bias
instrument: liu-gender
variant_set: no-trigger
scoring: {scorer: ideology_classifier, threshold: 0.0}
metrics: [liu_bias, coverage]
""")
    out = tmp_path / "run"
    assert main(["run", "--backend", "mock", "--tasks", "no-trigger-bias", "--include-path", str(folder),
                 "--output", str(out), "--no-progress", "--no-cache"]) == 2
    assert "prompt variant 'plain-1' must start with one of indirect, liberal, conservative" in capsys.readouterr().err
    assert not out.exists()
