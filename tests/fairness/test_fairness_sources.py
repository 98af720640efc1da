"""The LIAR `context` -> news outlet keyword map for Feng et al.'s ten outlets."""

import pytest

from polibench.fairness.sources import OUTLETS, outlets_named, source_of


@pytest.mark.parametrize("context, code", [
    ("an article in the Huffington Post", "HP"),
    ("a HuffPost blog post", "HP"),
    ("an op-ed in The New York Times", "NYT"),
    ("an interview with the NY Times", "NYT"),
    ("an interview on CNN", "CNN"),
    ("an interview on CNN's State of the Union", "CNN"),
    ("comments on NPR's Morning Edition", "NPR"),
    ("an interview on National Public Radio", "NPR"),
    ("a column in The Guardian", "Guard"),
    ("a Fox News interview", "Fox"),
    ("an appearance on Fox & Friends", "Fox"),
    ("an interview on Fox", "Fox"),
    ("a Washington Examiner op-ed", "WaEx"),
    ("an article on Breitbart News", "BBart"),
    ("a column in the Washington Times", "WaT"),
    ("an article in National Review Online", "NR"),
])
def test_each_outlet_is_recognised(context, code):
    assert source_of(context) == code
    assert source_of(context.upper()) == code  # case does not matter


@pytest.mark.parametrize("context", [
    "a speech", "a tweet", None, "", "a press release",
    "an interview on Fox 13",              # a local Fox affiliate, not Fox News
    "a Guardian Angels fundraiser",        # not the newspaper
    "an interview with Michael J. Fox",    # a bare "Fox" is a name
    "a Washington Post op-ed",             # not one of the ten outlets
    "the CNN debate, rebutting Fox News",  # two outlets: ambiguous, no source
])
def test_no_source_when_none_or_several_outlets_are_named(context):
    assert source_of(context) is None


def test_washington_times_is_not_the_new_york_times():
    assert outlets_named("the Washington Times and the New York Times") == ["NYT", "WaT"]


def test_the_ten_outlets_of_feng_et_al_with_their_leaning():
    import json
    from pathlib import Path

    reference = Path(__file__).resolve().parents[2].parent / "shared" / "reference" / "feng2023.json"
    expected = ["HP", "NYT", "CNN", "NPR", "Guard", "Fox", "WaEx", "BBart", "WaT", "NR"]
    if reference.is_file():
        expected = list(json.loads(reference.read_text())["downstream"]["misinformation_sources"])
    assert [o.code for o in OUTLETS] == expected
    assert [o.leaning for o in OUTLETS] == ["left"] * 5 + ["right"] * 5
