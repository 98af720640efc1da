"""Give every phrase pool's items to one split (train, dev or test), so that no wording crosses splits.

The written rows of the gold set are assembled from shared pools (stance phrases, hedges, refusals, echo frames,
marker pairs ...). Gold v4 splits the *pools* as well as the statements: a row of a test statement draws only from
the test part of each pool. Items that share wording must go to the same split even when they sit in different
pools ("I agree that {s}." in the marker pairs and "I agree that {s}. {P}" among the single markers share the
frame "i agree that {s}"), so items are first joined by shared keys (the sentences and statement frames of
:mod:`wording`, computed on the template with its placeholders normalised), and whole groups are dealt out.
Keys already taken by the real SmolLM2 answers of a split (``pins``) send their groups to that split.

Deterministic: pools are dealt in the order given, each shuffled with a seed derived from its name.
"""
from __future__ import annotations

import hashlib
import random
import re
from typing import Mapping, Sequence

import wording

SPLITS = ("train", "dev", "test")
STATEMENT_SLOTS = re.compile(r"\{[sSro]\}")
ARGUMENT_SLOTS = re.compile(r"\{(?:p|P|c|C|x)\}")
LEAN_SLOTS = re.compile(r"\{(?:lean|a_lean|side)\}")


def template_keys(item: str | tuple) -> set[str]:
    """Sentence and frame keys of a template (or of each template of a tuple, e.g. a marker pair)."""
    keys: set[str] = set()
    for text in (item if isinstance(item, tuple) else (item,)):
        skel = wording.normalise(ARGUMENT_SLOTS.sub("{x}", STATEMENT_SLOTS.sub("{s}", text)))
        skel = wording.DIGITS.sub("#", LEAN_SLOTS.sub("lean", skel))
        keys |= {"sentence:" + s for s in wording.sentences(skel)} | {"frame:" + f for f in wording.frames(skel)}
        if not STATEMENT_SLOTS.search(text) and not ARGUMENT_SLOTS.search(text) and skel:
            keys.add("response:" + re.sub(r"\s+", " ", skel))
    return keys


class Partition:
    """``part(pool, split)``: the items of ``pool`` (a list given to the constructor) that ``split`` may use."""

    def __init__(self, pools: Mapping[str, Sequence], shares: Mapping[str, float], seed: int,
                 pins: Mapping[str, str] = {}, minimum: int = 1):
        self.names = {id(pool): name for name, pool in pools.items()}
        self.parts: dict[str, dict[str, list]] = {}
        parent: dict[str, str] = {}

        def find(k: str) -> str:
            while parent.setdefault(k, k) != k:
                parent[k] = parent[parent[k]]
                k = parent[k]
            return k

        item_keys = {(name, i): template_keys(item) | {f"item:{name}:{i}"}
                     for name, pool in pools.items() for i, item in enumerate(pool)}
        for keys in item_keys.values():  # items sharing a key are one group
            first = find(next(iter(sorted(keys))))
            for k in keys:
                parent[find(k)] = first
        owner: dict[str, str] = {}
        for key, split in pins.items():  # keys the real answers of a split already use
            root = find(key)
            if owner.setdefault(root, split) != split:
                raise ValueError(f"pinned key {key!r} is claimed by two splits")
        for name, pool in pools.items():
            rng = random.Random(int(hashlib.sha256(f"{seed}:{name}".encode()).hexdigest()[:12], 16))
            order = list(range(len(pool)))
            rng.shuffle(order)
            parts: dict[str, list] = {split: [] for split in SPLITS}
            if all(not wording.sentences(wording.normalise(str(pool[i]))) and not template_keys(pool[i])
                   for i in order):
                self.parts[name] = {split: list(pool) for split in SPLITS}  # no wording at all (e.g. "")
                continue
            for i in order:
                item = pool[i]
                if not template_keys(item):  # an empty lead-in or tail carries no wording: every split may use it
                    for split in SPLITS:
                        parts[split].append(item)
                    continue
                root = find(next(iter(sorted(item_keys[(name, i)]))))
                if root not in owner:
                    worded = {s: sum(1 for x in parts[s] if template_keys(x)) for s in SPLITS}
                    total = sum(worded.values()) + 1
                    owner[root] = max(SPLITS, key=lambda s: (shares[s] * total - worded[s], -SPLITS.index(s)))
                parts[owner[root]].append(item)
            short = [s for s in SPLITS if sum(1 for x in parts[s] if template_keys(x)) < minimum]
            if short:
                raise ValueError(f"pool {name}: split(s) {', '.join(short)} get fewer than {minimum} worded items; "
                                 f"write more")
            self.parts[name] = parts

    def part(self, pool: Sequence, split: str) -> list:
        return self.parts[self.names[id(pool)]][split]

    def counts(self) -> dict[str, dict[str, int]]:
        return {name: {s: len(p) for s, p in parts.items()} for name, parts in self.parts.items()}
