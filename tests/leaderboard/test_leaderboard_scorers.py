"""Which stance scorer read each entry (issue 36 §2): verify names the others, --rescore re-reads, the site marks.

The entries here are real runs scored by the ``lexical`` scorer (tests/leaderboard_helpers.py), which has no
reference fingerprint: verify must name them. Re-reading with the same deterministic scorer is the null (nothing
changes, nothing moves); re-reading with a scorer that agrees with everything is the planted change, whose
movements are checked against a hand recomputation.
"""

import shutil

import pytest
from leaderboard_helpers import make_run

from polibench.cli.main import main
from polibench.leaderboard.reread import Scorers, reread_entry
from polibench.leaderboard.schema import ScorerFingerprint, load_entry
from polibench.scoring import fingerprint
from polibench.scoring.base import StanceResult, StanceScorer

ENTRY = "org-tiny-model__pct"


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    base = tmp_path_factory.mktemp("scorers")
    run = make_run(base / "run", model="org/tiny-model", limit=12)
    assert main(["submit", str(run), "--entries", str(base / "entries"), "--allow-partial"]) == 0
    return base / "entries"


@pytest.fixture
def entries(pristine, tmp_path):
    shutil.copytree(pristine, tmp_path / "entries")
    return tmp_path / "entries"


def test_verify_names_every_entry_read_by_another_scorer(entries, capsys):
    assert main(["leaderboard", "verify", "--entries", str(entries)]) == 0
    out = capsys.readouterr().out
    assert "reference embedded stance scorer: w:" in out
    assert "0 entries read by the reference scorer, 1 by another" in out
    assert f"{ENTRY}: pct read by lexical, a scorer with no reference fingerprint" in out


def test_rescore_with_the_same_scorer_changes_nothing(entries, capsys):
    assert main(["leaderboard", "verify", "--entries", str(entries), "--rescore", "tiny", "--scorer", "lexical"]) == 0
    out = capsys.readouterr().out
    assert f"re-read {ENTRY}.json with this machine's lexical scorer" in out
    assert "0 labels changed, 0 (label, kept) pairs changed (100.0% agree)" in out
    assert "(moves 0.00 of its interval's width)" in out or "zero-width" in out


def test_scorers_are_made_once_per_name_and_label_set(monkeypatch):
    """The cache behind ``verify --rescore`` and ``refresh_entries.py --reread``: tasks with the same scorer and labels
    share one scorer (one training of ``embedded``), another label set or scorer name gets its own, and ``quiet``
    reaches ``embedded`` only (the other scorers take no progress option)."""
    from polibench.leaderboard import reread
    from polibench.scoring import registry

    made = []

    def create_scorer(name, labels, **options):
        made.append((name, tuple(labels), options))
        return AgreeWithEverything(labels)

    monkeypatch.setattr(registry, "create_scorer", create_scorer)
    scorers = Scorers(default="lexical", names={"c": "embedded", "d": "embedded"}, quiet=True)
    two, three = ["agree", "disagree"], ["agree", "disagree", "neutral"]
    first = scorers("a", two)
    assert scorers.scorer_for("b", tuple(two)) is first          # same name, same labels: the same scorer
    assert scorers("a", three) is not first                       # another label set
    assert scorers("c", two) is not first and scorers("d", two) is scorers("c", two)  # another name
    assert made == [("lexical", tuple(two), {}), ("lexical", tuple(three), {}),
                    ("embedded", tuple(two), {"show_progress": False})]
    assert scorers.used("c") == scorers.made[("embedded", tuple(two))].describe()
    assert reread.Scorers(default="lexical").fingerprint() is None  # nothing made yet, no fingerprint


class AgreeWithEverything(StanceScorer):
    name = "planted"

    def score(self, statements, responses, progress=None):
        return [StanceResult("agree", 1.0, {"agree": 1.0}) for _ in statements]


def test_rescore_with_a_planted_scorer_reports_the_changes_and_the_moves(entries):
    path = entries / f"{ENTRY}.json"
    found = reread_entry(path, lambda task, labels: AgreeWithEverything(labels))
    before = load_entry(path).tasks[0].estimate("pct_coordinates", "economic")
    assert found.read > 0 and found.labels_changed > 0 and found.agreement < 1.0
    moved = next(m for m in found.movements if (m.metric, m.key) == ("pct_coordinates", "economic"))
    assert moved.before == before.value and moved.ci == tuple(before.ci)
    assert moved.share == pytest.approx(abs(moved.after - moved.before) / (before.ci[1] - before.ci[0]))
    assert moved.after != moved.before and moved.share > 0  # agreeing with every statement moves the position


def test_site_marks_rows_read_by_another_scorer(entries, monkeypatch):
    from polibench.leaderboard.render import scorer_badge, scorers_banner

    entry = load_entry(entries / f"{ENTRY}.json")
    task = entry.tasks[0]
    assert "other scorer" in scorer_badge(entry, task) and f"--rescore {ENTRY}" in scorer_badge(entry, task)
    assert "1 row(s) of 1 entry were read by a stance scorer other than the reference one" in scorers_banner([entry])
    print_ = {"weights": "0123456789abcdef", "canary": "fedcba9876543210"}
    monkeypatch.setitem(fingerprint.REFERENCE, "embedded", dict(print_))
    as_reference = task.model_copy(update={"scorer": "embedded", "scorer_fingerprint": ScorerFingerprint(**print_)})
    reference_entry = entry.model_copy(update={"tasks": [as_reference]})
    assert scorer_badge(reference_entry, as_reference) == "" and scorers_banner([reference_entry]) == ""


def test_a_task_read_by_abstain_is_no_reading(entries):
    """``abstain`` reads no response (the non-English forced-choice tasks), so verify does not name it as another
    scorer; any other scorer name without a reference still is."""
    from types import SimpleNamespace

    from polibench.leaderboard.scorers import entry_readings, others

    tasks = [SimpleNamespace(name="pct-de-forced", scorer="abstain", scorer_fingerprint=None),
             SimpleNamespace(name="pct", scorer="lexical", scorer_fingerprint=None)]
    entry = SimpleNamespace(entry_id="e", tasks=tasks)
    assert set(entry_readings(entry)) == {"pct"}
    assert [(e, t) for e, t, _ in others([entry])] == [("e", "pct")]
