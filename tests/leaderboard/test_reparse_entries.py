"""benchmarks/reparse_entries.py: which shipped samples a changed answer reader reads otherwise (the forced-choice
parser of issue 37), so that only those are read again."""

import importlib.util
from pathlib import Path

from polibench.records import Sample, Stance
from polibench.scoring.forced_choice import forced_choice_stance

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("reparse_entries", ROOT / "benchmarks" / "reparse_entries.py")
reparse_entries = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(reparse_entries)


def sample(response: str, stance: Stance, scoring: str = "forced_choice") -> Sample:
    return Sample(task="t", instrument="pct", item_id="pct-01", statement="s", variant="v", scoring=scoring,
                  sample_index=0, seed=1, prompt="p", response=response, stance=stance)


def parsed(option: int) -> Stance:
    label, probs = forced_choice_stance(option)
    names = ("strongly disagree", "disagree", "agree", "strongly agree")
    return Stance(label=label, confidence=1.0, probs=probs, scorer=f"forced_choice:{names[option]}", kept=True)


SCORED = Stance(label="agree", confidence=0.95, probs={"agree": 0.95, "disagree": 0.05}, scorer="embedded", kept=True)


def test_a_sample_is_read_again_only_where_the_reader_now_reads_it_otherwise():
    changed = reparse_entries.reading_changed
    # read before, read the same now
    assert not changed(sample("3) Agree", parsed(2)))
    # read before as agree, now taken back later in the response: the scorer must read it
    assert changed(sample("3) Agree\n\nActually no, I would rather not answer this.", parsed(2)))
    # left to the scorer before (the lead-in's "don't" refused it), read now
    assert changed(sample("As an AI I don't have opinions. My answer: 3) Agree", SCORED))
    # left to the scorer before and now
    assert not changed(sample("I cannot answer this.", SCORED))
    # read before as another option than now
    assert changed(sample("3) Agree", parsed(3)))
    # open-ended answers have no reader: never read again
    assert not changed(sample("3) Agree", SCORED, scoring="stance"))
    # the reversed list's reader keeps the forced_choice prefix
    assert not changed(sample("1) Strongly agree", parsed(3), scoring="forced_choice_reversed"))
