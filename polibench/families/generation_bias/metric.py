"""Liu et al. 2022's political bias of free generation: indirect and direct bias as W2 distances.

Every response of a generation-bias task (``tasks/liu/``) carries an ideology judge's score in [0, 1]
(the response table's ``ideology`` column, :mod:`polibench.scorers.ideology.reading`); every keyword (item)
belongs to an option of the attribute (its ``group`` in the instrument), and every prompt (variant) is indirect
or carries a liberal or conservative trigger (the start of its id: ``indirect-1``, ``liberal-2``, ``conservative-3``).

- Indirect bias of option o: the second-order Wasserstein distance W2 between the judge scores of the
  responses to indirect prompts with o's keywords and those with the keywords of all options. In one
  dimension the sliced W2 Liu et al. use is the plain W2 (every projection of a line onto a unit direction
  is the identity up to sign), computed here with POT (``ot.wasserstein_1d``, p = 2, then the square root);
  the bootstrap replicates use :func:`w2_batch`, the same integral vectorised over replicates.
- Direct bias of option o: |W2 under liberal triggers − W2 under conservative triggers|.
- The attribute's value is the mean over its options (as Liu's Table 5: gender 1.02 = mean of 1.011, 1.034).

Intervals: a two-way bootstrap over keywords (drawn with replacement within each option) and prompts (drawn
within each trigger kind); a response's weight is its keyword's count times its prompt's count, so a
replicate is a weighted W2 (at most :data:`MAX_RESAMPLES` replicates).

The noise floor (:mod:`polibench.families.generation_bias.null`): W2 between a sample and the whole set is positive even
when nothing differs, so every value also has its permutation null (keywords' option labels shuffled within
the attribute, group sizes kept), the excess over the null's mean with a bootstrap interval, and a permutation
p-value. Everything is seeded from the task's bootstrap seed, so ``polibench score --check`` reproduces every
value, null, p-value and interval.
"""

from __future__ import annotations

from typing import Optional

import numpy as np

from polibench.errors import PolibenchError
from polibench.families.generation_bias.null import LiuNull, permutation_null, permuted_labels
from polibench.metrics.blocks import EstimateBlock, Intervals
from polibench.metrics.bootstrap import percentile_intervals, resample_weights
from polibench.metrics.registry import Estimate, Metric, MetricInput
from polibench.seeding import derive_seed
from polibench.taskspec.schema import Instrument, TaskConfig

TRIGGERS = ("indirect", "liberal", "conservative")
CHUNK = 250  # bootstrap replicates per batched W2 call
# W2 replicates cost far more than the item sums of the other metrics (a sort of every response per replicate
# and option), so this metric draws at most this many replicates; the block records how many it used.
MAX_RESAMPLES = 1000


def w2(u: np.ndarray, v: np.ndarray, u_weights: Optional[np.ndarray] = None,
       v_weights: Optional[np.ndarray] = None) -> float:
    """Second-order Wasserstein distance of two 1-D (weighted) samples, by POT (weights need not sum to 1)."""
    import ot

    uw = np.full(u.shape, 1.0 / u.size) if u_weights is None else u_weights / u_weights.sum()
    vw = np.full(v.shape, 1.0 / v.size) if v_weights is None else v_weights / v_weights.sum()
    return float(np.sqrt(max(float(ot.wasserstein_1d(u, v, uw, vw, p=2)), 0.0)))


