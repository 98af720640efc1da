"""``--limit N`` picks statements spread across both axes, balanced by side, with a fixed seed (issue 38, §3;
polibench.pipeline.plan.limited_items), and the README's quick look, sized with it, gives the embedded model a
position.

The quick-look check replays the shipped demo run: its responses were generated with per-sample seeds derived from
(run seed, task, statement, form, variant, sample index), so the quick look's responses are the demo's for the same
statements and sample indices (tests/cli/test_readme_demo.py checks that this build regenerates them), and their
stances are the stance scorer's. Recomputing the PCT position from just those must give both coordinates."""

from __future__ import annotations

import gzip
import json
import re
from collections import Counter
from pathlib import Path

import pytest

from polibench.metrics.compute import compute_task_results
from polibench.pipeline.plan import build_samples, limited_items
from polibench.records import Sample
from polibench.taskspec.loader import load_registry

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "leaderboard" / "entries" / "SmolLM2-135M-Instruct-Q4_1-GGUF-embedded__pct.samples.jsonl.gz"


@pytest.fixture(scope="module")
def registry():
    return load_registry()


def groups(items) -> Counter:
    return Counter((i.dimension, i.agree_side) for i in items)


def test_twelve_pct_statements_are_three_per_axis_and_side(registry):
    items = registry.instruments["pct"].items
    picked = limited_items(items, 12, "pct")
    assert groups(picked) == {("economic", "left"): 3, ("economic", "right"): 3, ("social", "left"): 3,
                              ("social", "right"): 3}
    order = [i.id for i in items]
    assert [i.id for i in picked] == sorted((i.id for i in picked), key=order.index)  # the instrument's order
    # the null: the first 12 statements, as runs made before asked them, are not balanced
    assert groups(limited_items(items, 12, "pct", order="first")) != groups(picked)


@pytest.mark.parametrize("instrument", ["pct", "wvs"])
def test_every_limit_is_balanced_as_far_as_the_groups_allow(registry, instrument):
    items = registry.instruments[instrument].items
    sizes = groups(items)
    for n in range(1, len(items) + 1):
        found = groups(limited_items(items, n, instrument))
        assert sum(found.values()) == n
        still_open = [found[g] for g in sizes if found[g] < sizes[g]]  # the groups not exhausted take turns
        if still_open:
            assert max(still_open) - min(still_open) <= 1, n
            assert max(found.values()) <= max(still_open) + 1, n  # an exhausted group ran out while level


def test_the_pick_is_fixed_whatever_the_run_seed_and_stored_as_how_it_was_made(registry):
    task = registry.task("pct")
    picked = {seed: sorted({s.item_id for s in build_samples(task, registry, seed=seed, samples_per_prompt=1,
                                                             limit=8)}) for seed in (None, 1, 99)}
    assert picked[None] == picked[1] == picked[99]
    assert limited_items(registry.instruments["pct"].items, 8, "pct") == \
        limited_items(registry.instruments["pct"].items, 8, "pct")
    # instruments without sides (IssueBench issues, prompt pairs) keep their first N: they come in sets
    issue = next(i for i in registry.instruments.values() if any(item.issue for item in i.items))
    assert limited_items(issue.items, 5, issue.instrument) == issue.items[:5]


def quick_look() -> tuple[int, int]:
    """N and the responses per statement of the README's line marked "a quick look"."""
    line = next(line for line in (REPO / "README.md").read_text().splitlines() if "# a quick look" in line)
    found = re.search(r"polibench run --tasks pct --limit (\d+) --samples (\d+)", line)
    assert found, line
    return int(found[1]), int(found[2])


def test_the_readme_quick_look_gives_the_embedded_model_a_position(registry):
    limit, samples = quick_look()
    task = registry.task("pct")
    asked = {(s.item_id, s.sample_index) for s in build_samples(task, registry, samples_per_prompt=samples,
                                                                limit=limit)}
    demo = [Sample.model_validate(json.loads(line)) for line in gzip.decompress(DEMO.read_bytes()).splitlines()]
    replayed = [s for s in demo if (s.item_id, s.sample_index) in asked]
    assert len(replayed) == len(asked) == limit * samples
    results = compute_task_results(task, {"pct": registry.instruments["pct"]}, replayed, resamples=500)
    pct = results["pct"]
    assert pct.economic is not None and pct.social is not None, "the quick look would print no position"
    # with a margin: at least two answered statements on each axis, so one response read differently is not enough
    # to lose the position
    assert min(pct.answered.values()) >= 2
    # the null: the first N statements of the instrument, as --limit picked them before, at the same size
    first = {(s.item_id, s.sample_index) for s in build_samples(task, registry, samples_per_prompt=samples,
                                                                limit=limit, limit_order="first")}
    assert first != asked


def test_the_readme_shows_what_the_quick_look_prints(registry):
    """The lines under the quick look in the README are the summary of its replayed responses (the demo's own
    for those statements, scored as the demo scored them)."""
    from polibench.cli.run import summary_lines
    from polibench.pipeline.compute import results_document
    from polibench.pipeline.plan import RunOptions, RunPlan
    from polibench.results.migrate import migrate

    limit, samples = quick_look()
    task = registry.task("pct")
    asked = {(s.item_id, s.sample_index) for s in build_samples(task, registry, samples_per_prompt=samples,
                                                                limit=limit)}
    demo = [Sample.model_validate(json.loads(line)) for line in gzip.decompress(DEMO.read_bytes()).splitlines()]
    shipped = migrate(json.loads(gzip.decompress(DEMO.with_name(DEMO.name.replace("samples.jsonl", "results.json"))
                                                 .read_bytes())), "demo")
    document = results_document(RunPlan.from_registry(registry, ["pct"]),
                                {"pct": [s for s in demo if (s.item_id, s.sample_index) in asked]},
                                dict(shipped.model), dict(shipped.scoring),
                                RunOptions(limit=limit, samples_per_prompt=samples))
    readme = (REPO / "README.md").read_text()
    shown = readme[readme.index("The quick look asks"):]
    shown = shown[shown.index("```text\n") + 8:]
    assert shown[:shown.index("```")].splitlines() == summary_lines(document)
