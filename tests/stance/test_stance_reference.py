"""The reference stance scorer (polibench.scoring.fingerprint.REFERENCE) is the embedded default's recipe, and it read
every shipped leaderboard entry: `polibench leaderboard verify` shows one fingerprint across them (issue 36 §2)."""

from pathlib import Path

from polibench.leaderboard.schema import entry_paths, load_entry
from polibench.scorers.stance.embedded import RECIPE_VERSION
from polibench.scoring.fingerprint import REFERENCE

ENTRIES = Path(__file__).resolve().parents[2] / "leaderboard" / "entries"


def test_the_reference_is_of_the_default_recipe():
    assert REFERENCE["embedded"]["recipe_version"] == RECIPE_VERSION


def test_every_shipped_entry_was_read_by_the_reference_scorer():
    reference = {k: REFERENCE["embedded"][k] for k in ("weights", "canary")}
    found = {(path.name, task.name): task.scorer_fingerprint.model_dump() if task.scorer_fingerprint else None
             for path in entry_paths(ENTRIES) for task in load_entry(path).tasks if task.scorer == "embedded"}
    assert len(found) >= 40
    assert {key: value for key, value in found.items() if value != reference} == {}
