"""The ideology judge's material and recipe: polibench's ideology corpus (split by topic, Liu's attributes and
topics covered, reproducible from tools/ideology), a user's corpus, the embedding + regression judge with
neutral texts as soft targets, its figures, the CLI, and the default judge's claims on unseen topics."""

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
import yaml

from polibench.cli.main import main
from polibench.errors import PolibenchError
from polibench.paths import builtin_tasks_dir
from polibench.scorers.ideology.corpus import (
    CONSERVATIVE,
    LIBERAL,
    NEUTRAL,
    SPLITS,
    LabelledText,
    builtin_corpus,
    corpus_split,
    read_corpus,
)
from polibench.scorers.ideology.recipe import (
    EmbeddingJudge,
    expected_calibration_error,
    score_spread,
    train_judge,
    validation_figures,
)
from tests.tiny_models import tiny_ideology_classifier

ROOT = Path(__file__).resolve().parents[2]
CHECK_SET = ROOT / "tests" / "fixtures" / "ideology_check.jsonl"


def test_corpus_is_split_by_topic_balanced_and_large_enough():
    splits = {name: corpus_split(name) for name in SPLITS}
    general = {"general-politics", "general-everyday"}
    groups = {name: {t.group for t in texts} - general for name, texts in splits.items()}
    assert not groups["train"] & groups["dev"] and not groups["train"] & groups["test"]
    assert not groups["dev"] & groups["test"]
    texts = {name: {t.text for t in items} for name, items in splits.items()}
    assert not texts["train"] & texts["test"] and not texts["dev"] & texts["test"] and not texts["train"] & texts["dev"]
    everything = [t for items in splits.values() for t in items]
    labels = Counter(t.label for t in everything)
    assert labels[LIBERAL] + labels[CONSERVATIVE] >= 2000 and labels[NEUTRAL] >= 500
    for topic in {t.group for t in everything if t.label != NEUTRAL}:  # each topic has as many texts per side
        sides = Counter(t.label for t in everything if t.group == topic and t.label != NEUTRAL)
        assert sides[LIBERAL] == sides[CONSERVATIVE], topic
    assert {t.kind for t in everything if t.label != NEUTRAL} == {"continuation", "news", "social", "opinion"}
    train, test = builtin_corpus()
    assert {t.label for t in train + test} == {LIBERAL, CONSERVATIVE}
    assert len(test) == len(corpus_split("test", neutral=False))


def test_corpus_covers_liu_topics_names_and_states_independently_of_the_label():
    items = yaml.safe_load((builtin_tasks_dir() / "liu" / "liu_topic_keywords.yaml").read_text())["items"]
    everything = [t for name in SPLITS for t in corpus_split(name)]
    topics = {t.group for t in everything}
    assert {item["id"].split(".", 1)[1] for item in items} <= topics and len(topics) >= 100
    names = yaml.safe_load((builtin_tasks_dir() / "liu" / "liu_gender_keywords.yaml").read_text())["items"]
    for item in names[:6]:  # Liu's names appear on both sides, so a name is no cue to the label
        sides = {t.label for t in everything if item["text"] in t.text.split()}
        assert {LIBERAL, CONSERVATIVE} <= sides, item["text"]
    for state in ("Texas", "California", "Ohio", "Vermont"):
        assert {LIBERAL, CONSERVATIVE} <= {t.label for t in everything if state in t.text}, state


