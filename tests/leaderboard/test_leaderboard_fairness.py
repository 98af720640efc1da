"""Fairness results on the leaderboard: `polibench fairness submit` recomputes an evaluation from its runs'
predictions, `leaderboard verify` does it again from the shipped files, and `leaderboard build` renders the
per-group heatmap tables (HTML checked here; the browser test clicks through them)."""

import gzip
import json
import shutil

import pytest
from fairness_helpers import make_fairness_submission, toy_runs
from leaderboard_helpers import edit_json, make_entries

from polibench.cli.main import main
from polibench.fairness.evaluate import evaluate
from polibench.leaderboard.build import build_site
from polibench.leaderboard.fairness_html import heat_levels


@pytest.fixture()
def evaluated(tmp_path):
    runs = toy_runs(tmp_path / "runs")
    out = tmp_path / "fairness.json"
    assert main(["fairness", "eval", str(runs), "--reference", "base", "--ensemble", "mix=left,right",
                 "--bootstrap", "50", "--output", str(out), "--no-progress"]) == 0
    return runs, out


def test_submit_then_verify_and_tampering_is_caught(evaluated, tmp_path, capsys):
    runs, out = evaluated
    entries = tmp_path / "lb"
    assert main(["fairness", "submit", str(out), "--name", "toy", "--note", "synthetic", "--entries",
                 str(entries)]) == 0
    assert "9 seed runs recomputed and matching" in capsys.readouterr().out
    submission = json.loads((entries / "toy.json").read_text())
    assert submission["format"] == "polibench-fairness-submission" and submission["n_runs"] == 9
    assert submission["document"] == json.loads(out.read_text())
    packed = gzip.decompress((entries / "toy.predictions.jsonl.gz").read_bytes()).decode().splitlines()
    assert len(packed) == 9 and {json.loads(line)["run"]["seed"] for line in packed} == {1, 2, 3}

    code = main(["leaderboard", "verify", "--entries", str(tmp_path / "no-entries-here"), "--fairness", str(entries)])
    assert code == 2  # the compass entries folder is missing: one clear error
    (tmp_path / "entries").mkdir()
    assert main(["leaderboard", "verify", "--entries", str(tmp_path / "entries"), "--fairness", str(entries)]) == 0
    assert "9 seed runs of 4 model(s) on toy reproduced" in capsys.readouterr().out

    # a number changed in the submitted document
    edit_json(entries / "toy.json", lambda d: d["document"]["tasks"]["toy"]["models"]["left"]["overall"]["bacc"]
              .update(value=0.99))
    assert main(["leaderboard", "verify", "--entries", str(tmp_path / "entries"), "--fairness", str(entries)]) == 1
    assert "tasks.toy.models.left.overall.bacc.value: stored 0.99" in capsys.readouterr().out

    # the shipped predictions changed (hash no longer matches)
    assert main(["fairness", "submit", str(out), "--name", "toy", "--entries", str(entries), "--force"]) == 0
    raw = gzip.decompress((entries / "toy.predictions.jsonl.gz").read_bytes()).replace(b'"label": 0', b'"label": 1', 1)
    (entries / "toy.predictions.jsonl.gz").write_bytes(gzip.compress(raw))
    assert main(["leaderboard", "verify", "--entries", str(tmp_path / "entries"), "--fairness", str(entries)]) == 1
    assert "does not match the entry's" in capsys.readouterr().out


def test_submit_refuses_a_document_its_runs_do_not_reproduce(evaluated, tmp_path, capsys):
    runs, out = evaluated
    document = json.loads(out.read_text())
    document["tasks"]["toy"]["models"]["base"]["groupings"]["g"]["groups"]["x"]["f1"]["value"] = 0.5
    out.write_text(json.dumps(document))
    assert main(["fairness", "submit", str(out), "--name", "toy", "--entries", str(tmp_path / "lb")]) == 2
    err = capsys.readouterr().err
    assert "disagrees with its predictions" in err and "groups.x.f1.value" in err and "Traceback" not in err
    assert not (tmp_path / "lb" / "toy.json").exists()


def test_moved_runs_need_runs_and_bad_names_are_refused(evaluated, tmp_path, capsys):
    runs, out = evaluated
    moved = shutil.move(str(runs), str(tmp_path / "moved"))
    assert main(["fairness", "submit", str(out), "--name", "toy", "--entries", str(tmp_path / "lb")]) == 2
    assert "pass them with --runs" in capsys.readouterr().err
    assert main(["fairness", "submit", str(out), "--name", "toy", "--entries", str(tmp_path / "lb"),
                 "--runs", moved]) == 0
    assert main(["fairness", "submit", str(out), "--name", "toy", "--entries", str(tmp_path / "lb"),
                 "--runs", moved]) == 2
    assert "exists; pass --force" in capsys.readouterr().err
    assert main(["fairness", "submit", str(out), "--name", "../x", "--entries", str(tmp_path / "lb")]) == 2
    assert "--name '../x'" in capsys.readouterr().err
    assert main(["fairness", "submit", str(tmp_path / "lb" / "toy.predictions.jsonl.gz"), "--name", "y"]) == 2
    assert "not a readable evaluation file" in capsys.readouterr().err


