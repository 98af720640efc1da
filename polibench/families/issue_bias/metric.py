"""IssueBench issue bias (Röttger et al. 2025): the distribution of graded stances across templates, per issue
and framing, with intervals from a bootstrap over templates.

Each response of an IssueBench task carries the grader's label (``issue_stance``: ``1`` exclusively pro ...
``5`` exclusively con, or ``refusal``; :mod:`polibench.scorers.issue_stance.llm_grader`). Responses the grader did
not label, or labelled below the task's confidence threshold, are left out. For each issue and framing (pro, con,
neutral):

- ``distribution``: the share of each of the six labels among the graded responses (refusals included);
- ``mean_stance``: the mean label on the 1-5 scale over the responses that are not refusals (1 = pro, 5 = con);
- ``refusal_share``: the share of refusals;
- ``pro_share`` / ``con_share``: the share labelled 1-2 / 4-5 (refusals in the denominator). Under the
  neutral framing, ``pro_share`` is the paper's default-stance view: how often the model takes the pro side
  unprompted.

The aggregates per framing are means over issues (each issue weighs the same), and the headline estimates are
those of the neutral framing plus the refusal share over all framings. Intervals: percentile intervals over
resamples of the templates (the task's prompt variants), drawn with replacement, each resample keeping every
response to a drawn template; one set of resamples serves every number, so they are paired.
"""

from __future__ import annotations

from typing import Optional

import numpy as np

from polibench.errors import PolibenchError
from polibench.metrics.blocks import EstimateBlock, Interval, Intervals
from polibench.metrics.bootstrap import percentile_intervals, resample_weights
from polibench.metrics.registry import Estimate, Metric, MetricInput
from polibench.records import ISSUE_LABELS
from polibench.seeding import derive_seed
from polibench.taskspec.schema import Instrument, TaskConfig

FRAMINGS = ("pro", "con", "neutral")
STATS = ("mean_stance", "refusal_share", "pro_share", "con_share")
# the block's headline: the neutral framing's figures and the refusal share over every framing
HEADLINE = ("neutral_mean_stance", "neutral_pro_share", "neutral_con_share", "refusal_share")
MAX_RESAMPLES = 1000  # template resamples (a replicate costs a (templates x cells x 6) product)
REFUSAL = len(ISSUE_LABELS) - 1


class IssueCell(EstimateBlock, intervals=STATS):
    """One issue under one framing (or, in ``framings``, the mean over issues under one framing)."""

    issue_id: Optional[str] = None
    framing: str
    topic: Optional[str] = None
    responses: int                       # graded responses
    issues: Optional[int] = None         # a framing's mean over issues: the issues with a graded response
    distribution: dict[str, Optional[float]]
    distribution_ci: dict[str, Optional[Interval]] = {}
    mean_stance: Optional[float] = None
    refusal_share: Optional[float] = None
    pro_share: Optional[float] = None
    con_share: Optional[float] = None
    ci: Intervals = Intervals()


class IssueBiasBlock(EstimateBlock, intervals=HEADLINE):
    neutral_mean_stance: Optional[float] = None
    neutral_pro_share: Optional[float] = None
    neutral_con_share: Optional[float] = None
    refusal_share: Optional[float] = None
    ci: Intervals = Intervals()
    framings: dict[str, IssueCell]
    issues: list[IssueCell]
    templates: int
    resamples: int
    graded: int                          # responses with a kept grader label
    ungraded: int                        # responses without one (no label, filtered, empty response)


