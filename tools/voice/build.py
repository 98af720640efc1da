"""Build polibench's model-voice gold sets (issue 39) from the hand-written topics and frames beside this file.

    python tools/voice/build.py            # write the six files (deterministic)
    python tools/voice/build.py --check    # exit 1 when the shipped files differ from what this builds

Two sets, one per offline reader, both written in the voice of chat models (long structured answers with headings
and lists, hedges, one side argued while the other is acknowledged, partial refusals, refusals that offer other
help, persona voices, bare first-person stances on a proposition):

- ``polibench/data/issue_stance/voice-{train,dev,test}.jsonl``: writing-assistance responses (essays, blog posts,
  emails, speeches, threads, talking points, explainers, dialogues) labelled on IssueBench's templ-5 scale relative
  to the topic's framings (``1`` ... ``5``, ``refusal``). Train also holds the older gold set's 29 train issues
  (``tools/issue_stance/issues.py``) written into the train frames.
- ``polibench/data/ideology/answers-{train,dev,test}.jsonl``: answers to "what do you think of this
  proposition?", labelled ``liberal`` / ``conservative`` (the leaning of the stance taken: agreeing with a
  proposition the US left holds, or disagreeing with one the right holds, is liberal) or ``neutral`` (no lean),
  with the proposition in ``about``.

Labels follow from the construction. Splits: by topic (``topics.py``), and by frame (``frames.py``: every pool's
entries are dealt to train / dev / test by position), so no dev or test row shares a topic, an argument, a frame,
a hedge or a layout with a train row (tests/stance/test_voice_gold.py checks it sentence by sentence).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "issue_stance"))

import frames as F  # noqa: E402
from topics import TOPICS, Topic  # noqa: E402

ROOT = HERE.parents[1]
ISSUE_OUT = ROOT / "polibench" / "data" / "issue_stance"
IDEOLOGY_OUT = ROOT / "polibench" / "data" / "ideology"
SPLITS = ("train", "dev", "test")
SEED = 39
KEEP_CASE = {"Americans", "Medicare", "China's", "Congress", "Canada", "Quebec", "Washington", "Section", "I",
             "US", "Russia's", "Sixteen-year-olds", "Pilot", "London,"}


def clause(sentence: str) -> str:
    """A sentence as a clause: first letter lower-cased (unless a name or an acronym), final full stop dropped."""
    s = sentence.strip().rstrip(".")
    first = s.split(" ", 1)[0]
    if first in KEEP_CASE or (len(first) > 1 and first[1].isupper()):
        return s
    return s[0].lower() + s[1:]


def lower_first(sentence: str) -> str:
    first = sentence.split(" ", 1)[0]
    if first in KEEP_CASE or (len(first) > 1 and first[1].isupper()):
        return sentence
    return sentence[0].lower() + sentence[1:]


def upper_first(text: str) -> str:
    return text[0].upper() + text[1:] if text else text


class Frames:
    """The pools of one split, drawn from with one random stream."""

    def __init__(self, split: str, rng: random.Random):
        self.split, self.rng = split, rng

    def pick(self, name: str):
        return self.rng.choice(F.pool(getattr(F, name), self.split))

    def fill(self, name: str, **values) -> str:
        return fill(self.pick(name), **values)

    def picks(self, name: str, k: int) -> list:
        return self.rng.sample(F.pool(getattr(F, name), self.split), k)


def fill(template: str, **values) -> str:
    text = template
    for key, value in values.items():
        text = text.replace("{" + key + "}", str(value))
        if key in ("subject", "neutral", "point", "prop"):
            text = text.replace("{" + key.capitalize() + "}", upper_first(str(value)))
    return text


def a_kind(kind: str) -> str:
    return ("an " if kind[0] in "aeiou" else "a ") + kind


# ------------------------------------------------------------------------------------------------ issue responses
class Material:
    """An issue's framings and points, from a topic of ``topics.py`` or an issue of the older gold set."""

    def __init__(self, ident, neutral, pro, con, subject, pros, cons, facts):
        self.id, self.neutral, self.pro, self.con, self.subject = ident, neutral, pro, con, subject
        self.points = {"pro": [p if isinstance(p, tuple) else (None, p) for p in pros],
                       "con": [p if isinstance(p, tuple) else (None, p) for p in cons]}
        self.facts = list(facts)

    @classmethod
    def of_topic(cls, t: Topic) -> Material:
        return cls(t.id, t.neutral, t.pro, t.con, t.subject, t.pros, t.cons, t.facts)

    @classmethod
    def of_old_issue(cls, issue: dict) -> Material:
        return cls(issue["id"], issue["neutral"], issue["pro"], issue["con"], issue["subject"], issue["pros"],
                   issue["cons"], issue["facts"])


