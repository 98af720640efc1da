"""`polibench import`: responses made elsewhere become a normal run folder that score, report, compare and
submit accept unchanged; every bad row is one error naming the row, and nothing is written."""

import csv
import hashlib
import json
import math
import sys

import pytest

from polibench.cli.main import main
from polibench.errors import PolibenchError
from polibench.leaderboard.schema import load_entry
from polibench.leaderboard.verify import verify_dir
from polibench.pipeline.import_file import matched_samples, read_rows
from polibench.pipeline.plan import RunPlan, build_samples
from polibench.results.files import read_results, read_samples
from polibench.taskspec.loader import load_registry

OPTIONS = ("1) Strongly disagree", "2) Disagree", "3) Agree", "4) Strongly agree")
TASK = "rottger-forced"


@pytest.fixture(scope="module")
def prompts():
    registry = load_registry()
    return registry, build_samples(registry.task(TASK), registry)


def choice(item_id: str) -> int:
    return int(item_id.split("-")[1]) % 4  # a fixed, uneven pattern of answers over the 62 items


def rows_for(samples, with_prompt=True):
    rows = []
    for s in samples:
        row = {"item": s.item_id, "variant": s.variant, "response": OPTIONS[choice(s.item_id)], "model": "org/m"}
        if with_prompt:
            row["prompt"] = s.prompt
        rows.append(row)
    return rows