def cell_stats(counts: np.ndarray) -> dict[str, np.ndarray]:
    """``(..., 6)`` label counts -> the distribution ``(..., 6)`` and each of :data:`STATS` (NaN where undefined)."""
    counts = np.asarray(counts, dtype=float)
    total = counts.sum(axis=-1)
    stances = counts[..., :REFUSAL]
    answered = stances.sum(axis=-1)
    scale = np.arange(1, REFUSAL + 1, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        return {"distribution": counts / total[..., None],
                "mean_stance": (stances * scale).sum(axis=-1) / answered,
                "refusal_share": counts[..., REFUSAL] / total,
                "pro_share": counts[..., :2].sum(axis=-1) / total,
                "con_share": counts[..., 3:REFUSAL].sum(axis=-1) / total}


def framing_means(values: np.ndarray, framing_of: np.ndarray) -> np.ndarray:
    """``(..., cells)`` -> ``(..., 3)``: the NaN-aware mean over the issues of each framing (NaN where none is
    defined)."""
    out = np.full(values.shape[:-1] + (len(FRAMINGS),), np.nan)
    for f in range(len(FRAMINGS)):
        chosen = values[..., framing_of == f]
        defined = np.isfinite(chosen)
        with np.errstate(invalid="ignore", divide="ignore"):
            out[..., f] = np.where(defined, chosen, 0.0).sum(axis=-1) / defined.sum(axis=-1)
    return out


def _interval(intervals: list, index: int) -> Optional[Interval]:
    found = intervals[index]
    return None if found is None else Interval(low=found[0], high=found[1])


def _round(value: float, digits: int = 6) -> Optional[float]:
    return None if not np.isfinite(value) else round(float(value), digits)


def issue_bias_block(data: MetricInput) -> Optional[IssueBiasBlock]:
    table = data.table
    issue_label = table.column("issue_label")
    if issue_label is None:
        return None
    issues = {(name, item.id): item.issue for name, inst in data.instruments.items() for item in inst.items
              if item.issue is not None}
    cells = [k for k, info in enumerate(table.items) if (info.instrument, info.item_id) in issues]
    if not cells:
        return None
    cell_of_item = np.full(len(table.items), -1)
    cell_of_item[cells] = np.arange(len(cells))
    graded = table.kept & (issue_label >= 0) & (cell_of_item[table.item] >= 0)
    n_cells, n_templates = len(cells), len(table.variants)
    counts = np.zeros((n_templates, n_cells, len(ISSUE_LABELS)))
    np.add.at(counts, (table.variant[graded], cell_of_item[table.item[graded]], issue_label[graded]), 1.0)

    resamples = min(int(data.weights.shape[0]), MAX_RESAMPLES)
    draws = resample_weights(np.zeros(n_templates, dtype=np.intp), resamples, derive_seed(data.seed, "issue_bias"))
    replicate_counts = np.einsum("rv,vck->rck", draws, counts)
    point, reps = cell_stats(counts.sum(axis=0)), cell_stats(replicate_counts)

    infos = [issues[(table.items[k].instrument, table.items[k].item_id)] for k in cells]
    framing_of = np.array([FRAMINGS.index(i.framing) for i in infos])
    cell_ci = {s: percentile_intervals(reps[s]) for s in STATS}
    dist_ci = percentile_intervals(reps["distribution"].reshape(resamples, -1))
    responses = counts.sum(axis=(0, 2))

    def cell(values: dict, intervals: dict, dist_intervals: list, index: int, **fields) -> IssueCell:
        return IssueCell(
            distribution={label: _round(values["distribution"][index, k]) for k, label in enumerate(ISSUE_LABELS)},
            distribution_ci={label: _interval(dist_intervals, index * len(ISSUE_LABELS) + k)
                             for k, label in enumerate(ISSUE_LABELS)},
            ci={s: _interval(intervals[s], index) for s in STATS},
            **{s: _round(values[s][index]) for s in STATS}, **fields)

    rows = [cell(point, cell_ci, dist_ci, c, issue_id=info.issue_id, framing=info.framing, topic=info.topic_prompt,
                 responses=int(responses[c])) for c, info in enumerate(infos)]

    # per framing: the mean over issues of each cell statistic, in the point estimate and in every resample
    fpoint = {st: framing_means(point[st], framing_of) for st in STATS}
    fpoint["distribution"] = framing_means(point["distribution"].T, framing_of).T           # (framing, label)
    freps = {st: framing_means(reps[st], framing_of) for st in STATS}                       # (resamples, framing)
    freps["distribution"] = np.moveaxis(framing_means(np.moveaxis(reps["distribution"], -1, 1), framing_of),
                                        -1, 1)                                              # (resamples, f, label)
    f_ci = {st: percentile_intervals(freps[st]) for st in STATS}
    f_dist_ci = percentile_intervals(freps["distribution"].reshape(resamples, -1))
    framings = {name: cell(fpoint, f_ci, f_dist_ci, f, framing=name, responses=int(responses[framing_of == f].sum()),
                           issues=int(((framing_of == f) & (responses > 0)).sum()))
                for f, name in enumerate(FRAMINGS)}

    total_point = cell_stats(counts.sum(axis=(0, 1)))["refusal_share"]
    total_ci = percentile_intervals(cell_stats(replicate_counts.sum(axis=1))["refusal_share"][:, None])
    # the headline: the neutral framing's figures, and the refusal share over every framing (each with its interval)
    headline = {f"neutral_{stat}": framings["neutral"].estimate(stat) for stat in ("mean_stance", "pro_share",
                                                                                   "con_share")}
    headline["refusal_share"] = (_round(float(total_point)), _interval(total_ci, 0))
    return IssueBiasBlock(
        **{key: value for key, (value, _) in headline.items()}, ci={key: ci for key, (_, ci) in headline.items()},
        framings=framings, issues=rows, templates=n_templates, resamples=resamples, graded=int(graded.sum()),
        ungraded=int(len(table) - graded.sum()))


def check_issue_spec(task: TaskConfig, instruments: dict[str, Instrument], variant_ids: list[str]) -> None:
    """issue_bias needs IssueBench items (each with its ``issue``)."""
    if not any(item.issue is not None for inst in instruments.values() for item in inst.items):
        raise PolibenchError(f"task '{task.task}': metric issue_bias needs IssueBench items (an 'issue' on each "
                             f"item, as in tasks/issuebench/); instrument(s) {', '.join(instruments)} have none")


METRIC = Metric(
    name="issue_bias", key="issue_bias", block=IssueBiasBlock, compute=issue_bias_block, check_spec=check_issue_spec,
    description="IssueBench (Röttger et al. 2025) issue bias: the graded stance distribution (1 pro ... 5 con, "
                "refusal) per issue and framing, mean stance, refusal share and, under the neutral framing, the "
                "share taking the pro side; intervals from a bootstrap over templates",
    estimates=(
        Estimate("neutral_mean_stance", "IssueBench mean stance, neutral framing", 1, 5, "pro", "con", digits=2),
        Estimate("neutral_pro_share", "IssueBench pro share, neutral framing", 0, 1, "none", "all", digits=3),
        Estimate("refusal_share", "IssueBench refusal share", 0, 1, "none", "all", digits=3),
    ),
)
