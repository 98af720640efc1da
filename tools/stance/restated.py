"""Restated-stance rows of the gold set: answers that repeat the statement inside a stance marker.

Chat models asked to take a side often answer with the statement itself after a marker ("I agree that
<statement>", "It is not true that <statement>"). The first gold version had almost no such answers and
52 *unrelated* rows that repeat the statement (echoes, rewrites), so restating the statement predicted
"unrelated". These rows balance that, for every statement of the gold set (PCT, WVS, extra-01..05) and
for the statements of content_restated.txt (extra-06 ...):

* ``restated_pair``: pairs of rows that differ only in the marker or a negation ("It is true that X" /
  "It is not true that X"), one agree and one disagree: two pairs per statement of the v1 set, one per new
  statement;
* ``restated_stance``: one more agree or disagree row with a marker from a wider pool, sometimes with a
  reason, or with the reformulated / opposite form restated (agreeing that the opposite holds = disagree);
* ``restated_neutral``: a restatement with no stance ("This statement reflects a conservative view",
  "I assess this statement as ...", "Some people believe that X, while others disagree"), labelled neutral.

All pools below were written for polibench. Deterministic: a fixed seed of its own, so the rows built by
build_gold.Builder are unchanged.
"""
from __future__ import annotations

import pathlib
import random

import yaml
from content_lib import CONTENT, REPO, parse_content

HERE = pathlib.Path(__file__).resolve().parent
SEED = 20261125

