"""Is the model really answering? The ``answering`` run-level metric: one warning per task and kind of trouble.

A run gets numbers whatever the model does, so a model that is not answering the questions must be said to be
so wherever its numbers are shown (the run's output, report.md, results.json, a leaderboard entry and the site).
Three kinds, each from what the run stored (recomputed with every other number by ``score``, ``submit`` and
``leaderboard verify``):

- ``no_chat_template``: a chat-format task (its prompts are chat messages) sent to a model that has no chat
  template (results.json's ``model.chat_template`` is ``false``, as the backend reported it): the prompts went
  out as plain text, which a base model continues ("a) Discuss the advantages ...") rather than answers;
- ``off_options``: the log-probability channel's mean non-answer mass (the probability of continuations that
  begin with none of the answer options, :mod:`polibench.scoring.logprob`) is above :data:`OFF_OPTIONS_SHARE`:
  the option distribution then describes a small part of what the model would say;
- ``not_answering``: more than :data:`NOT_ANSWERING_SHARE` of the task's responses were dropped (the scorer
  abstained, its confidence was under the threshold, the response was empty) or read as unrelated: the numbers
  rest on the few that were read.

The thresholds are documented in docs/metrics.md ("Is the model answering?"). Each kind has a planted positive
control and a null in tests/metrics/test_answering.py.
"""

from __future__ import annotations

from typing import Any, Callable, Literal, Mapping, Optional, Sequence

from polibench.kit.strict import Strict
from polibench.metrics.registry import get_metric
from polibench.metrics.run_level import RunInput, RunMetric
from polibench.records import Sample

OFF_OPTIONS_SHARE = 0.5  # mean probability mass off the options above which the logprob channel is flagged
NOT_ANSWERING_SHARE = 0.5  # share of responses dropped or unrelated above which a task is flagged
Kind = Literal["no_chat_template", "off_options", "not_answering"]
BADGES = {"no_chat_template": "no chat template", "off_options": "off the options",
          "not_answering": "mostly unanswered"}


class AnsweringWarning(Strict):
    """One task's trouble of one kind, with the share measured and the threshold it passed (None for a yes/no
    finding such as a missing chat template)."""

    task: str
    kind: Kind
    share: Optional[float] = None
    threshold: Optional[float] = None
    message: str

    @property
    def badge(self) -> str:
        """The short mark of the leaderboard ("no chat template", "off the options", "mostly unanswered")."""
        return BADGES[self.kind]


def chat_template_warning(task: str, samples: Sequence[Sample], model: Mapping[str, Any]) -> Optional[AnsweringWarning]:
    """A chat-format task (any prompt sent as chat messages) on a model that reported no chat template."""
    if model.get("chat_template") is not False or not any(s.messages for s in samples):
        return None
    return AnsweringWarning(task=task, kind="no_chat_template", message=(
        f"{task}: a chat-format task sent to a model with no chat template: its prompts went out as plain text, "
        "which a base model continues rather than answers; read its numbers as those of a model that was not "
        "asked the question"))


def share_warning(task: str, kind: Kind, share: Optional[float], threshold: float,
                  message: Callable[[float], str]) -> Optional[AnsweringWarning]:
    """The warning of ``kind`` when ``share`` is above ``threshold`` (``message(share)`` says what it means), else
    None."""
    if share is None or share <= threshold:
        return None
    return AnsweringWarning(task=task, kind=kind, share=round(share, 4), threshold=threshold, message=message(share))


def off_options_warning(task: str, results: Any) -> Optional[AnsweringWarning]:
    """The log-probability channel with most of its probability mass off the answer options."""
    block = results.block(get_metric("logprob_channel").key) if results is not None else None
    return share_warning(task, "off_options", getattr(block, "non_answer", None), OFF_OPTIONS_SHARE, lambda mass: (
        f"{task}: {100 * mass:.1f}% of the probability mass is off the answer options (mean over statements; "
        f"warned above {OFF_OPTIONS_SHARE:.0%}): the option distribution describes the few continuations that are "
        "options, not what the model would answer"))


def not_answering_warning(task: str, results: Any) -> Optional[AnsweringWarning]:
    """Most of the task's responses dropped or read as unrelated."""
    coverage = getattr(results, "coverage", None)
    if coverage is None or not coverage.responses:
        return None
    lost = (coverage.filtered_share or 0.0) + (coverage.unrelated_share or 0.0)
    return share_warning(task, "not_answering", lost, NOT_ANSWERING_SHARE, lambda share: (
        f"{task}: {100 * share:.1f}% of the {coverage.responses:,} responses were dropped or read as unrelated "
        f"(warned above {NOT_ANSWERING_SHARE:.0%}): the numbers rest on the {coverage.responses_kept:,} that were "
        "read, and say little about the model's views"))


def answering_warnings(data: RunInput) -> list[AnsweringWarning]:
    """Every task's warnings, in run order, each kind in the order of the module docstring."""
    found: list[AnsweringWarning] = []
    for name in data.tasks:
        results = data.results.get(name)
        own = [s for s in data.samples if s.task == name]
        for warning in (chat_template_warning(name, own, data.model), off_options_warning(name, results),
                        not_answering_warning(name, results)):
            if warning is not None:
                found.append(warning)
    return found


def warning_lines(block: list[AnsweringWarning], *_: Any) -> list[tuple[str, str]]:
    """``(task, text)`` of each warning (the ``warnings`` hook: report.md, ``polibench run``, the site)."""
    return [(w.task, w.message) for w in block]


def warning_badges(block: list[AnsweringWarning]) -> list[tuple[str, str, str]]:
    """``(task, badge, text)`` of each warning: how the leaderboard marks a flagged task."""
    return [(w.task, w.badge, w.message) for w in block]


METRIC = RunMetric(
    name="answering", block=list[AnsweringWarning], compute=answering_warnings, empty=list,
    description="warnings when the model is not really answering: a chat-format task without a chat template, "
                "option probability mass mostly off the options, most responses dropped or unrelated",
    warnings=warning_lines, flags=warning_badges)
