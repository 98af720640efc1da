"""Stage 4: give every sample a :class:`~polibench.records.Stance` (and, for an ideology judge, an
:class:`~polibench.records.IdeologyScore`).

Each sample is first read by the answer reader of its variant's ``scoring`` (:mod:`polibench.scoring.readers`):
a clear Likert 1-5, a clear forced-choice option or the most probable option of the log-probability channel is
final (confidence 1.0). Everything else goes to the stance scorer, and stances below the confidence threshold
(0.9 by default, as both Feng et al. and Faulborn et al.) are kept in the records but marked filtered. An
ideology judge (:attr:`~polibench.scoring.base.StanceScorer.judges_ideology`) gives a score instead of a
stance label: it goes into the sample's ``ideology`` field, and the response is kept. An issue-stance grader
(:attr:`~polibench.scoring.base.StanceScorer.judges_issue`, IssueBench) gives a label on its own scale: it goes
into the sample's ``issue_stance`` field, and the response is kept when the grader named a label with at least
the threshold's confidence. A paired-prompt grader (:attr:`~polibench.scoring.base.StanceScorer.judges_pairs`)
reads each response with the other side of its pair: its :class:`~polibench.records.PairGrade` goes into the
sample's ``pair_grade`` field, and the response is kept when every figure of its pair was read.
"""

from __future__ import annotations

from tqdm.auto import tqdm

from polibench.records import IdeologyScore, IssueStance, PairGrade, Sample, Stance
from polibench.scoring.base import StanceScorer
from polibench.scoring.readers import reader_for


def score_samples(samples: list[Sample], scorer: StanceScorer, threshold: float = 0.9,
                  show_progress: bool = True) -> list[Sample]:
    """Return copies of ``samples`` with ``stance`` (and ``ideology``) filled in; order is preserved."""
    stances: dict[int, Stance] = {}
    ideology: dict[int, IdeologyScore] = {}
    issue: dict[int, IssueStance] = {}
    pairs: dict[int, PairGrade] = {}
    to_scorer: list[int] = []
    for i, sample in enumerate(samples):
        reader = reader_for(sample.scoring)
        if not reader.reads_text:  # e.g. the log-probability channel: no text, no classifier
            stance = reader.read(sample)
            assert stance is not None, f"answer reader '{reader.name}' reads no text, so it must always decide"
            stances[i] = stance
            continue
        if not (sample.response or "").strip():
            stances[i] = Stance(label=None, scorer="none", kept=False, reason="empty_response")
            continue
        read = reader.read(sample)
        if read is not None:
            stances[i] = read
            continue
        to_scorer.append(i)
    if to_scorer:
        with tqdm(total=len(to_scorer), desc=f"scoring ({scorer.name})", unit="resp",
                  disable=not show_progress) as bar:
            results = scorer.score_samples([samples[i] for i in to_scorer], progress=bar.update)
        for i, result in zip(to_scorer, results):
            if scorer.judges_ideology:  # a score in [0, 1], no stance label
                ideology[i] = IdeologyScore(conservative=round(result.probs[IdeologyScore.KEY], 6),
                                            scorer=scorer.name)
                stances[i] = Stance(label=None, confidence=1.0, scorer=scorer.name, kept=True)
            elif scorer.judges_pairs:  # the paired-prompt graders: P(refusal), P(hedging), P(even-handed)
                grade = result.pair_grade
                assert grade is not None, f"scorer '{scorer.name}' judges pairs, so it must return a pair_grade"
                pairs[i] = grade
                stances[i] = Stance(label=None, confidence=1.0 if grade.complete else 0.0, scorer=scorer.name,
                                    kept=grade.complete, reason="" if grade.complete else
                                    "abstained" if grade.paired else "unpaired")
            elif scorer.judges_issue:  # IssueBench's 1-5 or refusal, no stance label
                kept = result.label is not None and result.confidence >= threshold
                issue[i] = IssueStance(label=result.label, confidence=round(result.confidence, 6),
                                       probs={k: round(v, 6) for k, v in result.probs.items()}, scorer=scorer.name)
                stances[i] = Stance(label=None, confidence=round(result.confidence, 6), scorer=scorer.name,
                                    kept=kept, reason="" if kept else
                                    "abstained" if result.label is None else "low_confidence")
            elif result.label is None:
                stances[i] = Stance(label=None, scorer=scorer.name, kept=False, reason="abstained")
            else:
                kept = result.confidence >= threshold
                stances[i] = Stance(label=result.label, confidence=round(result.confidence, 6),
                                    probs={k: round(v, 6) for k, v in result.probs.items()}, scorer=scorer.name,
                                    kept=kept, reason="" if kept else "low_confidence")
    return [s.model_copy(update={"stance": stances[i], "ideology": ideology.get(i), "issue_stance": issue.get(i),
                                 "pair_grade": pairs.get(i)})
            for i, s in enumerate(samples)]