def points_block(fr: Frames, points: list, elaborate: float) -> str:
    """Points laid out as a list/headed sections (when they have titles) or as prose paragraphs."""
    titled = all(title for title, _ in points)
    use_layout = titled and fr.rng.random() < 0.75
    layout = fr.pick("LAYOUTS") if use_layout else None
    if layout is not None and "{title}" not in layout and titled and fr.rng.random() < 0.5:
        layout = None
    connectors = fr.pick("CONNECTORS")
    parts = []
    for i, (title, text) in enumerate(points):
        if fr.rng.random() < elaborate:
            text = f"{text} {fr.pick('ELABORATIONS')}"
        if layout is not None:
            parts.append(fill(layout, n=i + 1, title=title or "", text=text))
        else:
            lead = connectors[min(i, len(connectors) - 1)] if i < len(connectors) else connectors[-1]
            joined = f"{lead} {lower_first(text)}" if lead.endswith((",", "that")) else f"{lead} {text}"
            parts.append(joined)
    return "\n\n".join(parts) if layout is None or "\n" in layout or fr.rng.random() < 0.5 else "\n".join(parts)


def one_sided(fr: Frames, m: Material, side: str, qualified: bool, genre: str) -> str:
    """A piece for ``side`` (``pro`` / ``con``); ``qualified`` adds one concession or a closing note (2 / 4)."""
    rng = fr.rng
    other = "con" if side == "pro" else "pro"
    mine = rng.sample(m.points[side], k=min(len(m.points[side]), rng.choice([2, 3, 3, 4])))
    theirs = rng.choice(m.points[other])[1]
    s = m.subject
    cap = "PRO" if side == "pro" else "CON"
    blocks = []
    if rng.random() < 0.55:
        kind = {"essay": "persuasive essay", "blog": "blog post", "email": "email", "speech": "short speech",
                "social": "social media thread", "points": "set of talking points",
                "paragraph": "short paragraph"}[genre]
        blocks.append(fill(fr.pick("PREFACES"), a_kind=a_kind(kind), subject=s))
    concession = fill(fr.pick("CONCESSIONS"), point=lower_first(theirs)) if qualified else None
    note = None
    if qualified and rng.random() < 0.4:
        note, concession = fill(fr.pick("DISCLAIMERS"), point=lower_first(theirs)), None
    if genre in ("essay", "blog"):
        if rng.random() < 0.7:
            blocks.append(fill(fr.pick(f"{cap}_TITLES"), subject=s))
        blocks.append(fill(fr.pick(f"{cap}_INTROS"), subject=s))
        if rng.random() < 0.3:
            blocks.append(rng.choice(m.facts))
        if rng.random() < 0.6:
            blocks.append(fr.pick(f"{cap}_HEADINGS"))
        blocks.append(points_block(fr, mine, 0.5))
        for paragraph in fr.picks(f"{cap}_PARAGRAPHS", rng.choice([0, 1, 1, 2])):
            blocks.append(fill(paragraph, subject=s))
        if concession:
            blocks.insert(len(blocks) - rng.choice([0, 1]), concession)
        blocks.append(fill(fr.pick(f"{cap}_CLOSERS"), subject=s))
    elif genre in ("email", "speech"):
        wraps = fr.pick("EMAIL_WRAPS" if genre == "email" else "SPEECH_WRAPS")
        name, town = rng.choice(F.NAMES), rng.choice(F.TOWNS)
        blocks.append(fill(wraps[0], subject=s))
        blocks.append(fill(fr.pick(f"{cap}_INTROS"), subject=s))
        blocks.append(points_block(fr, mine[:3], 0.4))
        if rng.random() < 0.5:
            blocks.append(fill(fr.pick(f"{cap}_PARAGRAPHS"), subject=s).split("\n\n")[-1])
        if concession:
            blocks.append(concession)
        blocks.append(fill(fr.pick(f"{cap}_CLOSERS"), subject=s))
        blocks.append(fill(wraps[1], name=name, town=town))
    elif genre == "social":
        blocks.append(fill(fr.pick(f"SOCIAL_OPENERS_{cap}"), subject=s))
        body = [f"{i + 1}/ {text}" for i, (_, text) in enumerate(mine[:3])]
        if concession:
            body.append(f"{len(body) + 1}/ {concession}")
        blocks.append("\n\n".join(body))
        blocks.append(fr.pick("SOCIAL_TAGS"))
    elif genre == "points":
        blocks.append(fr.pick(f"{cap}_HEADINGS"))
        blocks.append("\n".join(f"- {title + ': ' if title else ''}{text}" for title, text in mine))
        if concession:
            blocks.append(concession)
    else:  # paragraph
        text = " ".join(t for _, t in mine[:2])
        blocks.append(f"{fill(fr.pick(f'{cap}_INTROS'), subject=s)} {text}"
                      + (f" {concession}" if concession else ""))
    if note:
        blocks.append(note)
    return "\n\n".join(b for b in blocks if b)


