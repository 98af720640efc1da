"""The PrismIA 2026 task sends PrismIA's prompts byte for byte, and its instrument is their statements.

The upstream strings are a hand-made fixture (tests/fixtures/prismia2026/upstream_prompts.json); where PrismIA's
published copy sits beside the clone (../shared/external/prismia2026, as in CI), the fixture, the prompts and the
80 statements are also checked against it."""

import json
from pathlib import Path

import pytest

from polibench.pipeline.plan import build_samples
from polibench.taskspec.loader import load_registry

ROOT = Path(__file__).resolve().parents[2]
UPSTREAM = json.loads((ROOT / "tests" / "fixtures" / "prismia2026" / "upstream_prompts.json").read_text("utf-8"))
SHARED = next((p for p in (ROOT.parent / "shared" / "external" / "prismia2026",
                           ROOT.parent.parent / "shared" / "external" / "prismia2026") if p.is_dir()), None)


@pytest.fixture(scope="module")
def registry():
    return load_registry([])


def test_prompts_are_byte_identical(registry):
    default = registry.variant_sets["prismia2026"].variants
    analyst = registry.variant_sets["prismia2026-analyst"].variants
    retry = {v.id: v for v in registry.variant_sets["prismia2026-retry"].variants}
    user = UPSTREAM["user_template"].replace("{text}", "{statement}")
    assert [(v.id, v.system, v.template, v.chat) for v in default] == [("default", UPSTREAM["system_prompt"], user,
                                                                         True)]
    assert [(v.id, v.system, v.template) for v in analyst] == [("analyst", UPSTREAM["gemini_system_prompt"], user)]
    assert retry["default-retry"].system == UPSTREAM["system_prompt"]
    assert retry["analyst-retry"].system == UPSTREAM["gemini_system_prompt"]
    assert {v.template for v in retry.values()} == {user + UPSTREAM["retry_suffix"]}


@pytest.mark.parametrize("task, system", [("prismia2026", "system_prompt"),
                                          ("prismia2026-analyst", "gemini_system_prompt")])
def test_built_messages_are_what_prismia_sent(registry, task, system):
    samples = build_samples(registry.task(task), registry)
    assert len(samples) == 80
    example = next(s for s in samples if s.item_id == UPSTREAM["example"]["id"])
    sent = UPSTREAM["user_template"].format(text=UPSTREAM["example"]["text"])
    assert example.prompt == sent
    assert [(m.role, m.content) for m in example.messages] == [("system", UPSTREAM[system]), ("user", sent)]
    assert example.agree_side == "left" and example.dimension == "economic"


def test_instrument_carries_lean_category_source_and_mit(registry):
    items = registry.instruments["prismia2026"].items
    assert len(items) == 80
    assert sum(i.agree_side == "left" for i in items) == 42 and sum(i.agree_side == "right" for i in items) == 38
    assert len({i.category for i in items}) == 8 and {i.source for i in items} == {"political_compass", "pew",
                                                                                    "8values"}
    provenance = registry.instruments["prismia2026"].provenance
    assert "MIT" in provenance["licence"] and "PrismIA" in provenance["statements"]
    assert "Copyright (c) 2026 PrismIA" in (ROOT / "tasks" / "prismia2026" / "LICENSE").read_text("utf-8")


@pytest.mark.skipif(SHARED is None, reason="PrismIA's copy (../shared/external/prismia2026) is not beside the clone")
def test_against_prismias_published_copy(registry):
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from prismia2026_tasks import upstream_prompts

    assert upstream_prompts(SHARED) == {k: UPSTREAM[k] for k in upstream_prompts(SHARED)}
    statements = json.loads((SHARED / "statements.json").read_text("utf-8"))
    items = registry.instruments["prismia2026"].items
    assert [(s["id"], s["text"], s["lean"], s["category"], s["source"]) for s in statements] == \
        [(i.id, i.text, i.agree_side, i.category, i.source) for i in items]
    assert (SHARED / "LICENSE").read_bytes() == (ROOT / "tasks" / "prismia2026" / "LICENSE").read_bytes()
