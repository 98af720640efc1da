"""Build polibench/data/ideology/{train,dev,test}.jsonl from the hand-written material in this folder.

Inputs: ``content_topics.txt`` and ``content_more.txt`` (per political topic: liberal, conservative and
neutral sentences) and ``content_general.txt`` (value sentences per side, neutral political and everyday
sentences). The texts are assembled in four styles (GPT-2-like continuations that start mid-sentence, news
sentences, social-media posts, opinion paragraphs) from these sentences and from side-free wording pools
below, with a fixed seed, so
the output is reproducible:

    python tools/ideology/build_corpus.py            # writes polibench/data/ideology/*.jsonl
    python tools/ideology/build_corpus.py --check    # rebuilds in memory and compares with the shipped files
    python tools/ideology/build_corpus.py --with-extra DIR   # an experiment's corpus: train + content_extra.txt

``content_extra.txt`` holds 55 more topics written in a third round (issue 22 §1), none of them a dev or test topic
or close to one. They are NOT in the shipped files: added to the train split they did not clearly raise the
default recipe's dev accuracy (docs/generation-bias.md, ``benchmarks/bench_ideology_judge.py --data-curve``), and
any change to train.jsonl changes the default judge. ``--with-extra`` (or ``build(with_extra=True)``) appends them to
train only, after every other text and from their own random stream, so dev, test and the older train texts
(ids included) are byte for byte the shipped ones.

Topics are split into train / dev / test (about 60 / 20 / 20 %), so test topics are unseen; the general
sentences are split the same way, so no sentence appears in two splits. See polibench/data/ideology/DATACARD.md.
"""
from __future__ import annotations

import argparse
import collections
import json
import pathlib
import random
import re
import sys

HERE = pathlib.Path(__file__).resolve().parent
OUT = HERE.parent.parent / "polibench" / "data" / "ideology"
SEED = 20261125
SPLITS = ("train", "dev", "test")
SIDES = {"L": "liberal", "C": "conservative"}

# Liu et al.'s gender names (liu2022.json) and others; all 50 states; used independently of the label.
NAMES = ["Jake", "Connor", "Tanner", "Wyatt", "Cody", "Dustin", "Luke", "Jack", "Scott", "Logan", "Cole", "Lucas",
         "Bradley", "Jacob", "Malik", "Willie", "Jamal", "Heather", "Diamond", "Molly", "Amy", "Claire", "Emily",
         "Katie", "Katherine", "Emma", "Carly", "Jenna", "Holly", "Allison", "Hannah", "Kathryn", "Asia", "Raven",
         "Maria", "Jose", "Wei", "Priya", "Ahmed", "Rosa", "Daniel", "Linda", "Marcus", "Grace", "Tom", "Denise"]
SURNAMES = ["Miller", "Johnson", "Garcia", "Nguyen", "Brooks", "Patel", "Walker", "Reyes", "Carter", "Olsen",
            "Hughes", "Kim", "Washington", "Sullivan", "Ramirez", "Foster", "Baker", "Coleman", "Ward", "Schmidt"]
STATES = ["Alabama", "Alaska", "Arizona", "Arkansas", "California", "Colorado", "Connecticut", "Delaware", "Florida",
          "Georgia", "Hawaii", "Idaho", "Illinois", "Indiana", "Iowa", "Kansas", "Kentucky", "Louisiana", "Maine",
          "Maryland", "Massachusetts", "Michigan", "Minnesota", "Mississippi", "Missouri", "Montana", "Nebraska",
          "Nevada", "New Hampshire", "New Jersey", "New Mexico", "New York", "North Carolina", "North Dakota", "Ohio",
          "Oklahoma", "Oregon", "Pennsylvania", "Rhode Island", "South Carolina", "South Dakota", "Tennessee",
          "Texas", "Utah", "Vermont", "Virginia", "Washington", "West Virginia", "Wisconsin", "Wyoming"]
JOBS = ["nurse", "teacher", "retired mechanic", "small business owner", "truck driver", "pastor", "student",
        "software engineer", "farmer", "veteran", "social worker", "accountant", "electrician", "restaurant owner",
        "paramedic", "librarian", "construction worker", "real estate agent", "mother of three", "retiree"]
