"""The PCT in fourteen languages (tasks/languages/, Gurgurov et al. 2025's translations): item i is the same
proposition in every language, English is polibench's ``pct`` with its one difference from the source listed, the
prompts are the source's byte for byte, and the writer reproduces the shipped files.

The source is read from the snapshot tests/fixtures/gurgurov2025/source.json.gz (data/<lang>.json and
prompts/par*.json of github.com/d-gurgurov/Political-Ideologies-LLMs at 6977a9d, MIT), written by
benchmarks/gurgurov2025_tasks.py --snapshot from a checkout.
"""

import gzip
import importlib.util
import json
import statistics
import sys
from pathlib import Path

import pytest

from polibench.cli.main import main
from polibench.errors import SpecError
from polibench.pipeline.plan import build_samples
from polibench.taskspec.loader import check_translation, load_registry

ROOT = Path(__file__).resolve().parents[2]
SNAPSHOT = ROOT / "tests" / "fixtures" / "gurgurov2025" / "source.json.gz"
SOURCE_CODE = {"bg": "bg", "cs": "cz", "de": "de", "en": "en", "es": "es", "fa": "fa", "fr": "fr", "it": "it",
               "pl": "pl", "pt": "pt", "ro": "ro", "ru": "ru", "sl": "sl", "tr": "tr"}
LANGUAGES = sorted(SOURCE_CODE)
# the one proposition where the source's data/en.json differs from polibench's pct (read by hand: the source's
# English has the newer PCT wording, its thirteen translations the older one that pct carries)
ENGLISH_DIFFERS = {"pct-50"}
# hand-checked words of six propositions in every language (read against the English, one by one)
ANCHORS = {
    "pct-05": {"en": "enemy", "bg": "враг", "cs": "nepřítel", "de": "feind", "es": "enemigo", "fa": "دشمن",
               "fr": "ennemi", "it": "nemico", "pl": "wróg", "pt": "inimigo", "ro": "dușman", "ru": "враг",
               "sl": "sovražnik", "tr": "düşman"},
    "pct-24": {"en": "eye", "bg": "око", "cs": "oko", "de": "auge", "es": "ojo", "fa": "چشم", "fr": "œil",
               "it": "occhio", "pl": "oko", "pt": "olho", "ro": "ochi", "ru": "око", "sl": "oko", "tr": "göz"},
    "pct-30": {"en": "marijuana", "bg": "марихуана", "cs": "marihuan", "de": "marihuana", "es": "marihuana",
               "fa": "ماریجوانا", "fr": "cannabis", "it": "marijuana", "pl": "marihuan", "pt": "maconha",
               "ro": "canabis", "ru": "марихуан", "sl": "marihuan", "tr": "marijuana"},
    "pct-43": {"en": "death penalty", "bg": "смъртното наказание", "cs": "trest smrti", "de": "todesstrafe",
               "es": "pena de muerte", "fa": "مجازات مرگ", "fr": "peine de mort", "it": "pena di morte",
               "pl": "kara śmierci", "pt": "pena de morte", "ro": "pedeapsa cu moartea", "ru": "смертная казнь",
               "sl": "smrtne kazni", "tr": "idam"},
    "pct-50": {"en": "multinational", "bg": "мултинационалните", "cs": "nadnárodní", "de": "multinationale",
               "es": "multinacionales", "fa": "چندملیتی", "fr": "multinationales", "it": "multinazionali",
               "pl": "korporacje", "pt": "multinacionais", "ro": "multinaționale", "ru": "многонациональные",
               "sl": "multinacionalke", "tr": "çok uluslu"},
    "pct-52": {"en": "astrology", "bg": "астрологията", "cs": "astrologie", "de": "astrologie", "es": "astrología",
               "fa": "طالع‌بینی", "fr": "astrologie", "it": "astrologia", "pl": "astrologia", "pt": "astrologia",
               "ro": "astrologia", "ru": "астрология", "sl": "astrologija", "tr": "astroloji"},
}


@pytest.fixture(scope="module")
def source() -> dict:
    with gzip.open(SNAPSHOT, "rt", encoding="utf-8") as handle:
        return json.load(handle)


@pytest.fixture(scope="module")
def registry():
    return load_registry()


def flat(data: dict) -> list[tuple[str, int, str]]:
    return [(page, n, text) for page, texts in data["questions"].items() for n, text in enumerate(texts)]


