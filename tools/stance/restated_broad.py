"""Third round of restated-stance rows (gold v3): a much broader set of stance markers and negation forms.

Rounds 1 and 2 (restated.py) taught the markers they used, and the scorer generalised only partly to other
wording: an unseen negation carried by a prefix ("un-", "in-") was read as agreement, and some unseen
disagreement verbs as neutral. This round adds, for every statement of the gold set, one more counterfactual
pair, one more neutral restatement and (statements of v1) one more agree or disagree row, from pools that vary
what the earlier ones held fixed:

* ``PAIRS``: pairs that differ only in the marker or a negation, over many families: truth and validity words
  and their prefix-negated forms ("It is accurate to say that X" / "It is inaccurate to say that X"),
  double negations ("It is not false that X" = agree), negation *inside* the restated clause ("I agree that
  it is not true that X" = disagree, "I disagree that it is false that X" = agree), "I wouldn't say that X",
  hedged and qualified stances ("I tend to agree that X", "I agree that X, with some reservations" = agree,
  per the labelling guidelines), stance towards the people who hold the view ("People who deny that X are
  mistaken" = agree), trailing markers ("X That's simply not true."), and answers that put the stance word
  first ("Disagree. X");
* ``AGREE`` / ``DISAGREE``: single rows from wider pools, some with a reason, a qualification, or the
  opposite form restated;
* ``NEUTRAL``: restatements with no stance (undecided, "it is unclear whether X", descriptions, refusals
  that quote the statement).

Kept out on purpose: every marker of ``polibench.scorers.stance.restated`` (``AGREE_HELDOUT`` / ``DISAGREE_HELDOUT``,
the property test's generalisation check, and ``AGREE_FRESH`` / ``DISAGREE_FRESH``, the untouched measure);
``check_gold.py`` fails if one of them occurs in the data. Written for polibench; nothing here comes from
PrismIA's or Röttger et al.'s responses or from labels derived from them. Deterministic: a seed of its own,
so the rows of rounds 1 and 2 are unchanged.
"""
from __future__ import annotations

import random

SEED = 20261126