DAYS = ["on Monday", "on Tuesday", "on Wednesday", "on Thursday", "on Friday", "over the weekend", "this week",
        "late on Thursday", "in a statement", "in an interview", "at a town hall meeting", "during a hearing"]

# Side-free wording (the same pools wrap liberal, conservative and neutral sentences alike).
CONT_LEADS = ["", "", "", "that ", "because ", "clear that ", "true that ", "and the thing is, ", "simple: ",
              "about time someone said it: ", "not complicated. ", "the same point again, that ", "obvious to me that ",
              "going to say it plainly. ", "just a fact that ", "what I keep telling people: ", "like this: ",
              "{name} told me that ", "people in {state} have known for years that ", "my neighbor {name} says ",
              "the folks back in {state} will tell you that ", "{name} thinks ", "a reminder that ",
              "something {name} wrote about last week. ", "why I keep saying that ", "in the end, "]
SOCIAL_PREFIX = ["", "", "", "Unpopular opinion: ", "Reminder: ", "Hot take: ", "Say it with me: ", "Honestly? ",
                 "Friendly reminder that ", "Can we talk about this? ", "PSA: ", "Thread. ", "Okay so ",
                 "@{handle} exactly. ", "@{handle} ", "Every single time. "]
SOCIAL_TAIL = ["", "", "Just saying.", "Not complicated.", "Change my mind.", "Thoughts?", "Period.",
               "Retweet if you agree.", "This should not be controversial.", "Facts.", "Read that again.",
               "Wake up, people.", "Vote accordingly.", "Tell me I'm wrong.", "100%", "Signed, a {job} from {state}."]
GENERIC_TAGS = ["#politics", "#news", "#vote", "#election", "#policy", "#usa", "#debate"]
NEWS_SUBJECTS = ["The senator", "A spokeswoman for the campaign", "The group's executive director", "The governor",
                 "The congressman from {state}", "Advocates", "Several residents", "The candidate",
                 "A coalition of local leaders", "The state attorney general",
                 "{name} {surname}, a {job} from {state},",
                 "The mayor", "A spokesman for the organization", "Organizers of the march", "The think tank's report"]
NEWS_VERBS = ["said {day} that ", "argued {day} that ", "told reporters {day} that ", "wrote {day} that ",
              "insisted {day} that ", "said "]
QUOTE_TAILS = ['said {name} {surname}, a {job} from {state}.', 'said {name} {surname}, who lives in {state}.',
               '{name} {surname} told the crowd in {state} {day}.', 'a {job} in {state} said.',
               'said a {job} who asked not to be named.']
OPINION_OPEN = ["I have been thinking about {kw} a lot lately.", "Let me say plainly what I believe about {kw}.",
                "As a {job} in {state}, I see the effects of this every day.", "People keep asking me about {kw}.",
                "My family argues about {kw} every Thanksgiving, so here is where I stand.",
                "I want to talk about {kw}.", "There is a lot of noise about {kw} right now.", "",
                "I grew up in {state}, and {kw} was never an abstract question for us.", "Here is my view on {kw}."]
OPINION_CLOSE = ["That is where I stand.", "It is time for Congress to act.", "We can do better than this.",
                 "Call your representatives.", "I do not see how anyone can argue otherwise.", "", "",
                 "Think about that before you vote.", "It really is that simple.", "That is the whole point.",
                 "The rest is just politics."]
NEUTRAL_FRAMES = ["According to {source}, {s}", "{s}", "{s}", "Background: {s}", "For context, {s}",
                  "Reporters were told {day} that {s}", "As of this year, {s}"]
SOURCES = ["official figures", "the agency", "a report released this week", "public records",
           "the Congressional Research Service", "the state's website", "the committee"]
BALANCED = ["Supporters say {a} Critics respond that {b}", "The debate over {kw} divides voters. Some argue that {a} "
            "Others say that {b}", "On {kw}, {name} and her brother disagree: she thinks {a} He thinks {b}",
            "Both sides made their case {day}. One side said {a} The other said {b}",
            "Ask ten people in {state} about {kw} and you will hear both views: that {a_} and that {b}",
            "The panel heard from both camps. One witness said {a} Another said {b}"]
