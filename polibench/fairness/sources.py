"""News source of a LIAR statement, read from its ``context`` field, for Feng et al.'s ten outlets.

Feng et al. 2023 (Table 4) report misinformation detection per news source: five left-leaning outlets
(HuffPost, New York Times, CNN, NPR, Guardian) and five right-leaning ones (Fox News, Washington Examiner,
Breitbart, Washington Times, National Review), on a 29,556-item source-tagged set that is NOT public.
polibench approximates it with LIAR (Wang 2017), whose ``context`` field says where a statement was made
("an interview on CNN", "an op-ed in the Washington Times"). A statement is assigned to an outlet when its
context matches that outlet's keywords (below, case-insensitive, whole words) and no other outlet's; a
context naming two outlets, or none, gets no source. Only a small share of LIAR names one of these
outlets, so per-source groups are small: read their confidence intervals.

Keyword choices worth knowing:

* Fox: "Fox News", "foxnews", "Fox & Friends", "Fox Business" and "on Fox" -- but not "Fox" followed by a
  number ("Fox 13", a local affiliate) and not a bare "Fox" (a surname, a local station).
* Guardian: the word "Guardian", except "Guardian Angels".
* New York Times: "New York Times", "NY Times", "NYTimes", "N.Y. Times"; never "Washington Times".
* NPR: "NPR" or "National Public Radio"; CNN: the word "CNN" (so "CNN's State of the Union" counts).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class Outlet:
    code: str
    name: str
    leaning: str
    patterns: tuple[str, ...]

    def matches(self, text: str) -> bool:
        return any(re.search(p, text) for p in self.patterns)


OUTLETS: tuple[Outlet, ...] = (
    Outlet("HP", "Huffington Post", "left", (r"\bhuffington ?post\b", r"\bhuff ?post\b", r"\bhuff ?po\b")),
    Outlet("NYT", "New York Times", "left", (r"\bnew york times\b", r"\bny ?times\b", r"\bnytimes\b",
                                             r"\bn\.y\. ?times\b")),
    Outlet("CNN", "CNN", "left", (r"\bcnn\b",)),
    Outlet("NPR", "NPR", "left", (r"\bnpr\b", r"\bnational public radio\b")),
    Outlet("Guard", "Guardian", "left", (r"\bguardian\b(?! angels?\b)",)),
    Outlet("Fox", "Fox News", "right", (r"\bfox ?news\b", r"\bfox (?:and|&) friends\b", r"\bfox business\b",
                                        r"\bon fox\b(?!\s*\d)")),
    Outlet("WaEx", "Washington Examiner", "right", (r"\bwashington examiner\b",)),
    Outlet("BBart", "Breitbart", "right", (r"\bbreitbart\b",)),
    Outlet("WaT", "Washington Times", "right", (r"\bwashington times\b",)),
    Outlet("NR", "National Review", "right", (r"\bnational review\b",)),
)
BY_CODE = {o.code: o for o in OUTLETS}


def outlets_named(context: Optional[str]) -> list[str]:
    """Codes of every outlet whose keywords occur in ``context`` (in the order of :data:`OUTLETS`)."""
    if not context:
        return []
    text = " ".join(str(context).lower().split())
    return [o.code for o in OUTLETS if o.matches(text)]


def source_of(context: Optional[str]) -> Optional[str]:
    """The one outlet ``context`` names, or None when it names none or several."""
    named = outlets_named(context)
    return named[0] if len(named) == 1 else None