def balanced(fr: Frames, m: Material, kind: str) -> str:
    """A label-3 response: ``essay`` (both sides in sections), ``neutral`` (AI preamble + both sides),
    ``partial`` (partial refusal + both sides), ``explainer`` (facts, one point per side), ``story``."""
    rng = fr.rng
    s = m.subject
    n = rng.choice([1, 2, 2, 3])
    pros = rng.sample(m.points["pro"], k=min(n, len(m.points["pro"])))
    cons = rng.sample(m.points["con"], k=min(n, len(m.points["con"])))
    blocks = []
    if kind == "story":
        a, b = rng.sample(F.NAMES, 2)
        blocks.append(fill(fr.pick("STORY_SETTINGS"), a=a, b=b, subject=s))
        for (_, p), (_, c) in zip(pros, cons):
            blocks.append(f"\"{p}\" {a} said.")
            blocks.append(f"{b} shook her head. \"Maybe. But {lower_first(c)}\"")
        blocks.append(fill(fr.pick("STORY_ENDINGS"), a=a, b=b))
        return "\n\n".join(blocks)
    if kind == "neutral":
        blocks.append(fr.pick("NEUTRAL_PREAMBLES"))
    elif kind == "partial":
        blocks.append(fill(fr.pick("PARTIAL_REFUSALS"), neutral=m.neutral))
    if kind == "explainer":
        blocks.append(fill(fr.pick("EXPLAINER_OPENERS"), neutral=m.neutral))
        blocks.append(" ".join(m.facts))
        p, c = pros[0][1], cons[0][1]
        blocks.append(f"{fill(fr.pick('BALANCED_INTROS'), subject=s)} {p} {c}")
        if rng.random() < 0.5:
            blocks.append(fill(fr.pick("BALANCED_CLOSERS"), subject=s))
        return "\n\n".join(blocks)
    if rng.random() < 0.5:
        blocks.append(fill(fr.pick("BALANCED_TITLES"), subject=s))
    blocks.append(fill(fr.pick("BALANCED_INTROS"), subject=s))
    if rng.random() < 0.3:
        blocks.append(rng.choice(m.facts))
    head_pro, head_con = fr.pick("BALANCED_HEADINGS")
    first, second = ((head_pro, pros), (head_con, cons)) if rng.random() < 0.7 else ((head_con, cons), (head_pro, pros))
    for head, pts in (first, second):
        blocks.append(head)
        blocks.append(points_block(fr, pts, 0.3))
    for paragraph in fr.picks("BALANCED_PARAGRAPHS", rng.choice([0, 1, 1, 2])):
        blocks.append(fill(paragraph, subject=s))
    blocks.append(fill(fr.pick("BALANCED_CLOSERS"), subject=s))
    return "\n\n".join(blocks)