def test_polibench_list_shows_the_language_tasks(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    for language in LANGUAGES:
        for channel in ("forced", "logprob"):
            line = next(line for line in out.splitlines() if line.strip().startswith(f"pct-{language}-{channel} "))
            assert "62 items x 1 form(s) x 11 variant(s)" in line and f"[pct-{language}]" in line
    assert "(German)" in next(line for line in out.splitlines() if line.strip().startswith("pct-de-forced "))


def test_item_i_is_the_same_proposition_in_every_language(registry, source):
    pct = registry.instruments["pct"]
    pages = {code: [(page, n) for page, n, _ in flat(source["data"][code])] for code in SOURCE_CODE.values()}
    assert len({tuple(p) for p in pages.values()}) == 1, "the test pages differ between languages"
    for language in LANGUAGES:
        instrument = registry.instruments[f"pct-{language}"]
        assert instrument.language_code == language and instrument.translation_of == "pct"
        assert [(i.id, i.dimension, i.agree_side, i.weights) for i in instrument.items] == \
            [(i.id, i.dimension, i.agree_side, i.weights) for i in pct.items]
        texts = flat(source["data"][SOURCE_CODE[language]])
        for item, (page, n, text) in zip(instrument.items, texts, strict=True):
            where = f"questions.{page}[{n}]"
            if language == "en" and item.id in ENGLISH_DIFFERS:
                assert where in item.source and text != item.text
            else:
                assert item.text == text and item.source == f"data/{SOURCE_CODE[language]}.json, {where}"


def test_english_is_pct_and_its_differences_from_the_source_are_listed(registry, source):
    pct, english = registry.instruments["pct"], registry.instruments["pct-en"]
    assert [i.text for i in english.items] == [i.text for i in pct.items]
    differs = {item.id for item, (_, _, text) in zip(pct.items, flat(source["data"]["en"])) if item.text != text}
    assert differs == ENGLISH_DIFFERS
    for item_id in differs:
        note = next(i.source for i in english.items if i.id == item_id)
        assert "newer PCT wording" in note and "data/en.json" in note


def _ranks(values):
    order = sorted(range(len(values)), key=values.__getitem__)
    ranks = [0] * len(values)
    for rank, index in enumerate(order):
        ranks[index] = rank
    return ranks


def _correlation(a, b):
    ra, rb = _ranks(a), _ranks(b)
    mean = (len(a) - 1) / 2
    num = sum((x - mean) * (y - mean) for x, y in zip(ra, rb))
    return num / (sum((x - mean) ** 2 for x in ra) * sum((y - mean) ** 2 for y in rb)) ** 0.5


def test_no_translation_is_shifted_or_merged(registry):
    """A translation shifted by one item, or with two items merged, breaks the link between the lengths of a
    proposition in English and in the language (rank correlation 0.84-0.96 as shipped, about -0.1 shifted)."""
    english = [len(i.text) for i in registry.instruments["pct-en"].items]
    for language in LANGUAGES[:]:
        lengths = [len(i.text) for i in registry.instruments[f"pct-{language}"].items]
        assert _correlation(lengths, english) > 0.8, language
        assert _correlation(lengths[1:], english[:-1]) < 0.3, language
        ratios = [a / b for a, b in zip(lengths, english)]
        median = statistics.median(ratios)
        assert all(1 / 3 < r / median < 3 for r in ratios), language


def test_hand_checked_words_of_six_propositions_in_every_language(registry):
    for item_id, words in ANCHORS.items():
        for language, word in words.items():
            text = next(i.text for i in registry.instruments[f"pct-{language}"].items if i.id == item_id)
            assert word in text.lower(), (item_id, language, text)


def test_a_translation_with_items_out_of_place_is_refused(registry, tmp_path):
    shifted = registry.instruments["pct-de"].model_copy(deep=True)
    shifted.items[3:5] = [shifted.items[4], shifted.items[3]]
    with pytest.raises(SpecError, match=r"items.3.id"):
        check_translation(shifted, registry.instruments, "pct-de.yaml")
    text = (ROOT / "tasks" / "languages" / "instrument_pct_de.yaml").read_text(encoding="utf-8")
    moved = text.replace("translation: pct-de", "translation: pct-xx").replace("id: pct-04", "id: pct-9x", 1)
    (tmp_path / "pct_xx.yaml").write_text(moved, encoding="utf-8")
    with pytest.raises(SpecError) as err:
        load_registry([tmp_path])
    assert "pct_xx.yaml" in str(err.value) and "items[3].id" in str(err.value) and "pct-04" in str(err.value)


def test_prompts_are_the_source_prompts_byte_for_byte(registry, source):
    """The source's generate.py sends f"{q}\\n{prompt_prefix}": every forced-choice prompt is that, and every
    log-probability prompt that and a line break (its options are read as the next line), with the four numbered
    lines the prompt prints as its options."""
    for language in LANGUAGES:
        code = SOURCE_CODE[language]
        texts = [text for _, _, text in flat(source["data"][code])]
        for channel in ("forced", "logprob"):
            samples = build_samples(registry.task(f"pct-{language}-{channel}"), registry)
            assert len(samples) == 62 * 11
            for sample in samples:
                n = int(sample.item_id.split("-")[1]) - 1
                statement = sample.statement if language == "en" and sample.item_id in ENGLISH_DIFFERS else texts[n]
                prefix = source["prompts"][sample.variant][code]
                assert sample.prompt == f"{statement}\n{prefix}" + ("\n" if channel == "logprob" else "")
                if channel == "logprob":
                    assert sample.options == [f"{k}. {o}" for k, o in enumerate(source["data"][code]["choices"], 1)]
                    assert all(option in prefix.split("\n") for option in sample.options)
                else:
                    assert sample.scoring == ("forced_choice" if language == "en" else f"forced_choice_{language}")


def test_the_writer_reproduces_the_shipped_files(tmp_path):
    spec = importlib.util.spec_from_file_location("gurgurov_tasks", ROOT / "benchmarks" / "gurgurov2025_tasks.py")
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        module.main(SNAPSHOT, tmp_path)
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    shipped = ROOT / "tasks" / "languages"
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == sorted(p.name for p in shipped.iterdir())
    assert all((tmp_path / name).read_bytes() == (shipped / name).read_bytes() for name in written)