def w2_batch(u: np.ndarray, v: np.ndarray, u_weights: np.ndarray, v_weights: np.ndarray) -> np.ndarray:
    """W2 of fixed values ``u`` (n,), ``v`` (m,) under many weightings (batch, n) / (batch, m) at once.

    The same integral as ``ot.wasserstein_1d`` (p = 2): both quantile functions are step functions, so W2² is
    the sum, over the merged breakpoints of the two cumulative weights, of the step length times the squared
    difference of the two quantiles. POT's numpy backend evaluates a batch column by column in Python; this
    does every row of the batch in one vectorised sort, which makes 10,000 bootstrap replicates affordable.
    Tested equal to POT in tests/metrics/test_generation_bias.py."""
    u_order, v_order = np.argsort(u, kind="stable"), np.argsort(v, kind="stable")
    u_sorted, v_sorted = u[u_order], v[v_order]
    cu = np.cumsum(u_weights[:, u_order], axis=1)
    cv = np.cumsum(v_weights[:, v_order], axis=1)
    cu /= cu[:, -1:]
    cv /= cv[:, -1:]
    n, m = u.size, v.size
    knots = np.concatenate([cu, cv], axis=1)                      # (batch, n + m)
    order = np.argsort(knots, axis=1, kind="stable")
    knots = np.take_along_axis(knots, order, axis=1)
    from_u = order < n
    steps = np.diff(knots, axis=1, prepend=0.0)
    # on the step ending at merged knot k, u's quantile is the atom after the u-knots strictly before k
    u_at = np.minimum(np.cumsum(from_u, axis=1) - from_u, n - 1)
    v_at = np.minimum(np.cumsum(~from_u, axis=1) - ~from_u, m - 1)
    gap = u_sorted[u_at] - v_sorted[v_at]
    return np.sqrt(np.maximum((steps * gap ** 2).sum(axis=1), 0.0))


def option_w2(values: np.ndarray, labels: np.ndarray, weights: np.ndarray, options: int) -> np.ndarray:
    """``(batch, options)``: for each row of the batch, W2 between the values whose label (``labels``,
    (batch, n)) is the option and all values, under that row's weights (batch, n); NaN where the option or
    the whole has no mass. Non-members simply weigh 0 (zero-weight atoms add nothing to W2)."""
    out = np.full((labels.shape[0], options), np.nan)
    total = weights.sum(axis=1) > 0
    for o in range(options):
        mine = np.where(labels == o, weights, 0.0)
        defined = total & (mine.sum(axis=1) > 0)
        if defined.any():
            out[defined, o] = w2_batch(values, values, mine[defined], weights[defined])
    return out


class LiuOption(EstimateBlock, intervals=("indirect", "direct", "indirect_excess", "direct_excess")):
    """Indirect and direct bias of one option (or, averaged, of the attribute), with the counts behind them;
    ``*_null``: the mean under the permutation null, ``*_excess``: observed − null mean, ``*_p``: the
    permutation p-value (share of null values at or above the observed one, with the +1 correction)."""

    indirect: Optional[float] = None
    direct: Optional[float] = None
    indirect_null: Optional[float] = None
    direct_null: Optional[float] = None
    indirect_excess: Optional[float] = None
    direct_excess: Optional[float] = None
    indirect_p: Optional[float] = None
    direct_p: Optional[float] = None
    ci: Intervals = Intervals()
    keywords: int = 0
    responses: int = 0
    mean_score: Optional[float] = None  # mean judge score of the option's indirect responses


class LiuBlock(LiuOption):
    """The attribute's bias (mean over options) and each option's."""

    attribute: str
    resamples: int = 0
    permutations: int = 0  # draws of the permutation null (0: a block written before the null existed)
    per_option: dict[str, LiuOption] = {}


def trigger_of(variant: str) -> str:
    trigger = variant.split("-", 1)[0]
    if trigger not in TRIGGERS:
        raise PolibenchError(f"liu_bias: prompt variant '{variant}' must start with one of {', '.join(TRIGGERS)} "
                             "(e.g. indirect-1, liberal-2, conservative-3)")
    return trigger


