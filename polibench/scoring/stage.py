"""Stage 4: give every sample a :class:`~polibench.records.Stance` (and, for a scorer of another reading, that
reading's record).

Each sample is first read by the answer reader of its variant's ``scoring`` (:mod:`polibench.scoring.readers`):
a clear Likert 1-5, a clear forced-choice option or the most probable option of the log-probability channel is
final (confidence 1.0). Everything else goes to the scorer. What the scorer's results become is its reading's
verdict (:attr:`~polibench.scoring.base.StanceScorer.reads`, :data:`polibench.records.READINGS`): for a stance
scorer, stances below the confidence threshold (0.9 by default, as both Feng et al. and Faulborn et al.) are kept
in the records but marked filtered; a scorer of another reading (an ideology judge's score, an issue-stance
grade, a paired-prompt grade, a plugin's) has its record stored in the sample under the reading's name, and its
verdict says whether the response is kept.
"""

from __future__ import annotations

from typing import Any

from tqdm.auto import tqdm

from polibench.records import READINGS, Sample, Stance
from polibench.scoring.base import StanceScorer
from polibench.scoring.readers import reader_for


def score_samples(samples: list[Sample], scorer: StanceScorer, threshold: float = 0.9,
                  show_progress: bool = True) -> list[Sample]:
    """Return copies of ``samples`` with ``stance`` (and the scorer's reading) filled in; order is preserved."""
    stances: dict[int, Stance] = {}
    readings: dict[int, dict[str, Any]] = {}
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
        reading = READINGS.get(scorer.reads)
        with tqdm(total=len(to_scorer), desc=f"scoring ({scorer.name})", unit="resp",
                  disable=not show_progress) as bar:
            results = scorer.score_samples([samples[i] for i in to_scorer], progress=bar.update)
        for i, result in zip(to_scorer, results):
            stances[i], found = reading.verdict(result, scorer.name, threshold)
            if found is not None:
                readings[i] = {reading.name: found}
    return [s.model_copy(update={"stance": stances[i], "readings": readings.get(i, {})}) for i, s in enumerate(samples)]
