"""`polibench run --tasks evenhandedness-debug` end to end through the openai backend: a planted loopback writer
and the scripted loopback grader (tests/paired_controls.py) chosen with --judge-backend / --judge-model /
--judge-args; the grader receives the three Anthropic prompts filled byte for byte, both orders of each pair, its
replies are cached, results.json records the grader, and `polibench import` of the same responses gives the same
even_handedness block. Every built-in paired prompt is byte-identical to eval_set.csv's."""

import csv
import json
from pathlib import Path

import pytest
from paired_controls import Server

from polibench.cli.main import main
from polibench.records import Sample
from polibench.scorers.pair_grade.anthropic_prompts import HEDGING_PROMPT, REFUSAL_PROMPT
from polibench.scorers.pair_grade.llm_grader import even_prompt, scale_prompt
from polibench.taskspec.loader import load_registry

ROOT = Path(__file__).resolve().parents[2]
EVAL_SET = next((p for p in (ROOT.parent / "shared" / "external" / "anthropic2025" / "eval_set.csv",
                             ROOT.parent.parent / "shared" / "external" / "anthropic2025" / "eval_set.csv")
                 if p.is_file()), None)
TASK = "evenhandedness-debug"


def run(server, out, *extra):
    return main(["run", "--tasks", TASK, "--base-url", server.url, "--model", "writer", "--judge-backend", "openai",
                 "--judge-model", "grader", "--judge-args", f"base_url={server.url}", "--output", str(out),
                 "--no-progress", "--limit", "4", *extra])


def test_openai_writer_and_grader_through_a_loopback_server(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "loopback")
    with Server("refuse", ("pro_trump",)) as server:
        assert run(server, tmp_path / "a") == 0
        samples = [Sample.model_validate_json(line)
                   for line in (tmp_path / "a" / "samples.jsonl").read_text().splitlines()]
        assert len(samples) == 4 and len(server.written) == 4
        by = {(s.pair.pair_id, s.pair.side): s for s in samples}
        expected = []
        for pair_id in ("0001", "0002"):
            a, b = by[(pair_id, "a")], by[(pair_id, "b")]
            expected += [even_prompt(a.prompt, a.response, "anti_trump", b.prompt, b.response, "pro_trump"),
                         even_prompt(b.prompt, b.response, "pro_trump", a.prompt, a.response, "anti_trump")]
        expected += [scale_prompt(t, s.prompt, s.response) for s in samples for t in (REFUSAL_PROMPT, HEDGING_PROMPT)]
        assert sorted(server.graded) == sorted(expected)   # byte for byte, both orders of each pair
        for s in samples:
            refused = s.pair.group == "pro_trump"
            assert s.reading("pair_grade").refusal == (1.0 if refused else 0.0) and s.reading("pair_grade").even == 0.0
            assert s.reading("pair_grade").favours_other == (1.0 if refused else 0.0)
        document = json.loads((tmp_path / "a" / "results.json").read_text())
        scoring = document["scoring"][TASK]
        assert (scoring["scorer"], scoring["backend"], scoring["model"]) == ("pair_judge", "openai", "grader")
        block = document["results"][TASK]["even_handedness"]
        assert block["pairs"] == 2 and block["even_handedness"] == 0.0 and block["groups"]["pro_trump"]["refusal"] == 1
        report = (tmp_path / "a" / "report.md").read_text()
        assert "Paired prompts" in report
        # the paper-shaped figure is drawn and linked from the section
        assert (tmp_path / "a" / f"{TASK}_even_handedness.png").is_file()
        assert f"]({TASK}_even_handedness.png)" in report
        # the grader's replies are cached like any backend's: the same run again asks it nothing
        graded = len(server.graded)
        assert run(server, tmp_path / "b") == 0
        assert len(server.graded) == graded
        assert (tmp_path / "b" / "samples.jsonl").read_text() == (tmp_path / "a" / "samples.jsonl").read_text()

        # responses generated elsewhere: polibench import grades them the same way
        rows = tmp_path / "rows.jsonl"
        everything = {item.id: item.text for item in load_registry().instruments[TASK].items}
        written = {s.item_id: s.response for s in samples}
        rows.write_text("".join(json.dumps({"item": item, "variant": "paired", "response": written.get(
            item, f"Here is the strongest case for that position. First, {text}")}) + "\n"
            for item, text in everything.items()))
        assert main(["import", str(rows), "--tasks", TASK, "--output", str(tmp_path / "imported"), "--no-progress",
                     "--model", "elsewhere",
                     "--scorer-args", f"backend=openai,model=grader,base_url={server.url}"]) == 0
        imported = json.loads((tmp_path / "imported" / "results.json").read_text())["results"][TASK]
        assert imported["even_handedness"]["pairs"] == 18
        assert imported["even_handedness"]["groups"]["pro_trump"]["refusal"] == pytest.approx(2 / 9, abs=1e-6)


@pytest.mark.skipif(EVAL_SET is None, reason="../shared/external/anthropic2025 is not beside this clone")
def test_every_built_in_prompt_is_byte_identical_to_eval_set():
    rows = list(csv.DictReader(EVAL_SET.open(encoding="utf-8", newline="")))
    registry = load_registry()
    for name in ("evenhandedness", "evenhandedness-debug"):
        items = registry.instruments[name].items
        assert len(items) % 2 == 0
        for item in items:
            row = rows[int(item.pair.pair_id) - 1]
            assert item.text.encode() == row[f"prompt_{item.pair.side}"].encode()
            assert (item.pair.group, item.pair.main_category, item.pair.template_category) == (
                row[f"prompt_{item.pair.side}_group"], row["main_category"], row["template_category"])
    variant = registry.variant_sets["evenhandedness"].variants
    assert [v.template for v in variant] == ["{statement}"] and variant[0].chat
