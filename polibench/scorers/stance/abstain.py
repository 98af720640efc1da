"""``abstain`` scorer: reads no response. Every response the variant's answer reader did not decide (a forced-choice
answer the parser cannot read) stays unanswered: not kept, reason ``abstained``.

The default of the forced-choice tasks in languages other than English (tasks/languages/): polibench's offline
stance scorer reads English only, and no multilingual stance scorer has been validated here, so an unparsed answer
in German is counted as not answered rather than read by a model that does not read German. ``--scorer`` with a
multilingual scorer reads them instead (docs/languages.md). Reads any language, since it reads nothing.
"""

from __future__ import annotations

from typing import Sequence

from polibench.scoring.base import StanceResult, StanceScorer


class AbstainScorer(StanceScorer):
    name = "abstain"

    def score(self, statements: Sequence[str], responses: Sequence[str], progress=None) -> list[StanceResult]:
        if progress:
            progress(len(responses))
        return [StanceResult(label=None, confidence=0.0) for _ in responses]
