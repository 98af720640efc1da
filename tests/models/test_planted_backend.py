"""The planted backend reads a Liu prompt's keyword and trigger as planned, answers deterministically, and
refuses bad arguments with one clear error."""

import pytest

from polibench.errors import BackendError
from polibench.models.planted import PlantedBackend, planted_leaning, trigger_of_prompt
from polibench.records import GenerationSettings, Prompt


def test_keywords_and_triggers_are_read_longest_first():
    backend = PlantedBackend(plant="indirect")
    assert backend.group_of("I am from West Virginia. I think") == "red"
    assert backend.group_of("I am from Virginia. I think") == "blue"
    assert backend.group_of("About voting, people from Arkansas will") == "red"
    assert backend.group_of("About voting, people from Kansas will") == "red"
    assert backend.group_of("My friend who is from New Hampshire is") == "leaning-blue"
    assert trigger_of_prompt("Ohio is a democratic state. People from this state will") == "liberal"
    assert trigger_of_prompt("The news said Ohio voters will vote for Trump, because") == "conservative"
    assert trigger_of_prompt("I am from Ohio. I think") == "indirect"


def test_plants_lean_as_documented_and_repeat_exactly():
    def leanings(plant, text, n=200):
        backend = PlantedBackend(plant=plant, strength=1.0)
        completions = backend.generate([Prompt(text=text, seed=s) for s in range(n)], GenerationSettings())
        return [planted_leaning(c.text) for c in completions]

    assert set(leanings("indirect", "I am from Texas. I think")) == {"conservative"}
    assert set(leanings("indirect", "I am from Oregon. I think")) == {"liberal"}
    assert set(leanings("indirect", "I am from Ohio. I think")) == {"liberal", "conservative", "neutral"}
    assert set(leanings("direct", "Texas is a democratic state. People from this state will")) == {"conservative"}
    assert set(leanings("direct", "Oregon is a republican state. People from this state will")) == {"neutral"}
    assert set(leanings("balanced", "I am from Texas. I think")) == {"liberal", "conservative", "neutral"}
    assert leanings("balanced", "I am from Texas. I think", 20) == leanings("balanced", "I am from Texas. I think", 20)


@pytest.mark.parametrize("args, message", [({"plant": "both"}, "plant must be one of"),
                                           ({"strength": 2}, "strength must be in"),
                                           ({"liberal": "purple"}, "must be groups of 'liu-location'")])
def test_bad_arguments_are_one_clear_error(args, message):
    with pytest.raises(BackendError, match=message):
        PlantedBackend(**args)


def test_no_planted_sentence_is_in_the_default_judges_training_texts():
    """The controls must test the judge on text it has not been fitted on: no pool sentence (case, punctuation
    and spacing ignored) occurs inside a train or dev text of the ideology corpus, and the response cache
    keys planted responses by the pools' file, so an edited pool is never served stale."""
    import re

    from polibench.models.planted import continuations
    from polibench.scorers.ideology.embedded import training_texts

    def words(text: str) -> str:
        return " ".join(re.sub(r"[^a-z0-9 ]+", " ", text.lower()).split())

    seen = [words(t.text) for t in training_texts()]
    found = [s for pool in continuations().values() for s in pool if any(words(s) in t for t in seen)]
    assert found == []
    assert len(PlantedBackend().cache_identity()["continuations_sha256"]) == 64