def test_heat_levels_follow_the_distance_from_the_group_mean():
    # column means 0.5 and 0.8; largest distance 0.2 -> +-3
    levels = heat_levels([[0.3, 0.8], [0.7, 0.8], [0.5, None]])
    assert levels == [[-3, 0], [3, 0], [0, None]]
    assert heat_levels([[0.4, None]]) == [[None, None]]  # one model: nothing to compare with


def test_build_renders_heatmaps_with_best_and_worst_and_links_model_pages(tmp_path):
    fairness = make_fairness_submission(tmp_path, names=("alpha-7b", "left", '<img src=x onerror="window.__xss=1">'))
    site = build_site(make_entries(tmp_path), tmp_path / "site", fairness_dir=fairness, verify=True)
    assert site.n_fairness == 1
    html = (site.out / "index.html").read_text()
    section = html[html.index('<section id="fairness"'):html.index('<section id="about"')]
    assert section.count('<table class="heatmap"') == 2  # BACC and F1 of grouping g; z has no items: no column
    assert '<th scope="col">x</th><th scope="col">y</th></tr>' in section
    assert "&lt;img src=x" in section and "<img" not in section
    document = json.loads((fairness / "toy.json").read_text())["document"]["tasks"]["toy"]["models"]
    values = {m: document[m]["groupings"]["g"]["groups"]["x"]["bacc"]["value"] for m in document}
    worst = min(values, key=values.get)
    assert worst == "left"  # the toy runs make 'left' worse on x
    bacc = section[section.index('data-metric="bacc"'):section.index('data-metric="f1"')]
    cell = bacc[bacc.index('data-model="left" data-group="x"') - 120:bacc.index('data-model="left" data-group="x"')]
    assert " worst" in cell and "heat-m" in cell
    assert (site.out / "fairness" / "toy.predictions.jsonl.gz").is_file()
    assert json.loads((site.out / "data.json").read_text())["fairness"][0]["name"] == "toy"
    alpha = next(site.out.glob("models/org-alpha-7b*.html")).read_text()
    assert "toy</td><td>toy</td>" in alpha and "No downstream fairness results" not in alpha
    beta = next(site.out.glob("models/org-beta-1b*.html")).read_text()
    assert "No downstream fairness results for this model yet" in beta


def test_build_refuses_a_tampered_submission_with_verify(tmp_path):
    fairness = make_fairness_submission(tmp_path)
    edit_json(fairness / "toy.json", lambda d: d["document"]["tasks"]["toy"]["models"]["base"]["overall"]["f1"]
              .update(value=0.123))
    (tmp_path / "entries").mkdir()
    assert main(["leaderboard", "build", "--entries", str(tmp_path / "entries"), "--fairness", str(fairness),
                 "--output", str(tmp_path / "site"), "--verify"]) == 2
    assert not (tmp_path / "site").exists()
    doc = evaluate([tmp_path / "fairness-runs"], n_boot=0).as_dict()
    assert doc["tasks"]["toy"]["models"]["base"]["overall"]["f1"]["value"] != pytest.approx(0.123)


def test_the_shipped_leaderboard_verifies(capsys):
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "leaderboard"
    assert main(["leaderboard", "verify", "--entries", str(root / "entries"), "--fairness", str(root / "fairness"),
                 "--strict"]) == 0
    out = capsys.readouterr().out
    assert "fixture-hate-identity.json: 6 seed runs of 3 model(s) on hate-identity reproduced" in out


def test_a_missing_fairness_folder_named_on_the_command_line_is_an_error(tmp_path, capsys):
    (tmp_path / "entries").mkdir()
    assert main(["leaderboard", "build", "--entries", str(tmp_path / "entries"), "--fairness",
                 str(tmp_path / "nowhere"), "--output", str(tmp_path / "site")]) == 2
    assert "--fairness" in capsys.readouterr().err and not (tmp_path / "site").exists()


def test_a_malformed_submission_is_one_message_not_a_traceback(tmp_path, capsys):
    fairness = make_fairness_submission(tmp_path)
    edit_json(fairness / "toy.json", lambda d: d["document"]["tasks"]["toy"]["models"]["base"]["overall"]["bacc"]
              .update(value="high"))
    (tmp_path / "entries").mkdir()
    for argv in (["--no-verify"], []):  # the site's own reading of the file; and verification, the default
        assert main(["leaderboard", "build", "--entries", str(tmp_path / "entries"), "--fairness", str(fairness),
                     "--output", str(tmp_path / "site"), *argv]) == 2
        err = capsys.readouterr().err
        assert err.count("polibench: error:") == 1 and "toy.json" in err and not (tmp_path / "site").exists()
    # the typed evaluation document refuses the value when the submission is read, before any verification
    assert "field 'tasks.toy.models.base.overall.bacc.value': Input should be a valid number" in err
    main(["leaderboard", "build", "--entries", str(tmp_path / "entries"), "--fairness", str(fairness),
          "--output", str(tmp_path / "site"), "--no-verify"])
    err = capsys.readouterr().err
    assert "toy.json: field 'document'" in err and "Traceback" not in err and not (tmp_path / "site").exists()