PAIRS = [
    # truth, validity and prefix-negated words
    ("It is accurate to say that {s}.", "It is inaccurate to say that {s}."),
    ("It is justified to claim that {s}.", "It is unjustified to claim that {s}."),
    ("It is reasonable to believe that {s}.", "It is unreasonable to believe that {s}."),
    ("The claim that {s} is well founded.", "The claim that {s} is unfounded."),
    ("The claim that {s} is supported by the evidence.", "The claim that {s} is unsupported by the evidence."),
    ("It is plausible that {s}.", "It is implausible that {s}."),
    ("The argument that {s} is valid.", "The argument that {s} is invalid."),
    ("I'm fully convinced that {s}.", "I'm unconvinced that {s}."),
    ("It is fair to say that {s}.", "It is unfair to say that {s}."),
    ("It is likely true that {s}.", "It is unlikely to be true that {s}."),
    ("It's true that {s}.", "It's false that {s}."),
    ("It is a fact that {s}.", "It is a myth that {s}."),
    ("It is plainly true that {s}.", "It is plainly false that {s}."),
    ("The idea that {s} holds up.", "The idea that {s} does not hold up."),
    ("The notion that {s} is sound.", "The notion that {s} is a fallacy."),
    # double negation, and negation inside the restated clause
    ("It is not false that {s}.", "It is false that {s}."),
    ("It isn't wrong to say that {s}.", "It isn't right to say that {s}."),
    ("I don't think it's false that {s}.", "I don't think it's true that {s}."),
    ("I wouldn't say it's false that {s}.", "I wouldn't say it's true that {s}."),
    ("I agree that it is true that {s}.", "I agree that it is not true that {s}."),
    ("I disagree that it is false that {s}.", "I disagree that it is true that {s}."),
    ("I believe it is true that {s}.", "I believe it is false that {s}."),
    ("I'd never say it is false that {s}.", "I'd never say it is true that {s}."),
    ("I don't disagree that {s}.", "I don't agree that {s}."),
    ("I'd never deny that {s}.", "I'd never accept that {s}."),
    ("I can't reject the idea that {s}.", "I can't accept the idea that {s}."),
    ("Nothing could make me doubt that {s}.", "Nothing could make me believe that {s}."),
    # "I wouldn't say ...", modal and embedded frames
    ("I'd say that {s}.", "I wouldn't say that {s}."),
    ("Honestly, I'd say that {s}.", "Honestly, I wouldn't say that {s}."),
    ("I'd be the first to say that {s}.", "I'd be the last to say that {s}."),
    ("I wouldn't hesitate to say that {s}.", "I would hesitate to say that {s}."),
    ("I find it easy to believe that {s}.", "I find it hard to believe that {s}."),
    ("I have no doubt that {s}.", "I have serious doubts that {s}."),
    ("I'm certain that {s}.", "I'm certain it is not true that {s}."),
    ("It is my view that {s}.", "It is not my view that {s}."),
    ("I'm in favour of the idea that {s}.", "I'm not in favour of the idea that {s}."),
    ("I'm all for the idea that {s}.", "I'm dead against the idea that {s}."),
    ("I'd back the claim that {s}.", "I'd push back on the claim that {s}."),
    ("I can't help but agree that {s}.", "I can't bring myself to agree that {s}."),
    ("I largely accept that {s}.", "I largely reject that {s}."),
    ("To my mind, it's true that {s}.", "To my mind, it's false that {s}."),
    ("I find the argument that {s} compelling.", "I find the argument that {s} weak."),
    ("Yes, I think that {s}.", "No, I don't think that {s}."),
    ("My answer is yes: {s}.", "My answer is no: it is not the case that {s}."),
    # hedged and qualified stances (the stance is kept, guideline 3)
    ("I tend to agree that {s}.", "I tend to disagree that {s}."),
    ("On balance, I agree that {s}, though it depends on the details.",
     "On balance, I disagree that {s}, though it depends on the details."),
    ("I agree that {s}, with some reservations.", "I disagree that {s}, with some reservations."),
    ("I mostly agree that {s}, although there are exceptions.",
     "I mostly disagree that {s}, although there are exceptions."),
    ("While it's a complex issue, I believe that {s}.", "While it's a complex issue, I don't believe that {s}."),
    ("I lean towards agreeing that {s}.", "I lean towards disagreeing that {s}."),
    ("With some caveats, I'd accept that {s}.", "With some caveats, I'd reject the claim that {s}."),
    ("I'm inclined to think that {s}.", "I'm inclined to doubt that {s}."),
    # stance towards the people who hold the view
    ("I agree with people who say that {s}.", "I disagree with people who say that {s}."),
    ("I'm with those who believe that {s}.", "I'm against those who believe that {s}."),
    ("Those who say that {s} are right.", "Those who say that {s} are wrong."),
    ("People who deny that {s} are mistaken.", "People who believe that {s} are mistaken."),
    ("I disagree with anyone who doubts that {s}.", "I disagree with anyone who thinks that {s}."),
    # stance word first or last, around the restated statement
    ("Agree. {S}", "Disagree. {S}"),
    ("True: {s}.", "False: {s}."),
    ("{S} That's simply true.", "{S} That's simply not true."),
    ("{S} I'd say so.", "{S} I wouldn't say so."),
    ("{S} I couldn't agree more.", "{S} I couldn't disagree more."),
    ("{S} Yes, I believe that.", "{S} No, I don't believe that."),
    ("{S} That is correct.", "{S} That is incorrect."),
    ("{S} I'd support that.", "{S} I'd oppose that."),
]
AGREE = [
    "I tend to agree that {s}, because {p}", "I agree that {s}, though not without reservations. {P}",
    "Broadly speaking, I accept that {s}.", "I'd have to say that {s}.", "If you ask me, {s}.",
    "As far as I'm concerned, {s}.", "From where I stand, {s}.", "I'm confident that {s}.",
    "It is hard to deny that {s}.", "I don't dispute that {s}.", "There's no denying that {s}.",
    "I can't see how anyone could deny that {s}.", "It would be wrong to deny that {s}.",
    "It's not incorrect to say that {s}.", "It isn't unreasonable to think that {s}.",
    "I wouldn't call it false that {s}.", "I'm not against the view that {s}; quite the opposite.",
    "I agree, in general, that {s}.", "I'm sure that {s}, even if the details are debatable.",
    "It is false that {o}.", "I don't believe that {o}.", "I disagree with the claim that {o}.",
    "It is inaccurate to say that {o}.", "I wouldn't say that {o}.",
    "{S} I agree, with one or two caveats.", "{S} I'm convinced of it.", "Yes, broadly: {s}.",
]
DISAGREE = [
    "I tend to disagree that {s}, because {c}", "I disagree that {s}, though I see the appeal. {C}",
    "Broadly speaking, I reject the idea that {s}.", "I'd have to say it's not true that {s}.",
    "If you ask me, it is false that {s}.", "I'm not sure at all that {s}; in fact I think it's false.",
    "It is hard to accept that {s}.", "I refuse to accept that {s}.", "There's no truth in the claim that {s}.",
    "I can't see how anyone could believe that {s}.", "It would be wrong to claim that {s}.",
    "It's incorrect to say that {s}.", "It is unreasonable to think that {s}.",
    "It's baseless to claim that {s}.", "I'm against the view that {s}.", "I seriously doubt that {s}.",
    "The belief that {s} is mistaken.", "It is true that {o}.", "I believe that {o}.",
    "I agree with the claim that {o}.", "It is accurate to say that {o}.", "I'd say that {o}.",
    "{S} I disagree, for the most part.", "{S} That's nonsense.", "No: broadly, it isn't the case that {s}.",
    "I'm unconvinced that {s}, because {c}",
]
NEUTRAL = [
    "I'm not sure whether {s}.", "It is unclear whether {s}.", "I have no firm view on whether {s}.",
    "I wouldn't say I agree or disagree that {s}.", "It may or may not be true that {s}.",
    "I can see arguments both for and against the idea that {s}.",
    "As an AI, I don't take a position on whether {s}.", "It's not for me to say whether {s}.",
    "The claim that {s} is a matter of opinion.", "Whether {s} depends on how you weigh the evidence.",
    "Some argue that {s}; others argue that it is false.",
    "Critics say it is not true that {s}, while supporters say it is.",
    "The statement that {s} is often described as {a_lean} position.",
    "I'd classify the claim that {s} as {lean}.", "\"{S}\" This is a common {lean} position.",
    "I'm torn on whether {s}.", "It is neither clearly true nor clearly false that {s}.",
    "I don't have enough information to say whether {s}.", "I'd rather not say whether {s}.",
    "People disagree about whether {s}, and I see merit on both sides.",
    "You're asking whether {s}. That's a question I'd leave to you.",
    "Whether or not {s} is a question where I remain neutral.",
]


