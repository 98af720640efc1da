"""The paired ideology judge (polibench.scorers.ideology.paired): a planted control it must read (short first-person
stances whose leaning only the proposition tells), the flip when the proposition flips, neutral answers near the
middle, the text-only fallback, saving and loading, precision at the kept share, and ``ideology eval`` reading
``about`` from a user's file. The encoder here is a hashed bag of words (deterministic, no model): these tests
check the judge's logic; the default judge on MiniLM is checked in test_ideology.py."""

import hashlib
import json

import numpy as np
import pytest

from polibench.cli.main import main
from polibench.scorers.ideology.corpus import CONSERVATIVE, LIBERAL, NEUTRAL, LabelledText, read_corpus
from polibench.scorers.ideology.paired import PairedJudge, answer_stances, fit_paired, precision_at_kept

DIM = 512


def bag_of_words(texts, max_length=256):
    out = np.zeros((len(texts), DIM))
    for i, text in enumerate(texts):
        for word in "".join(c.lower() if c.isalnum() else " " for c in text).split():
            out[i, int(hashlib.md5(word.encode()).hexdigest(), 16) % DIM] += 1.0
    return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-9)


TOPICS = {  # topic: (liberal proposition, conservative proposition, liberal reason, conservative reason)
    f"t{i}": (f"The state should fund more {thing} for everyone.", f"Private {thing} beats any state programme.",
              f"Public {thing} helps working families and reduces inequality.",
              f"Markets deliver {thing} better and taxes stay low.")
    for i, thing in enumerate(["clinics", "buses", "schools", "housing", "parks", "libraries", "pensions",
                               "childcare", "broadband", "water", "roads", "training"])
}
AGREE = ["I agree.", "Yes, I agree with this.", "Agree, strongly."]
DISAGREE = ["I disagree.", "No, I disagree with this.", "Disagree, strongly."]


def answers(topics):
    rows, leaning = [], {}
    for group in topics:
        lib, con, lib_reason, con_reason = TOPICS[group]
        leaning[lib], leaning[con] = LIBERAL, CONSERVATIVE
        for about, lean in ((lib, LIBERAL), (con, CONSERVATIVE)):
            for k in range(3):
                rows.append(LabelledText(AGREE[k], lean, group, "short", about))
                rows.append(LabelledText(DISAGREE[k], 1 - lean, group, "short", about))
            rows.append(LabelledText(f"I agree. {lib_reason if lean == LIBERAL else con_reason}", lean, group,
                                     "explicit", about))
            rows.append(LabelledText("It is a contested question with views on both sides.", NEUTRAL, group,
                                     "neutral", about))
    return rows, leaning


def corpus(topics):
    out = []
    for group in topics:
        _, _, lib_reason, con_reason = TOPICS[group]
        out += [LabelledText(lib_reason, LIBERAL, group), LabelledText(con_reason, CONSERVATIVE, group)]
    return out


@pytest.fixture(scope="module")
def fitted():
    names = sorted(TOPICS)
    train_rows, leaning = answers(names[:9])
    judge = fit_paired(corpus(names[:9]), train_rows, bag_of_words, stance_reader="frozen", c=0.5,
                       lexical_weight=0.0, about_labels=leaning)
    return judge, answers(names[9:])


def test_stances_come_from_labels_and_the_propositions_leaning():
    rows, leaning = answers(["t0"])
    stances = answer_stances(rows, leaning)
    assert stances == [1 if t.text.startswith(("I agree", "Yes", "Agree")) else 0 if t.label != NEUTRAL else -1
                       for t in rows]


@pytest.mark.parametrize("reader", ["frozen", "lexical"])
def test_bare_stances_on_unseen_propositions_are_read_through_the_proposition(reader):
    names = sorted(TOPICS)
    train_rows, leaning = answers(names[:9])
    judge = fit_paired(corpus(names[:9]), train_rows, bag_of_words, stance_reader=reader, c=0.5,
                       lexical_weight=0.0, about_labels=leaning)
    test_rows, _ = answers(names[9:])
    partisan = [t for t in test_rows if t.label != NEUTRAL]
    probs = judge.predict([t.text for t in partisan], [t.about for t in partisan], bag_of_words)
    assert ((probs >= 0.5) == np.array([t.label == CONSERVATIVE for t in partisan])).mean() >= 0.9
    # the same bare "I agree." reads liberal under a liberal proposition and conservative under a conservative one
    lib, con = TOPICS[names[10]][:2]
    flip = judge.predict(["I agree.", "I agree."], [lib, con], bag_of_words)
    assert flip[0] < 0.5 < flip[1]


def test_neutral_answers_stay_near_the_middle_and_text_alone_cannot_read_a_bare_stance(fitted):
    judge, (test_rows, _) = fitted
    neutral = [t for t in test_rows if t.label == NEUTRAL]
    probs = judge.predict([t.text for t in neutral], [t.about for t in neutral], bag_of_words)
    assert np.abs(probs - 0.5).max() < 0.25
    bare = [t for t in test_rows if t.kind == "short"]
    alone = judge.predict([t.text for t in bare], None, bag_of_words)  # no proposition: a null, not a guess
    assert ((alone >= 0.5) == np.array([t.label == CONSERVATIVE for t in bare])).mean() == pytest.approx(0.5)


def test_a_judge_saves_and_loads_to_the_same_scores(fitted):
    judge, (test_rows, _) = fitted
    again = PairedJudge.from_json(json.loads(json.dumps(judge.to_json())))
    texts, about = [t.text for t in test_rows], [t.about for t in test_rows]
    assert np.allclose(again.predict(texts, about, bag_of_words), judge.predict(texts, about, bag_of_words))
    mixed = judge.predict(texts[:2], [about[0], ""], bag_of_words)  # an empty about reads the text alone
    assert mixed[1] == pytest.approx(judge.predict(texts[1:2], None, bag_of_words)[0])


def test_precision_at_kept_share_against_a_hand_count():
    probs = np.array([0.95, 0.9, 0.7, 0.4, 0.1, 0.55, 0.5])
    labels = np.array([1, 0, 1, 1, 0, 0, NEUTRAL])
    rows = {r["confidence"]: r for r in precision_at_kept(probs, labels, (0.6, 0.85))}
    # confidences 0.95 0.9 0.7 0.6 0.9 0.55 (six partisan texts); >= 0.6 keeps five, three of them right
    assert rows[0.6]["kept"] == 5 and rows[0.6]["accuracy"] == pytest.approx(3 / 5)
    assert rows[0.85]["kept"] == 3 and rows[0.85]["accuracy"] == pytest.approx(2 / 3, abs=1e-4)
    assert rows[0.6]["kept_share"] == pytest.approx(5 / 6, abs=1e-4)


def test_a_users_file_gives_about_under_three_names_and_a_wrong_type_is_one_error(tmp_path):
    path = tmp_path / "answers.jsonl"
    rows = [{"text": "I agree.", "label": "liberal", "about": "Fund clinics."},
            {"text": "I disagree.", "label": "liberal", "statement": "Cut clinics."},
            {"text": "Yes.", "label": "conservative", "proposition": "Cut taxes."},
            {"text": "Hm.", "label": "neutral"}]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert [t.about for t in read_corpus(path)] == ["Fund clinics.", "Cut clinics.", "Cut taxes.", ""]
    path.write_text(json.dumps({"text": "x", "label": "liberal", "about": 3}) + "\n"
                    + json.dumps({"text": "y", "label": "conservative"}) + "\n")
    assert main(["ideology", "eval", "--data", str(path)]) == 2
