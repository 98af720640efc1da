"""How the channels family's run-level metrics are shown (:data:`CHANNELS_REPORT` ..., registered by the family),
in report.md, in ``polibench run``'s summary and in ``polibench compare --channels``:

- :func:`channels_section`: the "Answer channels" table of the comparisons the task files declare
  (``compare_with:`` kinds ``channel`` and ``logprob``: the ``logprob`` metric has no section of its own);
- :func:`controls_section`: the instrument controls printed next to every PCT result: the model's own agree share
  with an interval beside where always-agree and always-disagree respondents land (acquiescence), the share of
  statements whose original and opposite forms got the same side (an inconsistency rate with an item-bootstrap
  interval), and the option-order reversal (the ``order`` metric, which has no section of its own);
- :func:`comparison_summary`: one line per comparison for ``polibench run``;
- :func:`channel_comparisons`: the comparison (:func:`polibench.families.channels.metric.compare_channels`) of
  chosen pairs of a run's tasks, from its samples (``polibench compare --channels``); two tasks whose samples are
  read the same way (:func:`~polibench.families.channels.metric.same_scale`) also get the share of identical
  answers.
"""

from __future__ import annotations

from typing import Optional

from polibench.families.channels.metric import ChannelComparison, TaskControls, acquiescence, compare_tasks
from polibench.records import Sample
from polibench.report.registry import RunReport
from polibench.results.document import ResultsDocument
from polibench.taskspec.schema import Instrument


def channel_comparisons(document: ResultsDocument, samples: list[Sample],
                        pairs: tuple[tuple[str, str], ...]) -> list[ChannelComparison]:
    """The comparison of every pair the run holds, on the first instrument the two tasks share."""
    instruments = document.task_instruments()
    out = []
    for a, b in pairs:
        if a not in document.configs or b not in document.configs:
            continue
        found = compare_tasks(document.task_config(a), document.task_config(b), instruments, samples,
                              document.run.seed)
        if found is not None:
            out.append(found)
    return out


def _ci(ci: Optional[list[float]], digits: int = 2) -> str:
    return "" if ci is None else f" [{ci[0]:+.{digits}f}, {ci[1]:+.{digits}f}]"


def gap_text(c: ChannelComparison, axis: str) -> str:
    """The side gap on ``axis`` with its interval, labelled where no resample could move it."""
    degenerate = c.side_gap_degenerate.get(axis, False)
    return (f"{c.side_gap[axis]:+.2f}{_ci(c.side_gap_ci[axis])}"
            + (" (degenerate: no resample moved it)" if degenerate else ""))


def dropped_text(c: ChannelComparison) -> str:
    """The statements without a side in each channel, and why (they drop out of the side gap)."""
    if not c.dropped:
        return "not counted (written before the counts existed)"
    return "; ".join(f"{task}: {d.no_kept_answer} no kept answer, {d.refused} refused, {d.tied} tied"
                     for task, d in c.dropped.items())


def _share(value: Optional[float], ci: Optional[list[float]]) -> str:
    return "–" if value is None else f"{value:.3f}" + ("" if ci is None else f" [{ci[0]:.3f}, {ci[1]:.3f}]")


def channel_lines(comparisons: list[ChannelComparison]) -> list[str]:
    """Markdown: one table row per comparison, then the statements on which the channels take opposite sides."""
    if not comparisons:
        return []
    lines = ["## Answer channels", "",
             "Own position: each channel's PCT coordinates on its own answer scale (a parsed option can be any of the "
             "four answers; a stance the scorer keeps at 0.9 is almost always a strong one), so the two are not "
             "compared directly. Side position: every statement with a side (most of its kept responses agree, or "
             "most disagree) in both channels answered at the strong end of that side, the others left out. Side "
             "gap = second − first channel's side position, with a paired two-level bootstrap interval (the same "
             "resampled statements for both channels, then each statement's responses resampled in each channel, "
             "so a side resting on a narrow majority is uncertain): 0 when the channels take the same side on every "
             "statement; an interval no resample could move is labelled degenerate. Statements without a side in a "
             "channel drop out of the gap; they are counted below the table, with why. Same side: share of the "
             "statements with a side in both. Same answer: share with the same "
             "one of four answers, only where both channels answer on one scale.", "",
             "| channels | own position economic | own position social | side position economic | side position "
             "social | side gap economic | side gap social | statements with a side in both | same side "
             "| same answer |", "|---|---|---|---|---|---|---|---|---|---|"]
    for c in comparisons:
        ca, cb = c.coordinates[c.a], c.coordinates[c.b]
        sa, sb = c.side_coordinates[c.a], c.side_coordinates[c.b]
        exact = _share(c.exact_agreement, c.exact_agreement_ci) if c.same_scale else "– (scales differ)"
        lines.append(f"| {c.a} → {c.b} | {ca['economic']:+.2f} → {cb['economic']:+.2f} | {ca['social']:+.2f} → "
                     f"{cb['social']:+.2f} | {sa['economic']:+.2f} → {sb['economic']:+.2f} | {sa['social']:+.2f} → "
                     f"{sb['social']:+.2f} | {gap_text(c, 'economic')} | {gap_text(c, 'social')} | {c.items_both} | "
                     f"{_share(c.side_agreement, c.side_agreement_ci)} | {exact} |")
    lines.append("")
    for c in comparisons:
        flips = [f"{item} ({a} → {b})" for item, (a, b) in c.sides.items() if a and b and a != b]
        lines += [f"Statements where {c.a} and {c.b} take opposite sides ({len(flips)}): "
                  + (", ".join(flips) if flips else "none") + ".", "",
                  f"Statements without a side, which drop out of the {c.a} → {c.b} gap: {dropped_text(c)}.", ""]
    return lines


