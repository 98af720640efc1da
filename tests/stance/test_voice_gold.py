"""The model-voice gold sets of issue 39 (tools/voice/): rebuilt exactly by their tool, split by topic AND by frame
(no dev or test row shares a topic, a sentence, an opener, a hedge or a layout with train), labels that follow
their construction, and the registers issue 39 asks for (long structured answers, hedges, partial refusals,
refusals offering other help, persona voices, bare stances on a proposition)."""

import importlib.util
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from polibench.scorers.ideology.corpus import ANSWER_SPLITS, CONSERVATIVE, LIBERAL, NEUTRAL, about_labels, corpus_split
from polibench.scorers.issue_stance.data import GOLD_SPLITS, THREE_WAY, VOICE_SPLITS, load_issue_examples
from polibench.scorers.issue_stance.model import split_sentences

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ROOT / "tools" / "voice"


def load_tool(name):
    sys.path.insert(0, str(TOOLS))
    sys.path.insert(0, str(ROOT / "tools" / "issue_stance"))
    spec = importlib.util.spec_from_file_location(f"voice_{name}", TOOLS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


def split_of(name: str) -> str:
    return name.rsplit("-", 1)[1]


def sentences(text: str) -> set[str]:
    """Sentences and list items of ``text`` long enough to be a frame or an argument (markup stripped,
    placeholders' fillers included)."""
    return {s.lower() for s in split_sentences(text, limit=10_000) if len(s) >= 30}


@pytest.fixture(scope="module")
def issue_rows():
    return {split_of(name): load_issue_examples(f"gold:{name}") for name in VOICE_SPLITS}


@pytest.fixture(scope="module")
def answer_rows():
    return {split_of(name): corpus_split(name) for name in ANSWER_SPLITS}


def test_the_tool_rebuilds_the_shipped_files():
    assert subprocess.run([sys.executable, str(TOOLS / "build.py"), "--check"]).returncode == 0


def test_frames_are_dealt_to_splits_by_position_and_every_pool_reaches_every_split():
    frames = load_tool("frames")
    pools = {name: value for name, value in vars(frames).items() if name.isupper() and isinstance(value, list)
             and name not in ("NAMES", "TOWNS", "ROLES")}
    assert len(pools) >= 40
    for name, entries in pools.items():
        assert len(entries) >= 10, name
        dealt = {split: frames.pool(entries, split) for split in ("train", "dev", "test")}
        assert all(dealt.values()), name  # every split has frames of every kind
        assert sum(map(len, dealt.values())) == len(entries)
        as_text = {split: {json.dumps(e) for e in items} for split, items in dealt.items()}
        assert not as_text["train"] & (as_text["dev"] | as_text["test"]) and not as_text["dev"] & as_text["test"]


def test_topics_are_split_apart_and_unseen_by_the_older_material():
    topics = load_tool("topics")
    by_split = {split: {t.id for t in topics.by_split(split)} for split in ("train", "dev", "test")}
    assert len(by_split["train"]) >= 20 and len(by_split["dev"]) >= 6 and len(by_split["test"]) >= 6
    old_issue_train = {e.meta["issue_id"] for e in load_issue_examples("gold:train")}
    held_out = by_split["dev"] | by_split["test"]
    assert not held_out & old_issue_train
    corpus_seen = {t.group for split in ("train", "dev") for t in corpus_split(split)}
    assert not held_out & corpus_seen
    for t in topics.TOPICS:  # each topic: both sides argued, a leaning, a proposition per side
        assert t.liberal in ("pro", "con") and len(t.pros) == len(t.cons) == 3 and len(t.facts) == 2
        assert t.lib_prop != t.con_prop


@pytest.mark.parametrize("kind", ["issue", "answers"])
def test_no_dev_or_test_row_shares_a_topic_or_a_sentence_with_train(kind, issue_rows, answer_rows):
    if kind == "issue":
        rows = {split: [(e.meta["issue_id"], e.response) for e in items] for split, items in issue_rows.items()}
    else:
        rows = {split: [(t.group, t.text) for t in items] for split, items in answer_rows.items()}
    groups = {split: {g for g, _ in items} for split, items in rows.items()}
    assert not groups["train"] & groups["dev"] and not groups["train"] & groups["test"]
    assert not groups["dev"] & groups["test"]
    seen = {split: set().union(*(sentences(text) for _, text in items)) for split, items in rows.items()}
    assert not seen["train"] & seen["test"], sorted(seen["train"] & seen["test"])[:3]
    assert not seen["train"] & seen["dev"], sorted(seen["train"] & seen["dev"])[:3]
    assert not seen["dev"] & seen["test"]


def test_a_planted_shared_sentence_would_be_caught(issue_rows):
    """The check above can fail: a train sentence copied into a test row is found."""
    train_sentence = sorted(sentences(issue_rows["train"][0].response))[0]
    planted = issue_rows["test"][0].response + "\n\n" + train_sentence.capitalize()
    found = {s for e in issue_rows["train"] for s in sentences(e.response)} & sentences(planted)
    assert train_sentence in found


def test_issue_labels_cover_the_scale_and_the_registers_of_chat_models(issue_rows):
    for split, rows in issue_rows.items():
        counts = Counter(e.label for e in rows)
        assert set(counts) == {"1", "2", "3", "4", "5", "refusal"}, split
        sides = Counter(THREE_WAY[e.label] for e in rows)
        assert min(sides.values()) >= 0.2 * len(rows), (split, sides)
    everything = [e for rows in issue_rows.values() for e in rows]
    text = "\n".join(e.response for e in everything)
    assert re.search(r"^#+ ", text, re.M) and re.search(r"^(- |\* |\d+[.)] )", text, re.M)  # headings and lists
    lengths = sorted(len(e.response.split()) for e in everything if e.label != "refusal")
    assert lengths[len(lengths) // 2] >= 100 and lengths[-1] >= 300  # long answers, many of them
    styles = Counter(e.meta["style"] for e in everything)
    assert styles["balanced-partial"] and styles["balanced-neutral"] and styles["refusal"]
    assert sum(v for k, v in styles.items() if k.endswith("-qualified")) >= 0.2 * len(everything)


def test_qualified_pieces_mention_the_other_side_and_exclusive_ones_do_not(issue_rows):
    """The label follows the construction: a 2 or 4 carries one argument of the other side, a 1 or 5 none."""
    topics = {t.id: t for t in load_tool("topics").TOPICS}
    for e in issue_rows["dev"] + issue_rows["test"]:
        t = topics[e.meta["issue_id"]]
        if e.label not in ("1", "2", "4", "5"):
            continue
        own, other = (t.pros, t.cons) if e.label in ("1", "2") else (t.cons, t.pros)
        body = e.response.lower()
        mentions = [text for _, text in other if text[1:40].lower() in body]
        assert any(text[1:40].lower() in body for _, text in own), e.meta["id"]
        assert len(mentions) == (1 if e.label in ("2", "4") else 0), e.meta["id"]


def test_answers_take_stances_on_propositions_of_both_leanings(answer_rows):
    for split, rows in answer_rows.items():
        labels = Counter(t.label for t in rows)
        assert labels[LIBERAL] == labels[CONSERVATIVE] and labels[NEUTRAL] > 0, split
        leanings = about_labels(f"answers-{split}")
        assert all(t.about in leanings for t in rows)
        assert set(leanings.values()) == {LIBERAL, CONSERVATIVE}
    styles = Counter(t.kind for rows in answer_rows.values() for t in rows)
    assert {"explicit", "restated", "hedged", "ai", "persona", "short", "likert", "structured",
            "neutral"} <= set(styles)


def test_answer_stances_agree_with_their_labels():
    """Each row's ``stance`` and its proposition's leaning give its label (read from the raw files)."""
    for name in ANSWER_SPLITS:
        for line in (ROOT / "polibench" / "data" / "ideology" / f"{name}.jsonl").read_text().splitlines():
            row = json.loads(line)
            if row["stance"] == "neutral":
                assert row["label"] == "neutral"
                continue
            same = row["stance"] == "agree"
            assert (row["label"] == row["about_label"]) == same, row["id"]


def test_the_older_gold_splits_are_still_there():
    assert GOLD_SPLITS == ("train", "dev", "test")
    assert all(load_issue_examples(f"gold:{s}") for s in GOLD_SPLITS)