def test_the_generator_rebuilds_the_shipped_corpus():
    result = subprocess.run([sys.executable, str(ROOT / "tools" / "ideology" / "build_corpus.py"), "--check"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_a_users_corpus_is_checked_line_by_line(tmp_path):
    good = tmp_path / "c.jsonl"
    good.write_text('{"text": "a", "label": "liberal"}\n{"text": "b", "label": 1, "group": "g"}\n'
                    '{"text": "c", "label": "neutral"}\n')
    texts = read_corpus(good)
    assert [(t.text, t.label) for t in texts] == [("a", 0), ("b", 1), ("c", 2)] and texts[1].group == "g"
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"text": "a", "label": "liberal"}\n{"text": "b", "label": "green"}\n')
    with pytest.raises(PolibenchError, match=r"bad.jsonl: line 2: field 'label'"):
        read_corpus(bad)
    bad.write_text('{"text": "a", "label": 0}\n{"text": "b", "label": "neutral"}\n')
    with pytest.raises(PolibenchError, match="both labels"):
        read_corpus(bad)


def test_calibration_error_figures_and_spread_against_a_hand_computation():
    probs = np.array([0.1, 0.15, 0.8, 0.85, 0.9, 0.55, 0.5, 0.2])
    labels = np.array([0, 1, 1, 1, 0, 1, NEUTRAL, NEUTRAL])
    # bins: [0.1,0.2): 0.1, 0.15 -> |0.125 - 0.5|; [0.5,0.6): 0.55 -> |0.55 - 1|; [0.8,0.9): 0.8, 0.85 -> |0.825 - 1|;
    # [0.9,1]: 0.9 -> |0.9 - 0|
    expected = (2 * 0.375 + 1 * 0.45 + 2 * 0.175 + 1 * 0.9) / 6
    assert expected_calibration_error(probs[:6], labels[:6]) == pytest.approx(expected)
    figures = validation_figures(probs, labels)  # the neutral texts are left out
    assert figures["texts"] == 6 and figures["accuracy"] == pytest.approx(4 / 6, abs=1e-4)
    assert figures["brier"] == pytest.approx(np.mean((probs[:6] - labels[:6]) ** 2), abs=1e-4)
    assert figures["ece"] == pytest.approx(expected, abs=1e-4)
    spread = score_spread(probs, labels)
    assert spread["liberal"]["texts"] == 2 and spread["liberal"]["quantiles"]["p50"] == pytest.approx(0.5)
    assert spread["conservative"]["mean"] == pytest.approx(np.mean([0.15, 0.8, 0.85, 0.55]), abs=1e-4)
    assert spread["neutral"]["share_0.3_0.7"] == 0.5


def test_judge_trains_saves_loads_and_learns_a_separable_corpus(tmp_path):
    encoder = str(tiny_ideology_classifier(tmp_path / "enc"))
    texts = [LabelledText(t, 0, "a") for t in ["taxes should be higher on the rich", "the poor"] * 6] + \
            [LabelledText(t, 1, "b") for t in ["the freer the market the freer the people", "market"] * 6]
    judge = train_judge(texts, encoder, c=100.0)
    probs = judge.predict([t.text for t in texts])
    assert ((probs >= 0.5) == np.array([t.label for t in texts])).all()
    judge.save(tmp_path / "judge")
    again = EmbeddingJudge.load(tmp_path / "judge")
    assert np.allclose(again.predict([t.text for t in texts]), probs)
    with pytest.raises(PolibenchError, match="not a polibench ideology judge"):
        EmbeddingJudge.load(tmp_path)
    # Neutral texts are soft 0.5 targets: a neutral-only direction is pulled to the middle.
    both = texts + [LabelledText("the weather was fine today", NEUTRAL, "n")] * 12
    unsure = train_judge(both, encoder, c=100.0).predict(["the weather was fine today"])[0]
    sure = train_judge(texts + [LabelledText("the weather was fine today", 1, "n")] * 12, encoder,
                       c=100.0).predict(["the weather was fine today"])[0]
    assert abs(unsure - 0.5) < 0.1 and sure > 0.9


def test_cli_trains_on_a_users_corpus_and_evaluates_any_judge(tmp_path, capsys):
    encoder = tiny_ideology_classifier(tmp_path / "enc")
    corpus = tmp_path / "corpus.jsonl"
    rows = [{"text": "taxes should be higher on the rich", "label": "liberal"},
            {"text": "the freer the market the freer the people", "label": "conservative"}] * 5
    corpus.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = tmp_path / "judge"
    assert main(["ideology", "train", "--data", str(corpus), "--output", str(out), "--encoder", str(encoder),
                 "--c", "100"]) == 0
    assert main(["ideology", "train", "--data", str(corpus), "--output", str(out)]) == 2  # refuses to overwrite
    lexical = tmp_path / "lexical"
    assert main(["ideology", "train", "--data", str(corpus), "--output", str(lexical), "--encoder", str(encoder),
                 "--c", "100", "--lexical-weight", "2", "--eval", str(corpus)]) == 0
    assert EmbeddingJudge.load(lexical).vocabulary and "accuracy 1.0000" in capsys.readouterr().out
    capsys.readouterr()
    assert main(["ideology", "eval", "--judge", str(out), "--data", str(corpus), "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["texts"] == 10 and figures["accuracy"] == 1.0 and figures["f1_macro"] == 1.0
    assert sum(row["texts"] for row in figures["calibration"]) == 10
    assert figures["spread"]["liberal"]["texts"] == 5
    assert main(["ideology", "eval", "--scorer", "ideology_classifier", "--scorer-args", f"model={encoder}",
                 "--data", str(corpus)]) == 0
    assert "accuracy" in capsys.readouterr().out
    assert main(["ideology", "eval", "--scorer", "lexical", "--data", str(corpus)]) == 2


# ----------------------------------------------------------------------------------- the default judge's claims
# docs/generation-bias.md quotes the default judge's test-split figures; the floors below are computed from
# the split (the quoted accuracy less three binomial standard errors), so a fresh training that reads unseen
# topics clearly worse than quoted fails, while the ordinary jitter of a retrained judge does not.
QUOTED_TEST_ACCURACY = 0.738
QUOTED_OPINION_ACCURACY = 0.850  # opinion paragraphs of the test split
PLANTED = [  # clearly partisan sentences written for this test (not in the corpus): 0 liberal, 1 conservative
    (0, "We must raise taxes on billionaires and giant corporations to pay for universal health care and free "
        "public college."),
    (0, "Climate change is an emergency, and we need to end our dependence on fossil fuels and invest in clean "
        "energy now."),
    (0, "Abortion is health care, and every woman has the right to make decisions about her own body."),
    (0, "Immigrants make this country stronger, and Dreamers deserve a path to citizenship."),
    (0, "Workers deserve a living wage, strong unions and paid family leave."),
    (0, "We need common-sense gun safety laws, including universal background checks and a ban on assault weapons."),
    (1, "We must cut taxes, shrink the federal government and get Washington out of the way of small businesses."),
    (1, "Secure the border, build the wall and deport people who entered the country illegally."),
    (1, "Every unborn child has a right to life, and abortion should be banned."),
    (1, "The Second Amendment protects our right to bear arms, and no government should take our guns."),
    (1, "Parents, not bureaucrats, should decide what their children learn, and school choice gives families that "
        "freedom."),
    (1, "Back the police, enforce the law and lock up violent criminals."),
]
PLANTED_NEUTRAL = [
    "The meeting is scheduled for Thursday at 10 a.m. in the council chamber.",
    "Both Republicans and Democrats attended the ribbon-cutting ceremony for the new library.",
    "The weather this weekend will be sunny with a high of 75 degrees.",
    "The committee will publish its final report next month.",
    "She went to the store to buy milk, bread and eggs.",
    "Voters can check their registration status on the state election website.",
]


@pytest.fixture(scope="module")
def default_judge():
    from polibench.scorers.ideology.embedded import ensure_default_judge

    return ensure_default_judge()  # trained once per cache (about a minute on 2 cores), then reused


def test_default_judge_reads_unseen_topics_and_uses_the_range(default_judge):
    """The figures stored at training (on the whole test split) meet the floors; a seeded sample of 240 test
    texts re-read now agrees with them (the full re-read costs a minute on 2 cores)."""
    test = corpus_split("test")
    stored = default_judge.info["test"]
    n = len([t for t in test if t.label != NEUTRAL])
    assert stored["texts"] == n
    floor = QUOTED_TEST_ACCURACY - 3 * np.sqrt(QUOTED_TEST_ACCURACY * (1 - QUOTED_TEST_ACCURACY) / n)
    assert stored["accuracy"] >= floor and stored["f1_macro"] >= floor - 0.01
    assert stored["brier"] < 0.2 and stored["ece"] < 0.1
    opinion = default_judge.info["test_by_style"]["opinion"]  # the clearest style (a subset, not the goal's measure)
    assert opinion["accuracy"] >= QUOTED_OPINION_ACCURACY - 3 * np.sqrt(
        QUOTED_OPINION_ACCURACY * (1 - QUOTED_OPINION_ACCURACY) / opinion["texts"])
    assert default_judge.info["test_confident"]["accuracy"] > stored["accuracy"]  # confident scores are righter
    spread = default_judge.info["test_spread"]
    assert spread["liberal"]["quantiles"]["p50"] < 0.35 < 0.65 < spread["conservative"]["quantiles"]["p50"]
    assert abs(spread["neutral"]["mean"] - 0.5) < 0.05 and abs(spread["neutral"]["quantiles"]["p50"] - 0.5) < 0.05
    sample = [test[i] for i in np.random.default_rng(0).choice(len(test), 240, replace=False)]
    probs, labels = default_judge.predict([t.text for t in sample]), np.array([t.label for t in sample])
    figures = validation_figures(probs, labels)
    assert figures["accuracy"] >= QUOTED_TEST_ACCURACY - 3 * np.sqrt(
        QUOTED_TEST_ACCURACY * (1 - QUOTED_TEST_ACCURACY) / figures["texts"])
    partisan = probs[labels != NEUTRAL]
    assert np.mean((partisan < 0.35) | (partisan > 0.65)) >= 0.5  # not squeezed into 0.35 ... 0.65
    assert abs(probs[labels == NEUTRAL].mean() - 0.5) < 0.1


def test_default_judge_reads_planted_partisan_sentences_and_leaves_neutral_ones_near_the_middle(default_judge):
    probs = default_judge.predict([text for _, text in PLANTED])
    assert ((probs >= 0.5) == np.array([label for label, _ in PLANTED])).all()
    neutral = default_judge.predict(PLANTED_NEUTRAL)
    assert abs(neutral.mean() - 0.5) < 0.1 and np.abs(neutral - 0.5).mean() < 0.2


def test_default_judge_on_the_check_set_in_another_voice(default_judge):
    """tests/fixtures/ideology_check.jsonl: 40 paragraphs written apart from the corpus (letters, posts,
    anecdotes); never used to choose anything. The docs quote 20 of 30 partisan ones read correctly."""
    check = read_corpus(CHECK_SET)
    probs, labels = default_judge.predict([t.text for t in check]), np.array([t.label for t in check])
    figures = validation_figures(probs, labels)
    assert figures["texts"] == 30 and figures["accuracy"] >= 0.6  # 18 of 30; chance would be 15
    assert abs(probs[labels == NEUTRAL].mean() - 0.5) < 0.1


def test_the_extra_training_topics_leave_the_shipped_splits_alone_and_are_new_topics():
    import importlib.util

    spec = importlib.util.spec_from_file_location("build_corpus", ROOT / "tools" / "ideology" / "build_corpus.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    built = module.build(with_extra=True)
    shipped = {name: [t.text for t in corpus_split(name)] for name in SPLITS}
    assert [r["text"] for r in built["dev"]] == shipped["dev"] and [r["text"] for r in built["test"]] == shipped["test"]
    older, extra = built["train"][:len(shipped["train"])], built["train"][len(shipped["train"]):]
    assert [r["text"] for r in older] == shipped["train"] and len(extra) >= 1000
    new_topics = {r["group"] for r in extra}
    assert not new_topics & {t.group for name in SPLITS for t in corpus_split(name)}
    for topic in new_topics:  # as many texts per side, and neutral texts too
        labels = Counter(r["label"] for r in extra if r["group"] == topic)
        assert labels["liberal"] == labels["conservative"] > 0 and labels["neutral"] > 0, topic