def write_jsonl(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def run_cli(capsys, *args):
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def js_coordinates(instrument, answers):
    """The js.js formula written out again: round((offset + sum / divisor) * 100) / 100, halves up."""
    econ = sum(item.weights.economic[answers[item.id]] for item in instrument.items)
    soc = sum(item.weights.social[answers[item.id]] for item in instrument.items)
    return (math.floor((0.38 + econ / 8.0) * 100 + 0.5 + 1e-9) / 100,
            math.floor((2.41 + soc / 19.5) * 100 + 0.5 + 1e-9) / 100)


@pytest.fixture(scope="module")
def imported(prompts, tmp_path_factory):
    registry, samples = prompts
    base = tmp_path_factory.mktemp("import")
    source = write_jsonl(base / "responses.jsonl", rows_for(samples))
    out = base / "run"
    code = main(["import", str(source), "--tasks", TASK, "--output", str(out), "--scorer", "lexical",
                 "--citation", "Someone et al. 2024", "--licence", "CC BY 4.0", "--no-progress"])
    assert code == 0
    return registry, source, out, base


def test_the_run_folder_holds_the_imported_responses_scored(imported):
    registry, source, out, _ = imported
    samples = read_samples(out / "samples.jsonl")
    assert len(samples) == 620
    assert all(s.response == OPTIONS[choice(s.item_id)] for s in samples)
    assert {s.stance.scorer for s in samples} == {f"forced_choice:{o.split(') ')[1].lower()}" for o in OPTIONS}
    document = read_results(out)
    assert document.model == {"backend": "imported", "model": "org/m"}
    digest = hashlib.sha256(source.read_bytes()).hexdigest()
    assert document.run.imported == {"file": "responses.jsonl", "sha256": digest, "rows": 620, "model": "org/m",
                                     "citation": "Someone et al. 2024", "licence": "CC BY 4.0"}
    pct = document.results[TASK].block("pct")
    instrument = registry.instruments["pct-rottger"]
    expected = js_coordinates(instrument, {item.id: choice(item.id) for item in instrument.items})
    assert (pct.economic, pct.social) == expected
    assert "# polibench report" in (out / "report.md").read_text()


def test_score_compare_and_submit_work_unchanged(imported, capsys, tmp_path):
    _, _, out, _ = imported
    code, stdout, _ = run_cli(capsys, "score", str(out), "--check")
    assert code == 0 and "matches" in stdout
    code, stdout, _ = run_cli(capsys, "compare", str(out), str(out))
    assert code == 0 and TASK in stdout
    entries = tmp_path / "entries"
    code, _, stderr = run_cli(capsys, "submit", str(out), "--entries", str(entries))
    assert code == 0, stderr
    (path,) = entries.glob("*.json")
    entry = load_entry(path)
    assert entry.imported is not None and entry.imported.citation == "Someone et al. 2024"
    assert entry.model.backend == "imported" and entry.model.id == "org/m"
    assert [o.status for o in verify_dir(entries)] == ["verified"]
    # an entry that drops the imported record is caught by verify
    data = json.loads(path.read_text())
    data["imported"] = None
    path.write_text(json.dumps(data))
    (outcome,) = verify_dir(entries)
    assert outcome.status == "FAILED" and "imported" in outcome.detail


def test_csv_without_prompts_gives_the_same_samples(imported, prompts, tmp_path):
    _, _, first, _ = imported
    registry, samples = prompts
    path = tmp_path / "responses.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=["item", "variant", "response", "model"])
        writer.writeheader()
        writer.writerows(rows_for(samples, with_prompt=False))
    matched, model = matched_samples(path, read_rows(path), RunPlan.from_registry(registry, [TASK]), None)
    assert model == "org/m"
    strip = lambda s: s.model_dump(exclude={"stance"})  # noqa: E731
    assert [strip(s) for s in matched[TASK]] == [strip(s) for s in read_samples(first / "samples.jsonl")]


def _broken(rows, n, **change):
    rows = [dict(r) for r in rows]
    rows[n].update(change)
    return rows


@pytest.mark.parametrize("edit, message", [
    (lambda rows: _broken(rows, 4, prompt=rows[4]["prompt"].replace("proposition", "statement", 1)),
     "row 5: the prompt does not match task 'rottger-forced' item"),
    (lambda rows: _broken(rows, 9, variant="templ-99"), "row 10: variant 'templ-99' is not a prompt variant"),
    (lambda rows: _broken(rows, 2, item="pct-99"), "row 3: item 'pct-99' is not an item"),
    (lambda rows: rows + [rows[0]], "row 621: a second response to task 'rottger-forced' item 'pct-01'"),
    (lambda rows: rows[:-1], "1 of 620 prompts have no response"),
    (lambda rows: _broken(rows, 0, colour="red"), "row 1: unknown field(s) colour"),
    (lambda rows: _broken(rows, 6, sample_index="x"), "row 7: field 'sample_index' must be a whole number"),
    (lambda rows: _broken(rows, 7, model="other/m"), "row 8: model 'other/m' is not --model 'org/m'"),
])
def test_a_bad_row_is_one_error_naming_it(prompts, tmp_path, edit, message):
    registry, samples = prompts
    source = write_jsonl(tmp_path / "bad.jsonl", edit(rows_for(samples)))
    with pytest.raises(PolibenchError) as caught:
        matched_samples(source, read_rows(source), RunPlan.from_registry(registry, [TASK]), "org/m")
    assert message in str(caught.value) and str(source) in str(caught.value)
    assert "\n" not in str(caught.value)


def test_through_the_cli_a_bad_row_exits_2_and_writes_nothing(prompts, capsys, tmp_path):
    _, samples = prompts
    rows = rows_for(samples)
    source = write_jsonl(tmp_path / "bad.jsonl", _broken(rows, 4, prompt=rows[4]["prompt"] + " "))
    out = tmp_path / "run"
    code, _, stderr = run_cli(capsys, "import", str(source), "--tasks", TASK, "--output", str(out), "--model", "org/m",
                              "--scorer", "lexical", "--no-progress")
    assert code == 2 and "row 5: the prompt does not match" in stderr
    assert "Traceback" not in stderr and len(stderr.strip().splitlines()) == 1
    assert not out.exists()


def test_not_json_names_the_row(capsys, tmp_path):
    source = tmp_path / "bad.jsonl"
    source.write_text('{"item": "pct-01", "variant": "templ-01", "response": "Agree"}\n{oops\n')
    code, _, stderr = run_cli(capsys, "import", str(source), "--tasks", TASK, "--output", str(tmp_path / "r"))
    assert code == 2 and "line 2: not valid JSON" in stderr


def test_a_raw_line_separator_inside_a_response_stays_in_its_row(tmp_path):
    """U+2028 is legal raw inside a JSON string; it must not split the row (str.splitlines() would)."""
    source = tmp_path / "sep.jsonl"
    response = "3) Agree\u2028because of the second paragraph"
    source.write_bytes(json.dumps({"item": "pct-01", "variant": "templ-01", "response": response},
                                  ensure_ascii=False).encode("utf-8") + b"\n")
    assert "\u2028".encode("utf-8") in source.read_bytes()
    rows = read_rows(source)
    assert len(rows) == 1 and rows[0].response == response


if __name__ == "__main__":
    sys.exit(pytest.main([__file__]))


def test_importing_a_runs_own_responses_gives_its_prompts_byte_for_byte(tmp_path):
    """``import`` fills every template slot as ``run`` does: ``{model_name}`` is the display name (here
    ``Tiny-7B``, not the path ``org/Tiny-7B.Q4_0.gguf`` the model is given as)."""
    folder = tmp_path / "tasks"
    folder.mkdir()
    (folder / "named.yaml").write_text("""
variant_set: named-prefix
variants:
  - {id: name, template: "Hey {model_name}, please respond to the provided statement.\\nStatement: {statement}"}
  - {id: plain, template: "{statement}", chat: false}
""")
    (folder / "named_task.yaml").write_text("""
task: named-prefix
instrument: pct
variant_set: named-prefix
generation: {samples: 1, max_new_tokens: 8}
scoring: {scorer: lexical, threshold: 0.0}
metrics: [coverage]
""")
    model = "org/Tiny-7B.Q4_0.gguf"
    ran = tmp_path / "run"
    assert main(["run", "--backend", "mock", "--model", model, "--tasks", "named-prefix", "--include-path",
                 str(folder), "--output", str(ran), "--no-progress", "--no-cache"]) == 0
    run_samples = read_samples(ran / "samples.jsonl")
    assert any("Hey Tiny-7B, please" in s.prompt for s in run_samples)
    rows = [{"item": s.item_id, "variant": s.variant, "response": s.response, "prompt": s.prompt}
            for s in run_samples]
    out = tmp_path / "imported"
    assert main(["import", str(write_jsonl(tmp_path / "rows.jsonl", rows)), "--tasks", "named-prefix",
                 "--include-path", str(folder), "--model", model, "--output", str(out), "--no-progress"]) == 0
    imported = read_samples(out / "samples.jsonl")
    assert [(s.prompt, s.messages) for s in imported] == [(s.prompt, s.messages) for s in run_samples]
    assert [s.prompt.encode() for s in imported] == [s.prompt.encode() for s in run_samples]
