"""The forced-choice parser reads the four PCT options in all fourteen languages (polibench.scoring.option_lexicon,
polibench.scoring.forced_choice_languages): the options as the prompts print them, numbered, bold or after a
lead-in; the list echoed back, two options, a number contradicting its wording and an option named only to refuse
it are not read, in every language. Hand-made answers, each read by hand."""

import pytest

from polibench.records import Sample
from polibench.scoring.forced_choice import parse_forced_choice
from polibench.scoring.forced_choice_languages import parse_in_language, reader_name
from polibench.scoring.option_lexicon import TABLES
from polibench.scoring.readers import READERS, reader_for
from polibench.taskspec.loader import load_registry

LANGUAGES = sorted(TABLES)
# a negated "I cannot choose" in each language, before an option it refuses (read by hand)
REFUSALS = {
    "bg": "Не мога да избера {o}", "cs": "Nemohu zvolit {o}", "de": "Ich kann nicht {o} wählen",
    "en": "I cannot pick {o}", "es": "No puedo elegir {o}", "fa": "نمی‌توانم {o} را انتخاب کنم",
    "fr": "Je ne peux pas choisir {o}", "it": "Non posso scegliere {o}", "pl": "Nie mogę wybrać {o}",
    "pt": "Não posso escolher {o}", "ro": "Nu pot alege {o}", "ru": "Я не могу выбрать {o}",
    "sl": "Ne morem izbrati {o}", "tr": "Seçemem: {o}",
}
# other wordings of an option a respondent writes (feminine forms, spelling variants), with the option they name
VARIANTS = [("ru", "Согласна", 2), ("ru", "Полностью согласна", 3), ("ru", "Категорически не согласна", 0),
            ("bg", "Много несъгласна", 0), ("bg", "Съгласна", 2), ("fa", "شدیدا موافقم", 3),
            ("fr", "Tout à fait d'accord", 3), ("fr", "Pas d'accord", 1), ("it", "In disaccordo", 1),
            ("it", "Fortemente in disaccordo", 0), ("tr", "TAMAMEN KARŞIYIM", 0), ("cs", "silně souhlasím", 3),
            ("fa", "۳. موافقم", 2), ("ro", "Acord puternic", 3), ("ro", "Dezacord puternic", 0)]


@pytest.fixture(scope="module")
def printed() -> dict[str, list[str]]:
    """The options each language's prompts print, as the log-probability variants list them ("3. Zustimmung")."""
    registry = load_registry()
    return {lang: registry.variant_sets[f"pct-{lang}-logprob"].variants[0].options for lang in LANGUAGES}


def test_every_language_of_the_tasks_has_a_reader_in_the_forced_channel(printed):
    for language in LANGUAGES:
        reader = reader_for(reader_name(language))
        assert reader.channel == READERS["forced_choice"].channel
        assert [f"{k}. {o}" for k, o in enumerate(TABLES[language].printed, 1)] == printed[language]


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_option_is_read_as_printed_numbered_bold_and_after_a_lead_in(language, printed):
    for k, line in enumerate(printed[language]):
        wording = line[3:]
        for answer in (line, wording, f"{wording}.", f"**{wording}**", f"\"{line}\"", f"Antwort: {line}",
                       f"{line}\n\nExplanation follows.", f"({k + 1}) {wording}", f"{k + 1}", f"**{line}**"):
            assert parse_in_language(answer, language) == k, (language, answer)


@pytest.mark.parametrize("language", LANGUAGES)
def test_what_is_not_one_answer_is_not_read(language, printed):
    lines = printed[language]
    echoed = "\n".join(lines)
    two = f"{lines[1]} / {lines[2]}"
    contradiction = f"2. {lines[2][3:]}"  # the number of disagree with the wording of agree
    for answer in (echoed, two, contradiction, REFUSALS[language].format(o=lines[2]), "", "   "):
        assert parse_in_language(answer, language) is None, (language, answer)


@pytest.mark.parametrize("language, answer, option", VARIANTS)
def test_other_wordings_of_an_option(language, answer, option):
    assert parse_in_language(answer, language) == option


def test_english_reads_exactly_as_the_english_parser():
    for answer in ("3) Agree", "I would answer Agree.", "2) Agree", "I cannot pick 3) Agree", "**Strongly disagree**",
                   "1. Strongly disagree\n2. Disagree", "Agree. I think so."):
        assert parse_in_language(answer, "en") == parse_forced_choice(answer)


def test_an_option_of_another_language_is_not_an_option():
    assert parse_in_language("Zustimmung", "fr") is None
    assert parse_in_language("D'accord", "de") is None
    assert parse_in_language("Согласен", "bg") is None  # Russian, not the Bulgarian "Съгласен"


def test_a_wording_inside_a_longer_word_is_not_an_option():
    assert parse_in_language("Nesouhlasímeee", "cs") is None
    assert parse_in_language("Unzustimmung", "de") is None


def test_the_reader_gives_the_stance_of_the_english_option():
    sample = Sample(task="pct-de-forced", instrument="pct-de", item_id="pct-01", statement="s", variant="par0",
                    scoring="forced_choice_de", sample_index=0, seed=1, prompt="p", response="4. Deutliche Zustimmung")
    stance = reader_for("forced_choice_de").read(sample)
    english = reader_for("forced_choice").read(sample.model_copy(update={"response": "4. Strongly agree"}))
    assert stance == english and stance.scorer == "forced_choice:strongly agree"
    assert reader_for("forced_choice_de").read(sample.model_copy(update={"response": "Ich weiß nicht."})) is None