PROPER: set[str] = set()  # words written capitalised inside sentences of the material (names, places, ...)


def find_proper_words(sentences: list[str]) -> set[str]:
    """Words that appear capitalised after the first word of some sentence: names, which keep their capital."""
    capitalised, lower = set(), set()
    for sentence in sentences:
        words = re.findall(r"[A-Za-z][A-Za-z'-]*", sentence)
        lower.update(w for w in words if w[0].islower())
        capitalised.update(w for w in words[1:] if w[0].isupper())
    return {w for w in capitalised if w.lower() not in lower}


def load_topics(path: pathlib.Path) -> list[dict]:
    topics, current = [], None
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("@"):
            tid, domain, keywords = (part.strip() for part in line[1:].split("|"))
            current = {"id": tid, "domain": domain, "keywords": [k.strip() for k in keywords.split(";")],
                       "L": [], "C": [], "N": []}
            topics.append(current)
            continue
        key, _, value = line.partition(":")
        if current is None or key not in ("L", "C", "N") or not value.strip():
            raise SystemExit(f"{path}: unexpected line {raw[:60]!r}")
        current[key].append(value.strip())
    return topics


def load_general(path: pathlib.Path) -> dict[str, list[str]]:
    out: dict[str, list[str]] = collections.defaultdict(list)
    section = None
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
            continue
        if section is None:
            raise SystemExit(f"{path}: text before the first [section]")
        out[section].append(line)
    return dict(out)


def lower_first(sentence: str) -> str:
    """Lower-case the first letter when the first word is a common word (not a name such as Social Security)."""
    match = re.match(r"[A-Za-z][A-Za-z'-]*", sentence)
    if match is None or match.group(0) in PROPER or match.group(0) == "I" or match.group(0).isupper():
        return sentence
    base = re.sub(r"'s$", "", match.group(0))
    return sentence if base in PROPER else sentence[0].lower() + sentence[1:]


def unstop(sentence: str) -> str:
    return sentence[:-1] if sentence.endswith(".") else sentence


class Builder:
    def __init__(self, rng: random.Random):
        self.rng = rng

    def fill(self, template: str, **extra) -> str:
        r = self.rng
        values = {"name": r.choice(NAMES), "surname": r.choice(SURNAMES), "state": r.choice(STATES),
                  "job": r.choice(JOBS), "day": r.choice(DAYS), "source": r.choice(SOURCES),
                  "handle": r.choice(NAMES).lower() + r.choice(["_", "", "."]) + r.choice(SURNAMES).lower()[:4]
                  + str(r.randint(1, 99)), **extra}
        return template.format(**values)

    def truncate(self, text: str) -> str:
        """Cut the text at a word boundary, as a 100-token continuation is cut (at least 60 % kept)."""
        words = text.split(" ")
        if len(words) < 12:
            return text
        keep = self.rng.randint(int(len(words) * 0.6), len(words) - 1)
        return " ".join(words[:keep]).rstrip(",;:")

    def continuation(self, sentences: list[str]) -> str:
        r = self.rng
        lead = self.fill(r.choice(CONT_LEADS))
        first = lower_first(sentences[0])
        text = (lead + first) if lead else first
        if lead == "" and r.random() < 0.5:
            text = r.choice(["", "and ", "but ", "so ", ", "]).lstrip(", ") + first
        for extra in sentences[1:]:
            joint = r.choice([" ", " ", "\n\n", " And ", " "])
            if joint == " And " and lower_first(extra) == extra:
                joint = " "
            text += joint + (lower_first(extra) if joint == " And " else extra)
        if r.random() < 0.45:
            text = self.truncate(text)
        return text

    def news(self, sentences: list[str]) -> str:
        r = self.rng
        claim = sentences[0]
        if r.random() < 0.5:
            subject = self.fill(r.choice(NEWS_SUBJECTS))
            text = f"{subject} {self.fill(r.choice(NEWS_VERBS))}{lower_first(claim)}"
        else:
            tail = self.fill(r.choice(QUOTE_TAILS))
            text = f'"{unstop(claim)}," {tail}'
        for extra in sentences[1:]:
            text += " " + extra
        return text

    def social(self, sentence: str, keywords: list[str], extra: str = "") -> str:
        r = self.rng
        prefix = self.fill(r.choice(SOCIAL_PREFIX))
        body = lower_first(sentence) if prefix and prefix.endswith(("that ", "so ")) else sentence
        if r.random() < 0.3:
            body = unstop(body.lower() if r.random() < 0.5 else body)
        text = prefix + body
        if extra:
            text += " " + extra
        tail = self.fill(r.choice(SOCIAL_TAIL))
        if tail:
            text += " " + tail
        if r.random() < 0.5:
            tags = ["#" + re.sub(r"[^A-Za-z0-9]", "", r.choice(keywords).title().replace("The ", ""))]
            if r.random() < 0.5:
                tags.append(r.choice(GENERIC_TAGS))
            text += " " + " ".join(tags)
        return text.strip()

    def opinion(self, sentences: list[str], keyword: str) -> str:
        r = self.rng
        parts = [self.fill(r.choice(OPINION_OPEN), kw=keyword), *sentences, self.fill(r.choice(OPINION_CLOSE))]
        return " ".join(p for p in parts if p)


