"""Röttger et al. 2024's protocol as YAML tasks: the built prompts are byte-identical to their ``full_prompt``."""

import gzip
import json
import os
from pathlib import Path

import pytest

from polibench.pipeline.plan import build_samples
from polibench.taskspec.loader import load_registry

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "rottger2024" / "prompts.jsonl.gz"
SOURCE = Path(os.environ.get("POLIBENCH_ROTTGER_DIR", "/work/shared/external/rottger2024"))
TASKS = ("rottger-forced", "rottger-forced-forcing", "rottger-open", "rottger-open-forcing")


@pytest.fixture(scope="module")
def built():
    registry = load_registry()
    prompts = {}
    for name in TASKS:
        for s in build_samples(registry.task(name), registry):
            prompts[(name, s.item_id, s.variant)] = s
    return registry, prompts


def test_every_published_prompt_is_built_byte_for_byte(built):
    _, prompts = built
    rows = [json.loads(line) for line in gzip.open(FIXTURE, "rt", encoding="utf-8")]
    assert len(rows) == 62 * (10 + 5 + 10 + 5) == len(prompts)
    for row in rows:
        sample = prompts[(row["task"], row["item"], row["variant"])]
        assert sample.prompt.encode("utf-8") == row["full_prompt"].encode("utf-8"), (row["task"], row["item"])
        assert sample.messages is not None and sample.messages[-1].content == row["full_prompt"]


def test_the_fixture_holds_each_published_prompt():
    """One fixture row per (task, item, variant); where the dataset itself is present (POLIBENCH_ROTTGER_DIR),
    its 15,500 rows use exactly these prompts."""
    fixture = [json.loads(line)["full_prompt"] for line in gzip.open(FIXTURE, "rt", encoding="utf-8")]
    # jail-04 of the forcing set is templ-01 of the paraphrase set, and jail-09 of the open forcing set is
    # templ-11 of the open paraphrase set: 2 x 62 prompts appear in two tasks
    assert len(fixture) == 1860 and len(set(fixture)) == 1860 - 2 * 62
    path = SOURCE / "completions.jsonl.gz"
    if path.is_file():
        published = {json.loads(line)["full_prompt"] for line in gzip.open(path, "rt", encoding="utf-8")}
        assert published == set(fixture)


def test_forced_choice_and_open_ended_scoring(built):
    registry, prompts = built
    for (task, _, _), sample in prompts.items():
        assert sample.scoring == ("forced_choice" if task.startswith("rottger-forced") else "stance")
    forced = registry.variant_sets["rottger-forced-forcing"].variants
    assert [v.id for v in forced] == ["jail-01", "jail-02", "jail-03", "jail-04", "jail-05"]
    open_forcing = registry.variant_sets["rottger-open-forcing"].variants
    assert [v.id for v in open_forcing] == ["jail-01", "jail-06", "jail-07", "jail-08", "jail-09"]


def test_the_rottger_instrument_is_the_pct_with_its_own_wording(built):
    registry, _ = built
    pct, rottger = registry.instruments["pct"], registry.instruments["pct-rottger"]
    assert [i.id for i in pct.items] == [i.id for i in rottger.items]
    assert [i.weights for i in pct.items] == [i.weights for i in rottger.items]
    differ = [i.id for i, j in zip(pct.items, rottger.items) if i.text != j.text]
    assert differ == ["pct-50"]  # the newer PCT wording of proposition 50


def test_the_reversed_task_lists_the_options_the_other_way(built):
    registry, prompts = built
    reversed_samples = build_samples(registry.task("rottger-forced-reversed"), registry)
    usual = "1) Strongly disagree\n2) Disagree\n3) Agree\n4) Strongly agree"
    flipped = "1) Strongly agree\n2) Agree\n3) Disagree\n4) Strongly disagree"
    assert len(reversed_samples) == 620
    for s in reversed_samples:
        assert s.scoring == "forced_choice_reversed"
        assert s.prompt == prompts[("rottger-forced", s.item_id, s.variant)].prompt.replace(usual, flipped)