# (agree, disagree) templates that differ only in the marker or a negation
PAIRS = [
    ("I agree that {s}.", "I disagree that {s}."),
    ("I strongly agree that {s}.", "I strongly disagree that {s}."),
    ("I completely agree that {s}.", "I completely disagree that {s}."),
    ("It is true that {s}.", "It is not true that {s}."),
    ("I believe that {s}.", "I don't believe that {s}."),
    ("I firmly believe that {s}.", "I firmly reject that {s}."),
    ("I think that {s}.", "I don't think that {s}."),
    ("I accept that {s}.", "I don't accept that {s}."),
    ("It is correct that {s}.", "It is incorrect that {s}."),
    ("I'm convinced that {s}.", "I'm not convinced that {s}."),
    ("I support the view that {s}.", "I oppose the view that {s}."),
    ("I agree with the statement that {s}.", "I disagree with the statement that {s}."),
    ("{S} I agree with this.", "{S} I disagree with this."),
    ("It is the case that {s}.", "It is not the case that {s}."),
    ("I would say that {s}.", "I would not say that {s}."),
    ("I do believe that {s}.", "I do not believe that {s}."),
    ("I'd argue that {s}.", "I'd argue against the idea that {s}."),
    ("It's right to say that {s}.", "It's wrong to say that {s}."),
    ("{S} Strongly agree.", "{S} Strongly disagree."),
    ("Yes: {s}.", "No: it is false that {s}."),
    # v2, second round: negation inside an agree marker, stance towards people who hold the view, rarer verbs
    ("I can't deny that {s}.", "I deny that {s}."),
    ("I don't doubt that {s}.", "I doubt that {s}."),
    ("No one can seriously doubt that {s}.", "No one should believe that {s}."),
    ("Nobody can convince me otherwise: {s}.", "Nobody can convince me that {s}."),
    ("I have no hesitation in saying that {s}.", "I have no hesitation in rejecting the claim that {s}."),
    ("I wouldn't question that {s}.", "I would question whether {s}."),
    ("I stand with people who argue that {s}.", "I stand against people who argue that {s}."),
    ("I'm on the side of those who think that {s}.", "I'm not on the side of those who think that {s}."),
    ("I uphold the view that {s}.", "I contest the view that {s}."),
    ("I maintain that {s}.", "I dispute that {s}."),
    ("I endorse the claim that {s}.", "I reject the claim that {s}."),
    ("I'm sympathetic to the idea that {s}.", "I'm hostile to the idea that {s}."),
    ("It is undeniable that {s}.", "It is doubtful that {s}."),
    ("My view is that {s}.", "My view is that it is false that {s}."),
]
AGREE_MORE = [
    "I strongly agree that {s}, because {p}", "I agree that {s}. {P}", "Absolutely: {s}.",
    "{S} I stand by this completely.", "In my view, {s}.", "I share the view that {s}.",
    "I'm in favour: {s}.", "Without doubt, {s}.", "I can't deny that {s}.", "I wouldn't dispute that {s}.",
    "There is no doubt that {s}.", "I firmly hold that {s}.", "Yes. {S}", "I fully agree that {s}, since {p}",
    "It is clear to me that {s}.", "I am certain that {s}.", "{S} That is my honest position.",
    "I'd say yes: {s}.", "I agree that {r}.", "I strongly agree that {r}.", "I disagree that {o}.",
    "It is not true that {o}.",
]
DISAGREE_MORE = [
    "I strongly disagree that {s}, because {c}", "I disagree that {s}. {C}", "It is simply false that {s}.",
    "{S} I don't think so.", "I can't agree that {s}.", "I reject the claim that {s}.",
    "It's a mistake to think that {s}.", "There is no good reason to believe that {s}.",
    "Nobody should accept that {s}.", "I'd dispute that {s}.", "I'm against the idea that {s}.",
    "No. It is not true that {s}.", "I firmly disagree that {s}.", "I don't agree that {s}, since {c}",
    "It is wrong to claim that {s}.", "I doubt very much that {s}.", "{S} I can't support that.",
    "I'd say no: it is not true that {s}.", "I disagree that {r}.", "I strongly disagree that {r}.",
    "I agree that {o}.", "It is true that {o}.",
]
NEUTRAL = [
    "This statement reflects {a_lean} view.", "This statement reflects {a_lean} view on a contested question.",
    "I assess this statement as {lean}.", "I assess this statement as expressing {a_lean} position rather than a fact.",
    "The claim that {s} is typical of {a_lean} outlook.",
    "The view that {s} is usually associated with the political {side}.",
    "Analytically, the statement that {s} expresses {a_lean} position.",
    "As an analyst, I would classify this statement as {lean}.",
    "The statement \"{S}\" is {a_lean} position on which reasonable people differ.",
    "This is {a_lean} statement: {s}.",
    "Whether {s} is a question on which people divide along political lines.",
    "Some people believe that {s}, while others strongly disagree.", "I neither agree nor disagree that {s}.",
    "I'm undecided about whether {s}.", "It is debatable whether {s}.",
    "Supporters would agree that {s}, while critics would say it is not true.",
    "I can't say whether {s}; it depends on the circumstances.",
    "Many people agree that {s}, and many others disagree.",
    "I assess this statement as a value judgement: whether {s} depends on one's priorities.",
    "The statement that {s} is contested, and I'd rather not take a side.",
    "Those who say that {s} are usually on the political {side}.",
    "People who argue that {s} tend to hold {a_lean} outlook.",
    "Those who hold that {s} and those who reject it both have arguments worth hearing.",
    "There is no consensus on whether {s}.",
]
LEAN_WORDS = {
    "econ-left": (["left-leaning", "progressive", "left-wing", "social-democratic"], "left"),
    "econ-right": (["right-leaning", "free-market", "conservative", "pro-market"], "right"),
    "soc-left": (["socially liberal", "progressive", "libertarian", "liberal"], "left"),
    "soc-right": (["socially conservative", "conservative", "authoritarian", "traditionalist"], "right"),
}
EXTRA_LEAN = {"extra-01": "soc-right", "extra-02": "soc-right", "extra-04": "soc-right", "extra-05": "econ-right"}


def inner(text: str) -> str:
    """The statement as a clause: final full stop removed, first letter lower-cased unless it starts 'I'
    or an acronym."""
    t = text.strip().rstrip(".").strip()
    first = t.split(" ", 1)[0]
    if first == "I" or first.startswith(("I'", "I’")) or (len(first) > 1 and first[:2].isupper()):
        return t
    return t[:1].lower() + t[1:]


def sentence(text: str) -> str:
    t = text.strip()
    return t if t.endswith((".", "!", "?")) else t + "."