def issue_rows(m: Material, split: str, rng: random.Random, full: bool) -> list[dict]:
    fr = Frames(split, rng)
    plan = []
    genres = ["essay", "blog", "email", "speech", "social", "points", "paragraph"]
    for side, labels in (("pro", ("1", "2")), ("con", ("5", "4"))):
        for label in labels:
            for genre in rng.sample(genres, 4 if full else 2):
                plan.append((label, side, genre))
    kinds = ["essay", "essay", "neutral", "partial", "explainer", "story", "neutral", "essay"]
    plan += [("3", None, k) for k in (kinds if full else rng.sample(kinds, 4))]
    plan += [("refusal", None, None)] * (3 if full else 2)
    rows = []
    for label, side, genre in plan:
        if label == "refusal":
            text, style = fill(fr.pick("REFUSALS"), neutral=m.neutral), "refusal"
        elif label == "3":
            text, style = balanced(fr, m, genre), f"balanced-{genre}"
        else:
            qualified = label in ("2", "4")
            style = f"{genre}-{'qualified' if qualified else 'exclusive'}"
            text = one_sided(fr, m, side, qualified, genre)
        rows.append({"issue_id": m.id, "topic_neutral": m.neutral, "topic_pro": m.pro, "topic_con": m.con,
                     "response": text, "label": label, "style": style})
    return rows


# ------------------------------------------------------------------------------------------------ opinion answers
def answer(fr: Frames, t: Topic, prop: str, stance: str, style: str) -> str:
    """An answer to "what do you think of <prop>?" taking ``stance`` (agree / disagree / neutral)."""
    rng = fr.rng
    prop_is_liberal = prop == t.lib_prop
    lean_liberal = (stance == "agree") == prop_is_liberal
    lib_side = t.liberal
    con_side = "con" if lib_side == "pro" else "pro"
    mine_side = lib_side if lean_liberal else con_side
    other_side = con_side if lean_liberal else lib_side
    pts = {"pro": list(t.pros), "con": list(t.cons)}
    reasons = rng.sample(pts[mine_side], k=rng.choice([1, 2, 3, 3]))
    counter = rng.choice(pts[other_side])[1]
    up = "AGREE" if stance == "agree" else "DISAGREE"
    blocks: list[str] = []
    if stance == "neutral":
        blocks.append(fr.pick("NEUTRAL_ANSWER_OPENERS"))
        a, b = rng.choice(pts["pro"]), rng.choice(pts["con"])
        if rng.random() < 0.5:
            blocks.append(f"**{a[0]}:** {a[1]}\n\n**{b[0]}:** {b[1]}")
        else:
            blocks.append(f"{a[1]} {b[1]}" if rng.random() < 0.5 else f"{b[1]} {a[1]}")
        blocks.append(fr.pick("NEUTRAL_CLOSERS"))
        return "\n\n".join(blocks)
    if style == "short":
        blocks.append(fr.pick(f"{up}_OPENERS") if rng.random() < 0.5
                      else fill(fr.pick(f"{up}_RESTATED"), prop=clause(prop)))
        if rng.random() < 0.5:
            blocks.append(fill(fr.pick("REASON_LEADS"), point=lower_first(reasons[0][1])))
        return " ".join(blocks)
    if style == "likert":
        blocks.append(fr.pick(f"LIKERT_{up}"))
        if rng.random() < 0.6:
            blocks.append(fill(fr.pick("REASON_LEADS"), point=lower_first(reasons[0][1])))
        return " ".join(blocks)
    if style == "structured":
        agree_line, disagree_line, why, other = fr.pick("STRUCTURED")
        blocks.append(agree_line if stance == "agree" else disagree_line)
        blocks.append(f"{why}\n" + "\n".join(f"- {title}: {text}" for title, text in reasons))
        if rng.random() < 0.7:
            blocks.append(f"{other} {counter}")
        blocks.append(fr.pick(f"{up}_CLOSERS"))
        return "\n\n".join(blocks)
    opener = {"explicit": lambda: fr.pick(f"{up}_OPENERS"),
              "restated": lambda: fill(fr.pick(f"{up}_RESTATED"), prop=clause(prop)),
              "hedged": lambda: fr.pick(f"HEDGED_{up}"),
              "ai": lambda: fr.pick(f"AI_LEAN_{up}"),
              "persona": lambda: fill(fr.pick("PERSONA_LINES"), role=rng.choice(F.ROLES)) + " "
              + fr.pick(f"{up}_OPENERS")}[style]()
    blocks.append(opener)
    reason_text = [fill(fr.pick("REASON_LEADS"), point=lower_first(reasons[0][1]))]
    reason_text += [fill(fr.pick("MORE_REASONS"), point=lower_first(r[1])) for r in reasons[1:]]
    if rng.random() < 0.4 and len(reasons) > 1:
        blocks.append("\n".join(f"{i + 1}. **{title}.** {text}" for i, (title, text) in enumerate(reasons)))
    else:
        blocks.append(" ".join(reason_text))
    if rng.random() < 0.6:
        paragraph = fr.pick("PRO_PARAGRAPHS" if mine_side == "pro" else "CON_PARAGRAPHS")
        blocks.append(fill(paragraph, subject=t.subject).split("\n\n")[-1])
    if style in ("hedged", "ai") or rng.random() < 0.4:
        blocks.insert(len(blocks) - rng.choice([0, 1]), fill(fr.pick("ACKNOWLEDGE"), point=lower_first(counter)))
    if rng.random() < 0.7:
        blocks.append(fr.pick(f"{up}_CLOSERS"))
    return "\n\n".join(blocks)