def assign_splits(items: list[str], rng: random.Random) -> dict[str, str]:
    order = sorted(items)
    rng.shuffle(order)
    n = len(order)
    cut1, cut2 = round(n * 0.6), round(n * 0.8)
    return {item: ("train" if i < cut1 else "dev" if i < cut2 else "test") for i, item in enumerate(order)}


def build(with_extra: bool = False) -> dict[str, list[dict]]:
    """The three splits; with ``with_extra``, the training-only topics of content_extra.txt appended to train
    (not in the shipped files: see the module docstring)."""
    rng = random.Random(SEED)
    topics = load_topics(HERE / "content_topics.txt") + load_topics(HERE / "content_more.txt")
    general = load_general(HERE / "content_general.txt")
    extra_topics = load_topics(HERE / "content_extra.txt") if with_extra else []
    clash = {t["id"] for t in extra_topics} & {t["id"] for t in topics}
    if clash:
        raise SystemExit(f"content_extra.txt repeats topics of the split material: {sorted(clash)}")
    topic_split = assign_splits([t["id"] for t in topics], rng)
    general_split = {section: assign_splits(lines, rng) for section, lines in general.items()}
    pools = {(section, split): [s for s in lines if general_split[section][s] == split]
             for section, lines in general.items() for split in SPLITS}
    PROPER.update(find_proper_words([s for t in topics for k in "LCN" for s in t[k]]
                                    + [s for lines in general.values() for s in lines]))
    b = Builder(rng)
    rows: list[dict] = []

    def add(text: str, label: str, topic: str, domain: str, style: str, split: str) -> None:
        rows.append({"text": re.sub(r"[ ]{2,}", " ", text).strip(), "label": label, "topic": topic,
                     "domain": domain, "style": style, "split": split})

    def add_topic(topic: dict, split: str, rng: random.Random, b: Builder) -> None:
        tid, domain, kws = topic["id"], topic["domain"], topic["keywords"]
        for side, label in SIDES.items():
            own = topic[side]
            values = pools[(label, split)]
            plan = ["continuation"] * 5 + ["news"] * 3 + ["social"] * 3 + ["opinion"] * 3 if len(own) >= 3 else \
                ["continuation"] * 3 + ["news"] * 2 + ["social"] * 2 + ["opinion"] * 2
            for k, style in enumerate(plan):
                first = own[k % len(own)]
                others = [s for s in own if s != first]
                if style == "continuation":
                    extra = rng.choice([[], [rng.choice(others)], [rng.choice(values)], [rng.choice(others)]])
                    add(b.continuation([first, *extra]), label, tid, domain, style, split)
                elif style == "news":
                    extra = [rng.choice(topic["N"])] if rng.random() < 0.4 else \
                            ([rng.choice(others)] if rng.random() < 0.5 else [])
                    add(b.news([first, *extra]), label, tid, domain, style, split)
                elif style == "social":
                    extra = rng.choice(["", "", rng.choice(values)])
                    add(b.social(first, kws, extra), label, tid, domain, style, split)
                else:
                    body = [first, rng.choice(others)]
                    body.insert(rng.randint(0, 2), rng.choice(values))
                    add(b.opinion(body, rng.choice(kws)), label, tid, domain, style, split)
        facts = topic["N"]
        add(b.fill(rng.choice(NEUTRAL_FRAMES), s=lower_first(facts[0])) + " " + facts[-1], "neutral", tid, domain,
            "news", split)
        add(f'"{unstop(facts[-1])}," ' + b.fill(rng.choice(QUOTE_TAILS)), "neutral", tid, domain, "news", split)
        add(b.continuation([facts[0], rng.choice(pools[("neutral-political", split)])]), "neutral", tid, domain,
            "continuation", split)
        add(b.social(rng.choice(facts), kws), "neutral", tid, domain, "social", split)
        for _ in range(2):
            a, c = rng.choice(topic["L"]), rng.choice(topic["C"])
            if rng.random() < 0.5:
                a, c = c, a
            add(b.fill(rng.choice(BALANCED), a=lower_first(a), a_=unstop(lower_first(a)), b=lower_first(c),
                       kw=rng.choice(kws)), "neutral",
                tid, domain, "balanced", split)
    for topic in topics:
        add_topic(topic, topic_split[topic["id"]], rng, b)
    for split in SPLITS:
        political, everyday = pools[("neutral-political", split)], pools[("neutral-everyday", split)]
        for sentence in political:
            add(f"{sentence} {rng.choice(political)}" if rng.random() < 0.5 else b.continuation([sentence]),
                "neutral", "general-politics", "general", "news", split)
            add(b.social(sentence, ["politics", "election"]), "neutral", "general-politics", "general", "social",
                split)
        for sentence in everyday:
            for _ in range(3):
                other = rng.choice(everyday)
                more = [other[0].upper() + other[1:]] if rng.random() < 0.5 else []
                text = b.continuation([sentence, *more]) if rng.random() < 0.7 else \
                    b.fill("{name} said it was ") + sentence
                add(text, "neutral", "general-everyday", "general", "continuation", split)
    # Training-only topics (content_extra.txt), from their own random stream after everything else, so the
    # dev and test splits and the older train texts stay as they were.
    extra_rng = random.Random(SEED + 1)
    PROPER.update(find_proper_words([s for t in topics + extra_topics for k in "LCN" for s in t[k]]
                                    + [s for lines in general.values() for s in lines]))
    for topic in extra_topics:
        add_topic(topic, "train", extra_rng, Builder(extra_rng))
    seen: set[str] = set()
    out: dict[str, list[dict]] = {s: [] for s in SPLITS}
    for row in rows:
        if row["text"] in seen:
            continue
        seen.add(row["text"])
        out[row["split"]].append(row)
    for split, items in out.items():
        for i, row in enumerate(items, 1):
            row["id"] = f"{split}-{i:04d}"
            row["group"] = row.pop("topic")
            row.pop("split")
    return out


def serialise(rows: list[dict]) -> str:
    keys = ("id", "text", "label", "group", "domain", "style")
    return "".join(json.dumps({k: r[k] for k in keys}, ensure_ascii=False) + "\n" for r in rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the shipped files, write nothing")
    parser.add_argument("--with-extra", metavar="DIR", type=pathlib.Path,
                        help="write the splits with content_extra.txt's training-only topics added to train into DIR "
                             "(an experiment's corpus; the shipped files stay as they are)")
    args = parser.parse_args()
    data = build(with_extra=args.with_extra is not None)
    for split, rows in data.items():
        path = (args.with_extra or OUT) / f"{split}.jsonl"
        text = serialise(rows)
        if args.check:
            if not path.is_file() or path.read_text(encoding="utf-8") != text:
                print(f"{path} differs from a fresh build", file=sys.stderr)
                return 1
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        counts = collections.Counter(r["label"] for r in rows)
        print(f"{split}: {len(rows)} texts, {len({r['group'] for r in rows})} groups, {dict(sorted(counts.items()))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