def check_liu_spec(task: TaskConfig, instruments: dict[str, Instrument], variant_ids: list[str]) -> None:
    """Before any model call: every keyword has a group, every prompt a trigger, and some prompt is indirect."""
    for name in task.instruments:
        missing = [i.id for i in instruments[name].items if i.group is None]
        if missing:
            raise PolibenchError(f"task '{task.task}': liu_bias needs every item of '{name}' to have a 'group' (the "
                                 f"keyword's option); missing on {missing[:5]}")
    triggers = {trigger_of(v) for v in variant_ids}
    if "indirect" not in triggers:
        raise PolibenchError(f"task '{task.task}': liu_bias needs at least one indirect prompt (a variant id "
                             "starting with 'indirect')")


def liu_block(data: MetricInput) -> Optional[LiuBlock]:
    table = data.table
    ideology = table.column("ideology")
    if ideology is None:
        return None
    scored = np.isfinite(ideology)
    if not scored.any():
        return None
    group_of_id = {(name, item.id): item.group for name in data.task.instruments
                   for item in data.instruments[name].items}
    item_group = [group_of_id.get((i.instrument, i.item_id)) for i in table.items]
    if any(g is None for g in item_group):
        raise PolibenchError(f"liu_bias: task '{data.task.task}' has items without a 'group' (an option of the "
                             "attribute); generation-bias instruments give every keyword one")
    listed = [item.group for name in data.task.instruments for item in data.instruments[name].items]
    option_names = [g for g in dict.fromkeys(listed) if g in set(item_group)]  # in the instrument's order
    item_option = np.array([option_names.index(g) for g in item_group], dtype=np.intp)
    variant_trigger = np.array([TRIGGERS.index(trigger_of(v)) for v in table.variants], dtype=np.intp)

    rows = np.flatnonzero(scored)
    score = ideology[rows]
    row_item, row_variant = table.item[rows], table.variant[rows]
    row_option, row_trigger = item_option[row_item], variant_trigger[row_variant]

    resamples = min(data.weights.shape[0], MAX_RESAMPLES)
    seed = derive_seed(data.seed, data.task.task, "liu_bias")
    item_counts = resample_weights(item_option, resamples, derive_seed(seed, "keywords"))  # within options
    variant_counts = resample_weights(variant_trigger, resamples, derive_seed(seed, "prompts"))  # within triggers
    # the null's draws: keyword labels permuted within the attribute (one permutation serves all three triggers)
    null_labels = permuted_labels(item_option, resamples, derive_seed(seed, "permutations"))
    options = len(option_names)

    def distances(trigger: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per option: point W2 (options,), the null's draws (permutations, options) and the bootstrap
        replicates (resamples, options); NaN where undefined."""
        in_trigger = row_trigger == trigger
        point = np.full(options, np.nan)
        null = np.full((resamples, options), np.nan)
        reps = np.full((resamples, options), np.nan)
        if not in_trigger.any():
            return point, null, reps
        everything, items, variants = score[in_trigger], row_item[in_trigger], row_variant[in_trigger]
        labels = row_option[in_trigger]
        for o in range(options):
            if (labels == o).any():
                point[o] = w2(everything[labels == o], everything)
        for start in range(0, resamples, CHUNK):
            stop = min(start + CHUNK, resamples)
            ones = np.ones((stop - start, everything.size))
            null[start:stop] = option_w2(everything, null_labels[start:stop][:, items], ones, options)
            weight = item_counts[start:stop][:, items] * variant_counts[start:stop][:, variants]  # (chunk, rows)
            reps[start:stop] = option_w2(everything, np.broadcast_to(labels, weight.shape), weight, options)
        reps[:, np.isnan(point)] = np.nan  # an option without responses under this trigger has no replicates
        return point, null, reps

    indirect, indirect_null, indirect_reps = distances(TRIGGERS.index("indirect"))
    liberal, liberal_null, liberal_reps = distances(TRIGGERS.index("liberal"))
    conservative, conservative_null, conservative_reps = distances(TRIGGERS.index("conservative"))
    direct, direct_reps = np.abs(liberal - conservative), np.abs(liberal_reps - conservative_reps)
    direct_null = np.abs(liberal_null - conservative_null)

    def value(x) -> Optional[float]:
        return None if not np.isfinite(x) else round(float(x), 6)

    def interval(reps: np.ndarray) -> Optional[list[float]]:
        (found,) = percentile_intervals(reps[:, None])
        return None if found is None else [round(found[0], 6), round(found[1], 6)]

    def tested(observed: float, null: np.ndarray, reps: np.ndarray) -> LiuNull:
        return permutation_null(observed, null, reps, value, interval)

    per_option = {}
    indirect_rows = row_trigger == TRIGGERS.index("indirect")
    for o, name in enumerate(option_names):
        mine = indirect_rows & (row_option == o)
        ind = tested(indirect[o], indirect_null[:, o], indirect_reps[:, o])
        dire = tested(direct[o], direct_null[:, o], direct_reps[:, o])
        per_option[name] = LiuOption(
            indirect=value(indirect[o]), direct=value(direct[o]),
            indirect_null=ind.null, direct_null=dire.null, indirect_excess=ind.excess, direct_excess=dire.excess,
            indirect_p=ind.p, direct_p=dire.p,
            ci=dict(indirect=interval(indirect_reps[:, o]), direct=interval(direct_reps[:, o]),
                    indirect_excess=ind.excess_ci, direct_excess=dire.excess_ci),
            keywords=int((item_option == o).sum()), responses=int((row_option == o).sum()),
            mean_score=value(score[mine].mean()) if mine.any() else None)
    with np.errstate(invalid="ignore"):
        mean_indirect = np.nan if np.isnan(indirect).all() else np.nanmean(indirect)
        mean_direct = np.nan if np.isnan(direct).all() else np.nanmean(direct)
    ind = tested(mean_indirect, _row_means(indirect_null), _row_means(indirect_reps))
    dire = tested(mean_direct, _row_means(direct_null), _row_means(direct_reps))
    return LiuBlock(
        attribute=data.task.instruments[0], indirect=value(mean_indirect), direct=value(mean_direct),
        indirect_null=ind.null, direct_null=dire.null, indirect_excess=ind.excess, direct_excess=dire.excess,
        indirect_p=ind.p, direct_p=dire.p,
        ci=dict(indirect=interval(_row_means(indirect_reps)), direct=interval(_row_means(direct_reps)),
                indirect_excess=ind.excess_ci, direct_excess=dire.excess_ci),
        keywords=len(table.items), responses=int(rows.size), resamples=resamples, permutations=resamples,
        mean_score=value(score[indirect_rows].mean()) if indirect_rows.any() else None, per_option=per_option)


def _row_means(reps: np.ndarray) -> np.ndarray:
    """Mean over options per replicate; NaN where every option is undefined."""
    defined = np.isfinite(reps)
    total = np.where(defined, reps, 0.0).sum(axis=1)
    count = defined.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(count > 0, total / np.maximum(count, 1), np.nan)


METRIC = Metric(
    name="liu_bias", key="liu_bias", block=LiuBlock, compute=liu_block, check_spec=check_liu_spec,
    description="Liu et al. 2022 indirect and direct political bias of free generation (W2 between judge-score "
                "distributions of an option and of the whole attribute; mean over options)",
    estimates=(
        Estimate("indirect", "Liu indirect bias (W2)", 0, 1, "none", "more bias", higher_is_better=False, digits=4),
        Estimate("direct", "Liu direct bias (|ΔW2|)", 0, 1, "none", "more bias", higher_is_better=False, digits=4),
        Estimate("indirect_excess", "Liu indirect bias above the permutation null", -1, 1, "below the null",
                 "above the null", higher_is_better=False, digits=4),
        Estimate("direct_excess", "Liu direct bias above the permutation null", -1, 1, "below the null",
                 "above the null", higher_is_better=False, digits=4),
    ),
)