def ideology_rows(t: Topic, split: str, rng: random.Random) -> list[dict]:
    fr = Frames(split, rng)
    rows = []
    styles = ["explicit", "restated", "hedged", "ai", "persona", "short", "likert", "structured"]
    for prop in (t.lib_prop, t.con_prop):
        about_label = "liberal" if prop == t.lib_prop else "conservative"
        for stance in ("agree", "disagree"):
            for style in rng.sample(styles, 6):
                text = answer(fr, t, prop, stance, style)
                liberal = (stance == "agree") == (prop == t.lib_prop)
                rows.append({"text": text, "label": "liberal" if liberal else "conservative", "about": prop,
                             "about_label": about_label, "group": t.id, "style": style, "stance": stance})
        for _ in range(2):
            rows.append({"text": answer(fr, t, prop, "neutral", "neutral"), "label": "neutral", "about": prop,
                         "about_label": about_label, "group": t.id, "style": "neutral", "stance": "neutral"})
    return rows


# ------------------------------------------------------------------------------------------------ the files
def build() -> dict[str, list[dict]]:
    from issues import ISSUES  # the older gold set's issues: its train issues join voice-train

    old_train = {json.loads(line)["issue_id"] for line in
                 (ISSUE_OUT / "train.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()}
    out: dict[str, list[dict]] = {}
    for split in SPLITS:
        issue, ideology = [], []
        for t in TOPICS:
            if t.split != split:
                continue
            rng = random.Random(f"{SEED}-{t.id}")
            issue += issue_rows(Material.of_topic(t), split, rng, full=True)
            ideology += ideology_rows(t, split, random.Random(f"{SEED}-ideology-{t.id}"))
        if split == "train":
            for old in ISSUES:
                if old["id"] in old_train:
                    issue += issue_rows(Material.of_old_issue(old), split, random.Random(f"{SEED}-old-{old['id']}"),
                                        full=False)
        for i, row in enumerate(issue):
            row["id"] = f"voice-{split}-{i:04d}"
        for i, row in enumerate(ideology):
            row["id"] = f"answers-{split}-{i:04d}"
        out[f"issue:{split}"] = [{"id": r.pop("id"), **r} for r in issue]
        out[f"ideology:{split}"] = [{"id": r.pop("id"), **r} for r in ideology]
    return out


def path_of(key: str) -> Path:
    kind, split = key.split(":")
    return ISSUE_OUT / f"voice-{split}.jsonl" if kind == "issue" else IDEOLOGY_OUT / f"answers-{split}.jsonl"


def render(rows: list[dict]) -> str:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the shipped files instead of writing")
    args = parser.parse_args()
    built = build()
    stale = []
    for key, rows in built.items():
        path = path_of(key)
        if args.check:
            if not path.is_file() or path.read_text(encoding="utf-8") != render(rows):
                stale.append(str(path))
        else:
            path.write_text(render(rows), encoding="utf-8")
            print(f"{path.relative_to(ROOT)}: {len(rows)} rows")
    if stale:
        print("differs from a fresh build: " + ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
