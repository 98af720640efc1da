"""The log-probability channel's metric (``logprob_channel``, results key ``logprob``).

It reads the ``scoring: logprob`` samples of a task, original form only (the js.js weights belong to the
original wording). Per prompt, with the definitions of :mod:`polibench.scoring.logprob`: the option distribution
``p`` (softmax of the options' log-probabilities), the expected answer, the entropy (bits) and the non-answer
mass. Per statement, each is the mean over the statement's prompts (its prompt variants), and ``q``, the mean
option distribution, gives the statement's **most probable answer** ``argmax q``.

Overall: the mean over statements of the expected answer, the entropy and the non-answer mass (every statement
weighs the same), and two pairs of PCT coordinates (instruments with ``scoring: pct``), through the js.js formula
of :mod:`polibench.families.pct.metric`:

- ``modal_economic`` / ``modal_social``: each statement answered with its most probable answer (a Likert 3 is
  no PCT answer and contributes 0, as an unanswered statement does);
- ``economic`` / ``social``, the **distribution-aware** (expected) coordinates: each statement contributes its
  js.js weights averaged under ``q``, ``sum_k q_k w(k)`` (a Likert 3 weighs 0), so
  ``economic = 0.38 + sum_i sum_k q_ik w_econ(i, k) / 8`` and ``social = 2.41 + sum_i sum_k q_ik w_soc(i, k) / 19.5``,
  rounded as js.js rounds. A model certain of its answers gets the modal coordinates; an undecided one is
  pulled towards the statement weights' average.

Intervals come from the task's item bootstrap (the resampled statements' contributions or means). The ``pct`` block
of the same task, where listed, averages the per-prompt most probable answers as the forced-choice channel
averages parsed options, so the channels compare on one scale.
"""

from __future__ import annotations

import math
from typing import Optional

import numpy as np

from polibench.families.pct.metric import (
    ECON_DIVISOR,
    ECON_OFFSET,
    SOC_DIVISOR,
    SOC_OFFSET,
    instrument_weights,
    js_round2,
    on_scale,
)
from polibench.metrics.blocks import EstimateBlock, Intervals, Strict
from polibench.metrics.bootstrap import percentile_intervals
from polibench.metrics.registry import Estimate, Metric, MetricInput
from polibench.scoring.logprob import PCT_ANSWER, per_prompt, scale_names

DIGITS = 6
COORDINATES = ("economic", "social", "modal_economic", "modal_social")
MEANS = ("expected_answer", "entropy", "non_answer")


class StatementOptions(Strict):
    """One statement: its mean option distribution and per-prompt means."""

    probs: dict[str, float]
    most_probable: str
    expected_answer: float
    entropy: float
    non_answer: float
    prompts: int


class LogprobBlock(EstimateBlock, intervals=COORDINATES + MEANS):
    """The log-probability channel of one task (see the module docstring for each definition)."""

    scale: list[str]
    prompts: int
    statements: int
    instrument: Optional[str] = None  # the PCT-scored instrument of the coordinates
    economic: Optional[float] = None
    social: Optional[float] = None
    modal_economic: Optional[float] = None
    modal_social: Optional[float] = None
    expected_answer: float
    entropy: float
    non_answer: float
    ci: Intervals = Intervals()
    per_statement: dict[str, StatementOptions] = {}


def _round(value: float) -> float:
    return round(float(value), DIGITS) + 0.0


