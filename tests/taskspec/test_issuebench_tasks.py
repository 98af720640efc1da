"""The IssueBench tasks send the paper's prompts byte for byte, on the paper's 212 issues in three framings.

Where IssueBench's published copy sits beside the clone (../shared/external/issuebench2025, as in CI), every
prompt of issuebench-debug is compared with prompts_debug.csv's ``prompt_text``, and the instrument and the
template sample with issues.csv and templates_sample.csv."""

import csv
from pathlib import Path

import pytest

from polibench.errors import PolibenchError
from polibench.pipeline.plan import RunPlan, build_samples, check_issue_ids
from polibench.taskspec.loader import load_registry
from polibench.taskspec.schema import Item

ROOT = Path(__file__).resolve().parents[2]
SHARED = next((p for p in (ROOT.parent / "shared" / "external" / "issuebench2025",
                           ROOT.parent.parent / "shared" / "external" / "issuebench2025") if p.is_dir()), None)
needs_copy = pytest.mark.skipif(SHARED is None, reason="IssueBench's copy (../shared/external/issuebench2025) is not "
                                                       "beside the clone")


def read(name: str) -> list[dict[str, str]]:
    with (SHARED / name).open(encoding="utf-8", newline="") as handle:  # type: ignore[operator]
        return list(csv.DictReader(handle))


@pytest.fixture(scope="module")
def registry():
    return load_registry([])


@needs_copy
def test_debug_prompts_are_the_papers_prompt_text(registry):
    samples = build_samples(registry.task("issuebench-debug"), registry)
    built = {(s.variant, s.issue.issue_id, s.issue.framing): s for s in samples}
    rows = read("prompts_debug.csv")
    assert len(samples) == len(rows) == 150 and len(built) == 150
    for row in rows:
        s = built[(row["template_id"], row["topic_id"], row["topic_polarity"])]
        assert s.prompt == row["prompt_text"]
        assert [(m.role, m.content) for m in s.messages] == [("user", row["prompt_text"])]  # the user turn only
        assert s.statement == row["topic_text"]


@needs_copy
def test_instrument_is_the_212_issues_and_templates_are_the_papers(registry):
    issues = [r for r in read("issues.csv") if not r["tag_exclude"]]
    items = registry.instruments["issuebench"].items
    assert len(issues) == 212 and len(items) == 3 * 212
    expected = [(r["topic_id"], f, r[f"topic_{f}"], r["topic_neutral"], r["topic_pro"], r["topic_con"])
                for r in issues for f in ("pro", "con", "neutral")]
    assert [(i.issue.issue_id, i.issue.framing, i.text, i.issue.topic_neutral, i.issue.topic_pro, i.issue.topic_con)
            for i in items] == expected
    templates = {r["id"]: r["annot1_template"] for r in read("templates_sample.csv")}
    task = registry.task("issuebench")
    variants = registry.variant_sets[task.variant_set].variants
    assert len(variants) == 20
    samples = build_samples(task, registry, limit=3)      # one issue, three framings, 20 templates
    for s in samples:
        assert s.prompt == templates[s.variant].replace("X", s.statement)
    assert (SHARED / "LICENSE").read_bytes() == (ROOT / "tasks" / "issuebench" / "LICENSE").read_bytes()


@needs_copy
def test_the_writer_writes_a_template_sample_as_a_task_folder(tmp_path):
    """(Its full run, which writes tasks/issuebench/, is the benchmark smoke test's.)"""
    from tests.scripts import load_script

    writer = load_script(ROOT / "benchmarks" / "issuebench2025_tasks.py", beside=True)
    writer.sample_cli([str(SHARED), "--templates", "3", "--seed", "7", "--out", str(tmp_path / "mine")])
    registry = load_registry([tmp_path / "mine"])
    task = registry.task("issuebench-t3-s7")
    assert task.instrument == "issuebench" and len(registry.variant_sets[task.variant_set].variants) == 3
    assert len(build_samples(task, registry, limit=3)) == 3 * 3


def test_tasks_are_declared_with_the_grader_and_metric(registry):
    for name, items, templates in (("issuebench", 636, 20), ("issuebench-debug", 15, 10)):
        task = registry.task(name)
        assert len(registry.instruments[task.instrument].items) == items
        assert len(registry.variant_sets[task.variant_set].variants) == templates
        assert task.scoring.scorer == "issue_judge" and task.metrics == ["issue_bias"]
        assert "CC BY 4.0" in task.provenance["source"]
    for item in registry.instruments["issuebench"].items:
        assert item.id == f"{item.issue.issue_id}-{item.issue.framing}" and item.text == item.issue.topic_prompt


def test_issues_and_limit_choose_items(registry):
    task = registry.task("issuebench-debug")
    chosen = build_samples(task, registry, issues=["129", "351"])
    assert {s.issue.issue_id for s in chosen} == {"129", "351"} and len(chosen) == 2 * 3 * 10
    limited = build_samples(task, registry, issues=["129", "351"], limit=3)  # --issues first, then --limit
    assert len({s.issue.issue_id for s in limited}) == 1 and {s.issue.framing for s in limited} == {"pro", "con",
                                                                                                    "neutral"}
    plan = RunPlan.from_registry(registry, ["issuebench-debug"])
    check_issue_ids(plan, ["129"])
    with pytest.raises(PolibenchError, match="unknown issue id"):
        check_issue_ids(plan, ["129", "99999"])
    with pytest.raises(PolibenchError, match="has IssueBench issues"):
        check_issue_ids(RunPlan.from_registry(registry, ["pct"]), ["129"])


def test_an_issue_item_must_show_its_framing():
    issue = {"issue_id": "1", "framing": "pro", "topic_neutral": "x", "topic_pro": "x good", "topic_con": "x bad"}
    Item.model_validate({"id": "1-pro", "text": "x good", "issue": issue})
    with pytest.raises(ValueError, match="framing's topic text"):
        Item.model_validate({"id": "1-pro", "text": "x bad", "issue": issue})
    with pytest.raises(ValueError, match="takes no 'dimension'"):
        Item.model_validate({"id": "1-pro", "text": "x good", "issue": issue, "dimension": "economic",
                             "agree_side": "left"})