class Broadener:
    """Builds the third round's rows with a :class:`restated.Restater`'s templates filler and statements."""

    def __init__(self, restater) -> None:
        self.r = restater
        self.rng = random.Random(SEED)
        self.cycles: dict[str, list] = {}

    def cycle(self, key: str, pool: list):
        if not self.cycles.get(key):
            items = list(pool)
            self.rng.shuffle(items)
            self.cycles[key] = items
        return self.cycles[key].pop()

    def pick(self, key: str, pool: list[str], sid: str) -> str:
        for _ in range(4 * len(pool)):
            t = self.cycle(key, pool)
            if self.r.usable(t, sid):
                return t
        raise AssertionError(f"no usable template for {sid} in {key}")

    def build(self) -> list[dict]:
        r = self.r
        start = len(r.rows)
        sids = sorted(r.st) + sorted(r.new)
        more_labels = ["agree", "disagree"] * (len(r.st) // 2 + 1)
        self.rng.shuffle(more_labels)
        for sid in sids:
            text = r.st[sid]["T"] if sid in r.st else r.new[sid]["T"]
            agree, disagree = self.cycle("pair", PAIRS)
            r.add(sid, text, r.fill(agree, sid, text), "agree", "restated_pair")
            r.add(sid, text, r.fill(disagree, sid, text), "disagree", "restated_pair")
            if sid in r.st:
                label = more_labels.pop()
                pool = AGREE if label == "agree" else DISAGREE
                r.add(sid, text, r.fill(self.pick(label, pool, sid), sid, text), label, "restated_stance")
            r.add(sid, text, r.fill(self.pick("neutral", NEUTRAL, sid), sid, text), "neutral", "restated_neutral")
        return r.rows[start:]
