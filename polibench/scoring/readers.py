"""Answer readers: how a response in a fixed answer format becomes a stance, keyed by the variant's ``scoring``.

A prompt variant says in which format its answers come (``scoring:`` in the variant set's YAML, copied onto every
:class:`~polibench.records.Sample`). The reader registered under that name reads each answer:

- ``stance``: free text; no reader of its own, every response goes to the task's stance scorer;
- ``likert``: a response that is a single 1-5 (:mod:`polibench.scoring.likert`) is final (confidence 1.0);
- ``forced_choice`` / ``forced_choice_reversed``: a response that names one of the four PCT options, in the
  printed or the reversed order (:mod:`polibench.scoring.forced_choice`), is final;
- ``logprob``: no text at all; the most probable answer option (:mod:`polibench.scoring.logprob`).

A reader returns the final :class:`~polibench.records.Stance`, or None when the response must go to the stance
scorer. A reader with ``reads_text = False`` reads what the backend recorded instead of text, is always final,
and is used also for an empty response. A new answer format is one :func:`register_reader` call; a variant
naming a format with no reader is one clear error in the run's preflight (:func:`reader_for`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Optional

from polibench.errors import PolibenchError
from polibench.records import Sample, Stance
from polibench.scoring.forced_choice import OPTIONS, forced_choice_stance, parse_forced_choice
from polibench.scoring.forced_choice_languages import language_reads
from polibench.scoring.likert import likert_to_stance, parse_likert
from polibench.scoring.logprob import logprob_stance


@dataclass(frozen=True)
class Channel:
    """How the leaderboard's compass marks a task whose every prompt variant is read by readers of this channel:
    the marker's ``shape`` (circle, square, triangle) and what its legend says."""

    name: str
    shape: str
    label: str


# free text read by a stance scorer: the channel of a task with mixed formats, or none polibench knows
OPEN = Channel("open", "circle", "open-ended: a stance scorer reads a free answer")


@dataclass(frozen=True)
class AnswerReader:
    """``read(sample)``: the final stance, or None (the stance scorer decides). ``channel``: the compass marker of
    a task answered only in this format (None: the task is marked :data:`OPEN`)."""

    name: str
    read: Callable[[Sample], Optional[Stance]]
    reads_text: bool = True
    channel: Optional[Channel] = None


def _no_reader(sample: Sample) -> Optional[Stance]:
    return None


def _likert(sample: Sample) -> Optional[Stance]:
    value = parse_likert(sample.response)
    if value is None:
        return None
    label = likert_to_stance(value)
    return Stance(label=label, confidence=1.0, probs={label: 1.0}, scorer=f"likert:{value}", kept=True)


def _forced_choice(reverse: bool) -> Callable[[Sample], Optional[Stance]]:
    def read(sample: Sample) -> Optional[Stance]:
        option = parse_forced_choice(sample.response, reverse=reverse)
        if option is None:
            return None
        label, probs = forced_choice_stance(option)
        return Stance(label=label, confidence=1.0, probs=probs, scorer=f"forced_choice:{OPTIONS[option]}", kept=True)
    return read


READERS: dict[str, AnswerReader] = {}


def register_reader(reader: AnswerReader) -> None:
    READERS[reader.name] = reader


for _reader in (AnswerReader("stance", _no_reader, channel=OPEN),
                AnswerReader("likert", _likert),
                AnswerReader("forced_choice", _forced_choice(reverse=False),
                             channel=Channel("forced", "square", "forced choice: the model picks one of the four "
                                                                 "answers")),
                AnswerReader("forced_choice_reversed", _forced_choice(reverse=True)),
                AnswerReader("logprob", lambda s: logprob_stance(s.option_logprobs), reads_text=False,
                             channel=Channel("logprob", "triangle", "log-probability: the answers' probabilities "
                                                                   "from the forward pass"))):
    register_reader(_reader)


def reader_for(scoring: str) -> AnswerReader:
    """The reader of answer format ``scoring``, or one clear error naming the known formats."""
    if scoring not in READERS:
        raise PolibenchError(f"answer format (scoring) '{scoring}' has no answer reader; known: "
                             f"{', '.join(sorted(READERS))}")
    return READERS[scoring]


def check_readers(variants: Iterable[tuple[str, str, str]]) -> None:
    """Every ``(task, variant id, scoring)`` has a reader: one error naming the first that has none."""
    for task, variant, scoring in variants:
        try:
            reader_for(scoring)
        except PolibenchError as exc:
            raise PolibenchError(f"task '{task}', prompt variant '{variant}': {exc}") from None


# the forced choice in every language with an option table (polibench.scoring.forced_choice_languages)
for _name, _read in language_reads().items():
    register_reader(AnswerReader(_name, _read, channel=READERS["forced_choice"].channel))
