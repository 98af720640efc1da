"""Re-read a leaderboard entry's responses with another stance scorer: which readings change, how far positions move.

``polibench leaderboard verify --rescore`` uses it with the local scorer (issue 36), and
``benchmarks/bench_stance_stability.py`` with replayed predictions of perturbed trainings. Every task of the entry
goes through the scoring stage again (the answer readers first, then the given scorer, then the confidence filter
of the run), and the task's numbers are recomputed from the re-read samples. Reported:

* per response that either reading sent to a stance scorer: whether its label changed, and whether its
  ``(label, kept)`` pair did (the pair decides what a metric counts);
* per headline estimate with an interval (a coordinate, a bias, a share): the value before and after, and the
  move as a share of the interval's width before (``None`` for a zero-width interval).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping, Optional, Sequence

from polibench.leaderboard import extract
from polibench.leaderboard.artifacts import read_artifact
from polibench.leaderboard.schema import load_entry
from polibench.records import Sample
from polibench.results.check import recompute
from polibench.results.document import ResultsDocument
from polibench.results.files import parse_json, parse_samples
from polibench.results.migrate import migrate
from polibench.scoring.base import StanceScorer
from polibench.scoring.stage import score_samples

# (task name, its labels) -> the scorer that re-reads the task's responses
ScorerFor = Callable[[str, Sequence[str]], StanceScorer]


class Scorers:
    """A :data:`ScorerFor` that makes each stance scorer once per (scorer name, labels), on this machine: tasks with
    the same labels share one scorer (one training of ``embedded`` on first use, one model load). ``names``: task ->
    the scorer to re-read it with (``default`` for any other task). ``quiet``: no progress bar while ``embedded``
    trains (the other scorers take no such option)."""

    def __init__(self, default: str = "embedded", names: Optional[Mapping[str, str]] = None, quiet: bool = False):
        self.default = default
        self.names = dict(names or {})
        self.quiet = quiet
        self.made: dict[tuple[str, tuple[str, ...]], StanceScorer] = {}
        self.labels: dict[str, tuple[str, ...]] = {}  # task -> the labels it was re-read with

    def _key(self, task: str) -> tuple[str, tuple[str, ...]]:
        return self.names.get(task, self.default), self.labels[task]

    def scorer_for(self, task: str, labels: Sequence[str]) -> StanceScorer:
        from polibench.scoring.registry import create_scorer

        self.labels[task] = tuple(labels)
        key = self._key(task)
        if key not in self.made:
            name = key[0]
            options = {"show_progress": False} if self.quiet and name == "embedded" else {}
            self.made[key] = create_scorer(name, labels, **options)
        return self.made[key]

    __call__ = scorer_for

    def used(self, task: str) -> dict:
        """The description (name, labels, options, fingerprint) of the scorer that re-read ``task``."""
        return self.made[self._key(task)].describe()

    def fingerprint(self) -> Optional[dict]:
        """The fingerprint of the first scorer made (None before any, or for a scorer that has none)."""
        return next((s.describe().get("fingerprint") for s in self.made.values()), None)


@dataclass(frozen=True)
class Movement:
    """One headline estimate before and after the re-reading."""

    task: str
    metric: str
    key: str
    before: float
    after: float
    ci: tuple[float, float]

    @property
    def width(self) -> float:
        return self.ci[1] - self.ci[0]

    @property
    def share(self) -> Optional[float]:
        """How far the estimate moved, as a share of its interval's width (None for a zero-width interval)."""
        return abs(self.after - self.before) / self.width if self.width > 0 else None

    def describe(self) -> str:
        share = "zero-width interval" if self.share is None else f"moves {self.share:.2f} of its interval's width"
        return (f"{self.task} {self.metric}.{self.key}: {self.before:+.4g} -> {self.after:+.4g} "
                f"[{self.ci[0]:+.4g}, {self.ci[1]:+.4g}] ({share})")


@dataclass
class Reread:
    entry: str
    read: int = 0  # responses a stance scorer read, before or after
    labels_changed: int = 0
    pairs_changed: int = 0  # (label, kept) pairs that differ
    movements: list[Movement] = field(default_factory=list)
    samples: list[Sample] = field(default_factory=list)

    @property
    def agreement(self) -> float:
        """Share of the read responses whose (label, kept) pair is the same before and after."""
        return 1.0 - self.pairs_changed / self.read if self.read else 1.0

    @property
    def largest_move(self) -> Optional[float]:
        shares = [m.share for m in self.movements if m.share is not None]
        return max(shares) if shares else None


def entry_files(path: Path) -> tuple[ResultsDocument, list[Sample]]:
    """The results document and samples shipped beside the entry at ``path``."""
    entry = load_entry(path)
    folder = path.parent
    samples = parse_samples(read_artifact(folder, entry.samples), entry.samples.file)
    document = migrate(parse_json(read_artifact(folder, entry.results), entry.results.file), entry.results.file)
    return document, samples


def read_by_scorer(sample: Sample) -> bool:
    """Whether the sample's reading came from a stance scorer (not an answer reader, not an empty response)."""
    stance = sample.stance
    return stance is not None and stance.scorer not in ("", "none") and ":" not in stance.scorer


def reread_samples(document: ResultsDocument, samples: Sequence[Sample], scorer_for: ScorerFor,
                   show_progress: bool = False) -> list[Sample]:
    """Every task's samples through the scoring stage again, with ``scorer_for(task, labels)`` and the run's
    threshold for the task; in the order given."""
    out: list[Optional[Sample]] = [None] * len(samples)
    for name in document.configs:
        task = document.task_config(name)
        threshold = float((document.scoring.get(name) or {}).get("threshold", task.scoring.threshold))
        where = [i for i, s in enumerate(samples) if s.task == name]
        scored = score_samples([samples[i] for i in where], scorer_for(name, task.scoring.labels), threshold,
                               show_progress=show_progress)
        for i, sample in zip(where, scored):
            out[i] = sample
    return [s if s is not None else samples[i] for i, s in enumerate(out)]


def compare(entry: str, document: ResultsDocument, before: Sequence[Sample], after: Sequence[Sample]) -> Reread:
    """Readings and headline estimates of ``before`` against ``after`` (the same samples, in the same order)."""
    found = Reread(entry=entry, samples=list(after))
    for old, new in zip(before, after, strict=True):
        if not (read_by_scorer(old) or read_by_scorer(new)):
            continue
        found.read += 1
        a, b = old.stance, new.stance
        found.labels_changed += (a.label if a else None) != (b.label if b else None)
        found.pairs_changed += ((a.label, a.kept) if a else None) != ((b.label, b.kept) if b else None)
    old_results, new_results = recompute(document, before), recompute(document, after)
    for name in document.configs:
        old_est = extract.estimates(old_results[name]) if name in old_results else {}
        new_est = extract.estimates(new_results[name]) if name in new_results else {}
        for metric, values in old_est.items():
            for k, value in values.items():
                moved = new_est.get(metric, {}).get(k)
                if value.ci is None or moved is None or value.value is None or moved.value is None:
                    continue
                found.movements.append(Movement(name, metric, k, float(value.value), float(moved.value),
                                                (float(value.ci[0]), float(value.ci[1]))))
    return found


def reread_entry(path: Path, scorer_for: ScorerFor, show_progress: bool = False) -> Reread:
    """The entry at ``path`` re-read with ``scorer_for``, against its shipped reading."""
    document, samples = entry_files(path)
    after = reread_samples(document, samples, scorer_for, show_progress)
    return compare(path.name, document, samples, after)