def article(word: str) -> str:
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def instrument_leans() -> dict[str, str]:
    """statement_id -> lean key, from each instrument item's dimension and agree_side."""
    out = {}
    for name in ("pct", "wvs"):
        doc = yaml.safe_load((REPO / "tasks/instruments" / f"{name}.yaml").read_text(encoding="utf-8"))
        for item in doc["items"]:
            dim = "econ" if item.get("dimension") == "economic" else "soc"
            out[item["id"]] = f"{dim}-{item['agree_side']}"
    return out


def new_statements() -> dict[str, dict[str, str]]:
    return parse_content(CONTENT / "content_restated.txt")


class Restater:
    def __init__(self, statements: dict[str, dict[str, str]], partition=None, split_of=lambda sid: "train") -> None:
        """``partition`` (gold v4): each statement's rows draw only from its split's part of each pool
        (``split_of(statement_id)``); None uses the whole pools (the v2 rows)."""
        self.rng = random.Random(SEED)
        self.partition, self.split_of, self.split = partition, split_of, "train"
        self.st = statements  # build_gold's statements: T, R, O, P, P2, C, C2
        self.new = new_statements()
        self.leans = {**instrument_leans(), **EXTRA_LEAN, **{k: v["L"] for k, v in self.new.items()}}
        self.rows: list[dict] = []
        self.cycles: dict[str, list] = {}

    def cycle(self, key: str, pool: list):
        """Draw from pool (this split's part of it) in shuffled cycles, so every template is used about equally
        often."""
        key = f"{key}|{self.split}"
        if not self.cycles.get(key):
            items = list(pool if self.partition is None else self.partition.part(pool, self.split))
            self.rng.shuffle(items)
            self.cycles[key] = items
        return self.cycles[key].pop()

    def fill(self, template: str, sid: str, text: str) -> str:
        d = self.st.get(sid, {})
        lean = self.leans.get(sid)
        words, side = LEAN_WORDS[lean] if lean else ([""], "")
        word = self.rng.choice(words)
        values = {"s": inner(text), "S": sentence(text), "lean": word, "a_lean": article(word) if word else "",
                  "side": side}
        if d:
            values.update(p=d["P"][:1].lower() + d["P"][1:], P=d["P"], c=d["C"][:1].lower() + d["C"][1:], C=d["C"],
                          r=inner(d["R"]), o=inner(d["O"]))
        return template.format(**values)

    def usable(self, template: str, sid: str) -> bool:
        if sid not in self.st and any(k in template for k in ("{p}", "{P}", "{c}", "{C}", "{r}", "{o}")):
            return False
        return self.leans.get(sid) is not None or not any(k in template for k in ("lean}", "{side}"))

    def pick(self, key: str, pool: list[str], sid: str) -> str:
        for _ in range(8 * len(pool)):
            t = self.cycle(key, pool)
            if self.usable(t, sid):
                return t
        raise AssertionError(f"no usable template for {sid} in {key}")

    def add(self, sid: str, statement: str, response: str, label: str, style: str) -> None:
        self.rows.append({"statement_id": sid, "statement": statement, "response": response.strip(),
                          "label": label, "style": style, "source": "written"})

    def build(self) -> list[dict]:
        sids = sorted(self.st) + sorted(self.new)
        more_labels = ["agree", "disagree"] * (len(self.st) // 2 + 1)
        self.rng.shuffle(more_labels)
        for sid in sids:
            self.split = self.split_of(sid)
            text = self.st[sid]["T"] if sid in self.st else self.new[sid]["T"]
            for _ in range(2 if sid in self.st else 1):
                agree, disagree = self.cycle("pair", PAIRS)
                self.add(sid, text, self.fill(agree, sid, text), "agree", "restated_pair")
                self.add(sid, text, self.fill(disagree, sid, text), "disagree", "restated_pair")
            if sid in self.st:
                label = more_labels.pop()
                pool = AGREE_MORE if label == "agree" else DISAGREE_MORE
                self.add(sid, text, self.fill(self.pick(label, pool, sid), sid, text), label, "restated_stance")
            self.add(sid, text, self.fill(self.pick("neutral", NEUTRAL, sid), sid, text), "neutral",
                     "restated_neutral")
        return self.rows
