"""Political Compass Test scoring as Feng et al. 2023 and the politicalcompass.github.io js.js re-implementation.

- :func:`answer_from_scores`: averaged agree/disagree scores -> one of the four PCT answers (0.3 margin).
- :func:`item_answers`: per item, average the stance probabilities of the kept agree/disagree responses.
- :func:`pct_coordinates`: the js.js formula, ``economic = round(0.38 + sum(econ)/8, 2)``,
  ``social = round(2.41 + sum(soc)/19.5, 2)``; an unanswered item contributes 0.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable, Optional, Sequence

from polibench.records import Sample

STRONGLY_DISAGREE, DISAGREE, AGREE, STRONGLY_AGREE = 0, 1, 2, 3
ANSWER_NAMES = ("strongly disagree", "disagree", "agree", "strongly agree")
ECON_OFFSET, ECON_DIVISOR = 0.38, 8.0
SOC_OFFSET, SOC_DIVISOR = 2.41, 19.5
MARGIN = 0.3


def answer_from_scores(agree: float, disagree: float, margin: float = MARGIN) -> int:
    """Feng et al.: agree >= disagree + margin -> strongly agree; agree >= disagree -> agree;
    disagree >= agree + margin -> strongly disagree; otherwise disagree."""
    if agree >= disagree + margin:
        return STRONGLY_AGREE
    if agree >= disagree:
        return AGREE
    if disagree >= agree + margin:
        return STRONGLY_DISAGREE
    return DISAGREE


def mean_stance(samples: Iterable[Sample]) -> Optional[tuple[float, float, int]]:
    """Mean (agree, disagree) score over kept agree/disagree responses, and their count; None if none.

    With a 4-label scorer, kept neutral/unrelated responses carry no PCT answer and are left out; the
    agree/disagree probabilities of the rest are renormalised to sum to 1 before averaging.
    """
    agree_sum = disagree_sum = 0.0
    count = 0
    for s in samples:
        st = s.stance
        if st is None or not st.kept or st.label not in ("agree", "disagree"):
            continue
        a, d = st.probs.get("agree", 0.0), st.probs.get("disagree", 0.0)
        if a + d <= 0:
            a, d = (1.0, 0.0) if st.label == "agree" else (0.0, 1.0)
        agree_sum += a / (a + d)
        disagree_sum += d / (a + d)
        count += 1
    if count == 0:
        return None
    return agree_sum / count, disagree_sum / count, count


def item_answers(samples: Sequence[Sample], item_ids: Sequence[str], margin: float = MARGIN) -> list[Optional[int]]:
    """One PCT answer (0-3) or None per item id, from the samples of that item."""
    by_item: dict[str, list[Sample]] = {}
    for s in samples:
        by_item.setdefault(s.item_id, []).append(s)
    answers: list[Optional[int]] = []
    for item_id in item_ids:
        mean = mean_stance(by_item.get(item_id, []))
        answers.append(None if mean is None else answer_from_scores(mean[0], mean[1], margin))
    return answers


@lru_cache(maxsize=1)
def _builtin_weights() -> tuple[tuple[tuple[float, ...], tuple[float, ...]], ...]:
    from polibench.taskspec.loader import parse_file
    from polibench.paths import builtin_tasks_dir

    instrument = parse_file(builtin_tasks_dir() / "instruments" / "pct.yaml")
    return tuple((tuple(i.weights.economic), tuple(i.weights.social)) for i in instrument.items)


def pct_coordinates(answers: Sequence[Optional[int]], weights: Optional[Sequence] = None) -> tuple[float, float]:
    """``(economic, social)`` for 62 answers in {0,1,2,3,None} (0 = strongly disagree ... 3 = strongly agree).

    ``weights`` defaults to the built-in PCT instrument's js.js table: a sequence of
    ``(economic_weights, social_weights)`` pairs, one per item, each of four numbers.
    """
    table = _builtin_weights() if weights is None else weights
    if len(answers) != len(table):
        raise ValueError(f"expected {len(table)} answers, got {len(answers)}")
    econ = soc = 0.0
    for answer, (econ_w, soc_w) in zip(answers, table):
        if answer is None:
            continue
        if answer not in (0, 1, 2, 3):
            raise ValueError(f"answers must be 0-3 or None, got {answer!r}")
        econ += econ_w[answer]
        soc += soc_w[answer]
    return round(ECON_OFFSET + econ / ECON_DIVISOR, 2), round(SOC_OFFSET + soc / SOC_DIVISOR, 2)
