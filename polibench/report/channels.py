"""Answer channels and instrument controls for report.md and ``polibench compare --channels``.

- :func:`channel_comparisons`: the comparison (:func:`polibench.metrics.channels.compare_channels`) of each pair of
  tasks of a run that ask the same instrument through two channels (by default the built-in ``CHANNEL_PAIRS``).
- :func:`controls_lines`: the instrument controls printed next to every PCT result: where always-agree and
  always-disagree respondents land (acquiescence), and, for runs with the opposite form, the share of statements
  whose original and opposite forms got the same side (an inconsistency rate with an item-bootstrap interval).
"""

from __future__ import annotations

from typing import Optional

from polibench.metrics.blocks import PctBlock
from polibench.metrics.channels import (
    CHANNEL_PAIRS,
    ORDER_PAIRS,
    ChannelComparison,
    acquiescence,
    compare_channels,
    form_consistency,
)
from polibench.records import Sample
from polibench.results.document import ResultsDocument
from polibench.taskspec.schema import Instrument


def _seed(document: ResultsDocument, task: str) -> int:
    return document.run.seed if document.run.seed is not None else document.task_config(task).generation.seed


def channel_comparisons(document: ResultsDocument, samples: list[Sample],
                        pairs: tuple[tuple[str, str], ...] = CHANNEL_PAIRS) -> list[ChannelComparison]:
    """The comparison of every pair the run holds, on the first instrument the two tasks share."""
    out = []
    for a, b in pairs:
        if a not in document.configs or b not in document.configs:
            continue
        shared = [n for n in document.task_config(a).instruments if n in document.task_config(b).instruments]
        if not shared:
            continue
        instrument = Instrument.model_validate(document.instruments[shared[0]])
        out.append(compare_channels(a, [s for s in samples if s.task == a and s.instrument == shared[0]],
                                    b, [s for s in samples if s.task == b and s.instrument == shared[0]],
                                    instrument, _seed(document, a)))
    return out


def _ci(ci: Optional[list[float]], digits: int = 2) -> str:
    return "" if ci is None else f" [{ci[0]:+.{digits}f}, {ci[1]:+.{digits}f}]"


def _share(value: Optional[float], ci: Optional[list[float]]) -> str:
    return "–" if value is None else f"{value:.3f}" + ("" if ci is None else f" [{ci[0]:.3f}, {ci[1]:.3f}]")


def channel_lines(comparisons: list[ChannelComparison]) -> list[str]:
    """Markdown: one table row per comparison, then the statements on which the channels take opposite sides."""
    if not comparisons:
        return []
    lines = ["## Answer channels", "",
             "Gap = second − first channel, with a paired item-bootstrap interval (both channels recomputed on the "
             "same resampled statements). Same side: statements answered in both whose answers are both agree or "
             "both disagree.", "",
             "| channels | economic | social | gap economic | gap social | statements in both | same side "
             "| same answer |", "|---|---|---|---|---|---|---|---|"]
    for c in comparisons:
        ca, cb = c.coordinates[c.a], c.coordinates[c.b]
        lines.append(f"| {c.a} → {c.b} | {ca['economic']:+.2f} → {cb['economic']:+.2f} | {ca['social']:+.2f} → "
                     f"{cb['social']:+.2f} | {c.gap['economic']:+.2f}{_ci(c.gap_ci['economic'])} | "
                     f"{c.gap['social']:+.2f}{_ci(c.gap_ci['social'])} | {c.items_both} | "
                     f"{_share(c.side_agreement, c.side_agreement_ci)} | "
                     f"{_share(c.exact_agreement, c.exact_agreement_ci)} |")
    lines.append("")
    for c in comparisons:
        flips = [f"{item} ({a} → {b})" for item, (a, b) in c.answers.items()
                 if a and b and ("disagree" in a) != ("disagree" in b)]
        lines += [f"Statements where {c.a} and {c.b} take opposite sides ({len(flips)}): "
                  + (", ".join(flips) if flips else "none") + ".", ""]
    return lines


def _order_lines(document: ResultsDocument, samples: Optional[list[Sample]], task: str) -> list[str]:
    pair = next(((a, b) for a, b in ORDER_PAIRS if task in (a, b) and a in document.configs and b in document.configs),
                None)
    if pair is None or samples is None:
        return ["Option-order reversal: not measured (the run has no task pair with the options in both orders, "
                f"e.g. {ORDER_PAIRS[0][0]} and {ORDER_PAIRS[0][1]}).", ""]
    (c,) = channel_comparisons(document, samples, (pair,))
    return [f"Option-order reversal ({c.a} vs {c.b}, options listed in reverse): gap economic "
            f"{c.gap['economic']:+.2f}{_ci(c.gap_ci['economic'])}, social {c.gap['social']:+.2f}"
            f"{_ci(c.gap_ci['social'])}; the same answer on {_share(c.exact_agreement, c.exact_agreement_ci)} and "
            f"the same side on {_share(c.side_agreement, c.side_agreement_ci)} of {c.items_both} statements "
            "answered in both.", ""]


def controls_lines(document: ResultsDocument, samples: Optional[list[Sample]]) -> list[str]:
    """Markdown: the instrument controls of every task with PCT coordinates."""
    lines: list[str] = []
    for task, results in document.results.items():
        pct = results.block("pct")
        if not isinstance(pct, PctBlock) or pct.instrument not in document.instruments:
            continue
        instrument = Instrument.model_validate(document.instruments[pct.instrument])
        positions = acquiescence(instrument).positions
        lines += [f"### Controls: {task}", "",
                  "Acquiescence: a respondent who answers every statement the same lands at "
                  + "; ".join(f"always {name}: ({p['economic']:+.2f}, {p['social']:+.2f})"
                              for name, p in positions.items())
                  + f". This model: ({_coordinate(pct.economic)}, {_coordinate(pct.social)}).", ""]
        consistency = form_consistency([s for s in samples if s.task == task], instrument, _seed(document, task)) \
            if samples is not None else None
        if consistency is not None:
            lines += [f"Original vs opposite form: {consistency.agree_both} statements agreed with in both forms, "
                      f"{consistency.disagree_both} disagreed with in both, of {consistency.items_both} answered in "
                      f"both: inconsistency rate {_share(consistency.inconsistent, consistency.inconsistent_ci)}.",
                      ""]
        else:
            lines += ["Original vs opposite form: not measured (the task asks no opposite form).", ""]
        lines += _order_lines(document, samples, task)
    return (["## Instrument controls", ""] + lines) if lines else []


def _coordinate(value: Optional[float]) -> str:
    return "no position" if value is None else f"{value:+.2f}"