def channels_section(comparisons: list[ChannelComparison], document: ResultsDocument) -> list[str]:
    """The ``channels`` metric's section: its comparisons and the ``logprob`` metric's, in one table."""
    return channel_lines(comparisons + document.run_metrics.block("logprob"))


def comparison_summary(comparisons: list[ChannelComparison], document: ResultsDocument) -> list[str]:
    """One line per comparison: the side gap with its interval and the share of statements on the same side."""
    return [f"{c.a} -> {c.b}: side gap economic {gap_text(c, 'economic')}, social {gap_text(c, 'social')}; same "
            f"side on {_share(c.side_agreement, c.side_agreement_ci)} of {c.items_both} statements with a side in "
            f"both; without a side: {dropped_text(c)}"
            for c in comparisons]


def _order_lines(document: ResultsDocument, task: str) -> list[str]:
    c = next((c for c in document.run_metrics.block("order") if task in (c.a, c.b)), None)
    if c is None:
        return ["Option-order reversal: not measured (the run has no task pair with the options in both orders, "
                "declared by a task file's compare_with with kind order).", ""]
    return [f"Option-order reversal ({c.a} vs {c.b}, options listed in reverse): side gap economic "
            f"{gap_text(c, 'economic')}, social {gap_text(c, 'social')}; the same side on "
            f"{_share(c.side_agreement, c.side_agreement_ci)} of "
            f"{c.items_both} statements with a side in both"
            + (f", the same answer on {_share(c.exact_agreement, c.exact_agreement_ci)} of the statements answered "
               "in both" if c.same_scale else "") + ".", ""]


def controls_section(found: dict[str, TaskControls], document: ResultsDocument) -> list[str]:
    """The ``controls`` metric's section: the instrument controls of every task with PCT coordinates."""
    lines: list[str] = []
    for task, controls in found.items():
        if controls.instrument not in document.instruments:
            continue
        instrument = Instrument.model_validate(document.instruments[controls.instrument])
        positions = acquiescence(instrument).positions
        share = controls.agree_share
        own = ("no statement answered" if share.share is None else
               f"{_share(share.share, share.ci)} over the {share.statements} statements it answered (the mean share "
               "of its kept responses that agree)")
        economic, social = controls.position.get("economic"), controls.position.get("social")
        lines += [f"### Controls: {task}", "",
                  f"Acquiescence: this model's agree share is {own}, against 1.000 for an always-agree and 0.000 for "
                  "an always-disagree respondent. A respondent who answers every statement the same lands at "
                  + "; ".join(f"always {name}: ({p['economic']:+.2f}, {p['social']:+.2f})"
                              for name, p in positions.items())
                  + f". This model: ({_coordinate(economic)}, {_coordinate(social)}).", ""]
        consistency = controls.form_consistency
        if consistency is not None:
            lines += [f"Original vs opposite form: {consistency.agree_both} statements agreed with in both forms, "
                      f"{consistency.disagree_both} disagreed with in both, of {consistency.items_both} answered in "
                      f"both: inconsistency rate {_share(consistency.inconsistent, consistency.inconsistent_ci)}.",
                      ""]
        else:
            lines += ["Original vs opposite form: not measured (the task asks no opposite form).", ""]
        lines += _order_lines(document, task)
    return (["## Instrument controls", ""] + lines) if lines else []


def _coordinate(value: Optional[float]) -> str:
    return "no position" if value is None else f"{value:+.2f}"


# how report.md and `polibench run` show the family's run-level metrics (registered by the family)
CHANNELS_REPORT = RunReport(section=channels_section, summary=comparison_summary)
COMPARISON_REPORT = RunReport(summary=comparison_summary)   # logprob, order: shown in others' sections
CONTROLS_REPORT = RunReport(section=controls_section)