def _mean_intervals(values: np.ndarray, has: np.ndarray, weights: np.ndarray) -> list[Optional[list[float]]]:
    """Percentile intervals of the mean over resampled statements of each column of ``values`` (items, stats)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        replicates = (weights @ (values * has[:, None])) / (weights @ has.astype(float))[:, None]
    return percentile_intervals(replicates)


def logprob_block(data: MetricInput) -> Optional[LogprobBlock]:
    table = data.table
    if table.option_logprobs is None:
        return None
    original = table.forms.index("original") if "original" in table.forms else -1
    finite = np.isfinite(table.option_logprobs)
    rows = np.flatnonzero((table.form == original) & finite.any(axis=1))
    if rows.size == 0:
        return None
    k = int(finite[rows[0]].sum())
    rows = rows[finite[rows].sum(axis=1) == k]
    probs, expected, entropy, non_answer = per_prompt(table.option_logprobs[rows, :k])
    n_items = len(table.items)
    item = table.item[rows]
    counts = np.bincount(item, minlength=n_items).astype(float)
    has = counts > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        q = np.column_stack([np.bincount(item, weights=probs[:, j], minlength=n_items)
                             for j in range(k)]) / counts[:, None]
        means = np.column_stack([np.bincount(item, weights=v, minlength=n_items)
                                 for v in (expected, entropy, non_answer)]) / counts[:, None]
    names = scale_names(k)
    several = len({i.instrument for i in table.items}) > 1
    per_statement = {}
    for n in np.flatnonzero(has):
        info = table.items[n]
        per_statement[f"{info.instrument}:{info.item_id}" if several else info.item_id] = StatementOptions(
            probs={name: _round(v) for name, v in zip(names, q[n])}, most_probable=names[int(np.argmax(q[n]))],
            expected_answer=_round(means[n, 0]), entropy=_round(means[n, 1]), non_answer=_round(means[n, 2]),
            prompts=int(counts[n]))
    overall = means[has].mean(axis=0)
    mean_ci = _mean_intervals(np.nan_to_num(means), has, data.weights)
    fields: dict = {name: _round(v) for name, v in zip(MEANS, overall)}
    intervals: dict = {name: None if ci is None else [_round(v) for v in ci] for name, ci in zip(MEANS, mean_ci)}
    instrument = next((data.instruments[name] for name in data.task.instruments
                       if data.instruments[name].scoring == "pct"), None)
    if instrument is not None:
        fields["instrument"] = instrument.instrument
        coordinates, coordinate_ci = pct_expectations(q, has, table, instrument, k, data.weights)
        fields.update(coordinates)
        intervals.update(coordinate_ci)
    return LogprobBlock(scale=list(names), prompts=int(rows.size), statements=int(has.sum()),
                        ci=intervals, per_statement=per_statement, **fields)


def pct_expectations(q: np.ndarray, has: np.ndarray, table, instrument, k: int, weights: np.ndarray
                     ) -> tuple[dict, dict]:
    """Expected and modal PCT coordinates of the statements' mean option distributions ``q`` (items, K), with
    item-bootstrap intervals."""
    answer_of = PCT_ANSWER[k]
    index = {(i.instrument, i.item_id): n for n, i in enumerate(table.items)}
    # contributions per table item: expected econ, expected social, modal econ, modal social
    contributions = np.zeros((len(table.items), 4))
    for item, (econ_w, soc_w) in zip(instrument.items, instrument_weights(instrument)):
        n = index.get((instrument.instrument, item.id))
        if n is None or not has[n]:
            continue
        econ = np.array([0.0 if a is None else econ_w[a] for a in answer_of])
        soc = np.array([0.0 if a is None else soc_w[a] for a in answer_of])
        best = int(np.argmax(q[n]))
        contributions[n] = q[n] @ econ, q[n] @ soc, econ[best], soc[best]
    offsets = np.array([ECON_OFFSET, SOC_OFFSET, ECON_OFFSET, SOC_OFFSET])
    divisors = np.array([ECON_DIVISOR, SOC_DIVISOR, ECON_DIVISOR, SOC_DIVISOR])
    point = offsets + contributions.sum(axis=0) / divisors
    replicates = offsets + (weights @ contributions) / divisors
    values = {name: on_scale(js_round2(float(v))) for name, v in zip(COORDINATES, point)}
    intervals = {name: None if ci is None else [on_scale(js_round2(float(v))) for v in ci]
                 for name, ci in zip(COORDINATES, percentile_intervals(replicates))}
    return values, intervals


METRIC = Metric(
    name="logprob_channel", key="logprob", block=LogprobBlock, compute=logprob_block,
    description="the log-probability channel: option distributions from the forward pass, expected answer, entropy, "
                "non-answer mass, and expected (distribution-aware) and modal PCT coordinates",
    estimates=(
        Estimate("economic", "PCT economic, expected under the option distribution", -10, 10, "left", "right",
                 what="each statement weighted by its option probabilities (a second reading of the same prompts)"),
        Estimate("social", "PCT social, expected under the option distribution", -10, 10, "libertarian",
                 "authoritarian",
                 what="each statement weighted by its option probabilities (a second reading of the same prompts)"),
        Estimate("modal_economic", "PCT economic, most probable answer", -10, 10, "left", "right",
                 what="each statement at its most probable option, pooled over prompts (a third reading)"),
        Estimate("modal_social", "PCT social, most probable answer", -10, 10, "libertarian", "authoritarian",
                 what="each statement at its most probable option, pooled over prompts (a third reading)"),
        Estimate("expected_answer", "expected answer (1 = strongly disagree)", 1, 5, "disagree", "agree",
                 bounds=lambda block: (1, len(block.scale)),
                 what="the answer expected under the option distribution, 1 = strongly disagree … K = strongly agree"),
        Estimate("entropy", "entropy of the option distribution, bits", 0, math.log2(5), "certain", "uncertain",
                 digits=3, bounds=lambda block: (0, math.log2(len(block.scale))),
                 what="how spread the option distribution is: 0 = certain, log2 K = uniform over the K options"),
        Estimate("non_answer", "probability mass off the options", -1, 1, "on the options", "off the options",
                 digits=3, what="probability of a continuation that begins with none of the options (below 0 only "
                                "when one option's tokens begin another's)"),
    ),
)
