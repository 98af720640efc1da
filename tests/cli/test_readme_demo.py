"""The README's demo output is what the current code prints for the shipped leaderboard entry of the embedded
model, and that entry was made with the current llama.cpp decoder (so its responses are what `make demo`
generates on a machine with the same llama.cpp build; docs/records.md, "Reproducibility")."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest

from polibench.cli.run import summary_lines
from polibench.results.migrate import migrate

ROOT = Path(__file__).resolve().parents[2]
ENTRY = ROOT / "leaderboard" / "entries" / "SmolLM2-135M-Instruct-Q4_1-GGUF-embedded__pct.results.json.gz"


def shipped_document():
    return migrate(json.loads(gzip.decompress(ENTRY.read_bytes())), str(ENTRY))


def test_readme_demo_line_is_the_summary_of_the_shipped_entry():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quoted = [line for line in re.findall(r"^pct: economic .*$", readme, flags=re.MULTILINE)
              if "--limit" not in line]  # the quick look's line is test_limit_balanced's
    assert quoted, "README.md quotes no demo output line"
    lines = [line for line in summary_lines(shipped_document()) if line.startswith("pct: ")]  # not the warnings
    assert set(quoted) == set(lines)  # the first command and the demo quote it


def test_shipped_entry_comes_from_the_current_decoder_and_a_full_default_run():
    from polibench.models.llamacpp import DECODER_REVISION

    document = shipped_document()
    assert document.model.get("backend") == "llamacpp"
    assert document.model.get("decoder_revision") == DECODER_REVISION
    assert document.run.seed is None and document.run.limit is None and document.run.samples_per_prompt is None
    assert document.n_samples == {"pct": 620}


def shipped_samples(limit: int) -> list[dict]:
    samples_file = ENTRY.with_name(ENTRY.name.replace(".results.json.gz", ".samples.jsonl.gz"))
    with gzip.open(samples_file, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for _, line in zip(range(limit), handle)]


def test_this_build_regenerates_the_shipped_responses():
    """The first statement's ten shipped responses, generated again now as `make demo` generates them. They
    must be identical wherever llama.cpp computes with the same version and CPU features as the machine that
    made the entry: the claim of docs/records.md ("Across machines") that `make install`'s pinned build makes
    every x86-64 machine with AVX2 give the demo's responses. Another build may differ, and is skipped."""
    pytest.importorskip("llama_cpp")
    from polibench.models.embedded import embedded_gguf_path
    from polibench.models.llamacpp import LlamaCppBackend, build_features, llama_cpp_version
    from polibench.models.stage import prompt_of
    from polibench.pipeline.plan import build_samples
    from polibench.taskspec.loader import load_registry

    model = shipped_document().model
    here = (llama_cpp_version(), build_features())
    if here != (model["llama_cpp_python"], model["build"]):
        pytest.skip(f"another llama.cpp build: {here}, the shipped entry's is "
                    f"{(model['llama_cpp_python'], model['build'])}")
    registry = load_registry()
    task = registry.task("pct")
    samples = build_samples(task, registry, limit=1, limit_order="first")  # the entry's first statement
    shipped = shipped_samples(len(samples))
    assert [(s.item_id, s.seed) for s in samples] == [(d["item_id"], d["seed"]) for d in shipped]
    with LlamaCppBackend(str(embedded_gguf_path()), batch_size=model["batch_size"]) as backend:
        completions = backend.generate([prompt_of(s) for s in samples], task.generation)
    assert [c.text for c in completions] == [d["response"] for d in shipped]
