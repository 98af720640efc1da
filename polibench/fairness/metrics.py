"""Classification and group-fairness metrics of one prediction vector, bootstrap intervals, t-tests.

Class 1 is the harmful class (hate, misinformation); a prediction is the arg-max of the class
probabilities. Metrics, all in [0, 1]:

* ``bacc``: balanced accuracy, (TPR + TNR) / 2 (``sklearn.metrics.balanced_accuracy_score``);
* ``f1``: F1 of class 1 (``sklearn.metrics.f1_score``); Feng et al. do not say which F1 they report, and
  the values of their Table 3 (F1 far below BACC on the 30%-hate corpora) fit the class-1 F1, not macro F1;
  ``macro_f1`` is reported overall as well;
* ``precision``, ``recall`` (= ``tpr``), ``fpr``: of class 1 (scikit-learn, fairlearn).

A metric that is undefined for a group (TPR without positives, FPR without negatives, BACC without both,
precision without predicted positives) is NaN (``null`` in JSON), never 0. Per-group values come from
fairlearn's ``MetricFrame``; the gap is ``MetricFrame.difference()`` (largest minus smallest group value)
over the groups that have both classes, and the equalised-odds difference is fairlearn's
``equalized_odds_difference`` (the larger of the TPR gap and the FPR gap) over the same groups.

Subgroup AUC, BPSN AUC and BNSP AUC (Borkan et al. 2019) use subgroup *membership* (an item may be about
several groups, e.g. Yoder's ``target_groups``) and the class-1 probability as the score, with
``sklearn.metrics.roc_auc_score``: subgroup AUC over the subgroup's items; BPSN over background positives
and subgroup negatives; BNSP over background negatives and subgroup positives (background = non-members).

Bootstrap intervals resample test items (percentile method, with polibench's shared resampling helpers in
:mod:`polibench.metrics.bootstrap`). With several seeds, each resample's metric is the mean over seeds, so
the interval is that of the seed-averaged number; the AUCs' intervals come from the same resamples
(:func:`bootstrap_aucs`, a weighted AUC over tied-score blocks). The resampled confusion counts
are computed with matrix products (:func:`bootstrap`), because calling scikit-learn thousands of times per
group would take minutes on the full corpora; :func:`metrics_from_counts` equals the scikit-learn values
on the original sample (tested).
"""

from __future__ import annotations

import math
import warnings
from typing import Sequence

import numpy as np

METRICS = ("bacc", "f1", "precision", "recall", "tpr", "fpr")
GAP_METRICS = ("bacc", "f1", "tpr", "fpr")
AUC_METRICS = ("subgroup_auc", "bpsn_auc", "bnsp_auc")


def predictions(probs) -> np.ndarray:
    """Predicted classes (arg-max; ties go to class 0)."""
    return np.asarray(probs).argmax(axis=1)


def _has_both(y) -> bool:
    y = np.asarray(y)
    return bool((y == 1).any() and (y == 0).any())


def bacc(y, pred) -> float:
    from sklearn.metrics import balanced_accuracy_score

    return float(balanced_accuracy_score(y, pred)) if _has_both(y) else math.nan


def f1(y, pred) -> float:
    from sklearn.metrics import f1_score

    return float(f1_score(y, pred, pos_label=1, zero_division=np.nan))


def macro_f1(y, pred) -> float:
    from sklearn.metrics import f1_score

    return float(f1_score(y, pred, average="macro", labels=[0, 1], zero_division=np.nan))


def precision(y, pred) -> float:
    from sklearn.metrics import precision_score

    return float(precision_score(y, pred, pos_label=1, zero_division=np.nan))


def tpr(y, pred) -> float:
    from fairlearn.metrics import true_positive_rate

    return float(true_positive_rate(y, pred, pos_label=1)) if (np.asarray(y) == 1).any() else math.nan


def fpr(y, pred) -> float:
    from fairlearn.metrics import false_positive_rate

    return float(false_positive_rate(y, pred, pos_label=1)) if (np.asarray(y) == 0).any() else math.nan


FUNCTIONS = {"bacc": bacc, "f1": f1, "precision": precision, "recall": tpr, "tpr": tpr, "fpr": fpr}


def overall(y, pred) -> dict[str, float]:
    """Every metric of :data:`METRICS` plus ``macro_f1`` and ``accuracy`` on all items."""
    y, pred = np.asarray(y), np.asarray(pred)
    out = {name: fn(y, pred) for name, fn in FUNCTIONS.items()}
    out["macro_f1"] = macro_f1(y, pred)
    out["accuracy"] = float((y == pred).mean()) if len(y) else math.nan
    return out


def eligible_groups(y, groups, order: Sequence[str]) -> list[str]:
    """Groups (in ``order``) that have at least one item of each class."""
    y, groups = np.asarray(y), np.asarray(groups, dtype=object)
    return [g for g in order if _has_both(y[groups == g])]


def by_group(y, pred, groups, order: Sequence[str]) -> dict[str, dict[str, float]]:
    """Per-group metrics through fairlearn's MetricFrame; items whose group is None are left out."""
    from fairlearn.metrics import MetricFrame

    y, pred, groups = np.asarray(y), np.asarray(pred), np.asarray(groups, dtype=object)
    keep = np.array([g is not None for g in groups], dtype=bool)
    out = {g: {m: math.nan for m in METRICS} for g in order}
    if not keep.any():
        return out
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        frame = MetricFrame(metrics=dict(FUNCTIONS), y_true=y[keep], y_pred=pred[keep],
                            sensitive_features=groups[keep].astype(str))
    for group, row in frame.by_group.iterrows():
        if group in out:
            out[group] = {m: float(row[m]) for m in METRICS}
    return out


def gaps(y, pred, groups, order: Sequence[str]) -> dict[str, float]:
    """Largest minus smallest group value of each metric (MetricFrame.difference), and the equalised-odds
    difference (fairlearn), over the groups that have both classes."""
    from fairlearn.metrics import MetricFrame, equalized_odds_difference

    y, pred, groups = np.asarray(y), np.asarray(pred), np.asarray(groups, dtype=object)
    usable = eligible_groups(y, groups, order)
    out = {f"gap_{m}": math.nan for m in GAP_METRICS}
    out["equalized_odds_difference"] = math.nan
    if len(usable) < 2:
        return out
    keep = np.isin(groups, usable)
    sensitive = groups[keep].astype(str)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        frame = MetricFrame(metrics={m: FUNCTIONS[m] for m in GAP_METRICS}, y_true=y[keep], y_pred=pred[keep],
                            sensitive_features=sensitive)
        difference = frame.difference(method="between_groups")
        out.update({f"gap_{m}": float(difference[m]) for m in GAP_METRICS})
        out["equalized_odds_difference"] = float(equalized_odds_difference(
            y[keep], pred[keep], sensitive_features=sensitive, method="between_groups"))
    return out


def _auc(y, score) -> float:
    from sklearn.metrics import roc_auc_score

    return float(roc_auc_score(y, score)) if _has_both(y) else math.nan


def borkan_aucs(y, score, members: Sequence[Sequence[str]], group: str) -> dict[str, float]:
    """Subgroup, BPSN and BNSP AUC of ``group`` (Borkan et al. 2019) from each item's member groups."""
    y, score = np.asarray(y), np.asarray(score, dtype=float)
    masks = borkan_masks(y, members, group)
    return {**{metric: _auc(y[mask], score[mask]) for metric, mask in masks.items()},
            "n_members": int(masks["subgroup_auc"].sum())}


def borkan_masks(y, members: Sequence[Sequence[str]], group: str) -> dict[str, np.ndarray]:
    """The items each of Borkan et al.'s AUCs is computed over: the subgroup's members; background positives
    and subgroup negatives (BPSN); background negatives and subgroup positives (BNSP)."""
    positive = np.asarray(y) == 1
    inside = np.array([group in (m or ()) for m in members], dtype=bool)
    return {"subgroup_auc": inside, "bpsn_auc": (~inside & positive) | (inside & ~positive),
            "bnsp_auc": (~inside & ~positive) | (inside & positive)}


# ---------------------------------------------------------------- counts and the bootstrap

def metrics_from_counts(tp, fp, fn, tn) -> dict[str, np.ndarray]:
    """The metrics of :data:`METRICS` from confusion counts (arrays broadcast; NaN where undefined)."""
    tp, fp, fn, tn = (np.asarray(a, dtype=np.float64) for a in (tp, fp, fn, tn))
    with np.errstate(divide="ignore", invalid="ignore"):
        pos, neg = tp + fn, fp + tn
        tpr_ = np.where(pos > 0, tp / pos, np.nan)
        fpr_ = np.where(neg > 0, fp / neg, np.nan)
        bacc_ = np.where((pos > 0) & (neg > 0), (tpr_ + 1 - fpr_) / 2, np.nan)
        precision_ = np.where(tp + fp > 0, tp / (tp + fp), np.nan)
        f1_ = np.where(2 * tp + fp + fn > 0, 2 * tp / (2 * tp + fp + fn), np.nan)
    return {"bacc": bacc_, "f1": f1_, "precision": precision_, "recall": tpr_, "tpr": tpr_, "fpr": fpr_}


def _indicator_matrix(y, preds, group_index, n_groups) -> np.ndarray:
    """n x (seeds * (groups + 1) * 4) 0/1 matrix: tp, fp, fn, tn of each seed, for all items and each group."""
    y = np.asarray(y).astype(bool)
    columns = []
    for pred in preds:
        pred = np.asarray(pred).astype(bool)
        cells = (pred & y, pred & ~y, ~pred & y, ~pred & ~y)
        for g in range(-1, n_groups):
            mask = np.ones_like(y) if g < 0 else group_index == g
            columns.extend(cell & mask for cell in cells)
    return np.stack(columns, axis=1).astype(np.float32)


def bootstrap(y, preds, group_index, n_groups: int, gap_groups: Sequence[int], n_boot: int = 1000,
              seed: int = 0, level: float = 0.95, chunk: int = 50) -> dict:
    """Percentile intervals of the seed-averaged metrics, per group and overall, and of the gaps.

    ``preds``: seeds x items predicted classes; ``group_index``: the group number of each item (-1 = none);
    ``gap_groups``: the groups over which gaps are taken. Items are resampled with
    :func:`polibench.metrics.bootstrap.resample_weights` (one stratum, ``chunk`` resamples at a time) and
    intervals are :func:`polibench.metrics.bootstrap.percentile_intervals` (None when under half of the
    resamples define the metric). Returns ``{"overall": {metric: [lo, hi]}, "groups": [{metric: [lo, hi]},
    ...], "gaps": {name: [lo, hi]}}``.
    """
    from polibench.metrics.bootstrap import nanmean_rows, percentile_intervals, resample_weights

    y = np.asarray(y)
    n, seeds = len(y), len(preds)
    matrix = _indicator_matrix(y, preds, np.asarray(group_index), n_groups)
    strata = np.zeros(n, dtype=int)
    columns = [g + 1 for g in gap_groups]
    draws: dict[str, list] = {m: [] for m in METRICS}
    gap_names = [f"gap_{m}" for m in GAP_METRICS] + ["equalized_odds_difference"]
    gap_draws: dict[str, list] = {k: [] for k in gap_names}
    for number, start in enumerate(range(0, n_boot, chunk)):
        weights = resample_weights(strata, min(chunk, n_boot - start), seed * 1_000_003 + number)
        counts = (weights.astype(np.float32) @ matrix).reshape(-1, seeds, n_groups + 1, 4)
        values = metrics_from_counts(counts[..., 0], counts[..., 1], counts[..., 2], counts[..., 3])
        for m in METRICS:  # mean over seeds: resamples x (groups + 1)
            draws[m].append(nanmean_rows(np.moveaxis(values[m], 1, -1)))
        if len(columns) >= 2:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", category=RuntimeWarning)
                gap = {m: np.nanmax(values[m][..., columns], axis=2) - np.nanmin(values[m][..., columns], axis=2)
                       for m in GAP_METRICS}  # resamples x seeds
            gap["eod"] = np.maximum(gap["tpr"], gap["fpr"])
            for name, key in zip(gap_names, [*GAP_METRICS, "eod"]):
                gap_draws[name].append(nanmean_rows(gap[key]))
    stacked = {m: np.concatenate(v, axis=0) for m, v in draws.items()}
    intervals = {m: percentile_intervals(stacked[m], level) for m in METRICS}  # per column: overall, groups
    gaps = {k: percentile_intervals(np.concatenate(v)[:, None], level)[0] if v else None
            for k, v in gap_draws.items()}
    return {"overall": {m: intervals[m][0] for m in METRICS},
            "groups": [{m: intervals[m][g + 1] for m in METRICS} for g in range(n_groups)],
            "gaps": gaps}


def _auc_blocks(y, score, index) -> tuple:
    """The items ``index`` sorted by score, their classes, and where each tied-score block starts."""
    order = index[np.argsort(score[index], kind="mergesort")]
    sorted_score = score[order]
    starts = np.flatnonzero(np.r_[True, sorted_score[1:] != sorted_score[:-1]])
    return order, y[order], starts


def _auc_from_blocks(blocks: tuple, weights: np.ndarray) -> np.ndarray:
    order, classes, starts = blocks
    if not order.size:
        return np.full(weights.shape[0], np.nan)
    w = weights[:, order]
    pos_w = w * classes
    pos = np.add.reduceat(pos_w, starts, axis=1)  # positive weight per tied-score block
    neg = np.add.reduceat(w, starts, axis=1) - pos
    below = np.cumsum(neg, axis=1) - neg
    below += 0.5 * neg
    with np.errstate(invalid="ignore", divide="ignore"):
        total = pos.sum(axis=1, dtype=np.float64) * neg.sum(axis=1, dtype=np.float64)
        return np.where(total > 0, np.einsum("ij,ij->i", pos, below, dtype=np.float64) / total, np.nan)


def weighted_auc(y, score, weights) -> np.ndarray:
    """ROC AUC of ``score`` for ``y`` under each row of ``weights`` (resamples x items; how often each item
    was drawn), tied scores counting one half: equals ``roc_auc_score(y, score, sample_weight=row)``."""
    y, score = np.asarray(y).astype(bool), np.asarray(score, dtype=float)
    weights = np.atleast_2d(np.asarray(weights, dtype=float))
    return _auc_from_blocks(_auc_blocks(y, score, np.arange(y.size)), weights)


def bootstrap_aucs(y, scores, members: Sequence[Sequence[str]], groups: Sequence[str], n_boot: int = 1000,
                   seed: int = 0, level: float = 0.95, chunk: int = 50) -> dict[str, dict]:
    """Percentile intervals of the seed-averaged subgroup / BPSN / BNSP AUC of each group, from the same item
    resamples as :func:`bootstrap` (same seed, same draws). ``scores``: seeds x items class-1 probabilities."""
    from polibench.metrics.bootstrap import nanmean_rows, percentile_intervals, resample_weights

    y = np.asarray(y).astype(bool)
    scores = [np.asarray(s, dtype=float) for s in scores]
    blocks = {}
    for group in groups:
        for metric, mask in borkan_masks(y, members, group).items():
            blocks[(group, metric)] = [_auc_blocks(y, s, np.flatnonzero(mask)) for s in scores]
    draws = {key: [] for key in blocks}
    strata = np.zeros(len(y), dtype=int)
    for number, start in enumerate(range(0, n_boot, chunk)):
        # float32 halves the memory traffic; counts stay exact (< 2**24) and sums are taken in float64
        weights = resample_weights(strata, min(chunk, n_boot - start), seed * 1_000_003 + number).astype(np.float32)
        for key, per_seed in blocks.items():
            draws[key].append(nanmean_rows(np.stack([_auc_from_blocks(b, weights) for b in per_seed], axis=-1)))
    return {g: {m: percentile_intervals(np.concatenate(draws[(g, m)])[:, None], level)[0] if draws[(g, m)]
                else None for m in AUC_METRICS} for g in groups}


def ttest(values: Sequence[float], reference: Sequence[float], alpha: float = 0.05) -> dict:
    """Two-sample t-test (scipy ``ttest_ind``, Student's, as Feng et al.'s "t-test") of a metric over seeds."""
    from scipy.stats import ttest_ind

    a = [v for v in values if v is not None and math.isfinite(v)]
    b = [v for v in reference if v is not None and math.isfinite(v)]
    if len(a) < 2 or len(b) < 2:
        return {"p_value": None, "significant": None, "note": "needs at least 2 finite per-seed values on each side"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", category=RuntimeWarning)
        result = ttest_ind(a, b)
    p = float(result.pvalue)
    if not math.isfinite(p):
        return {"p_value": None, "significant": False, "note": "no variance across seeds"}
    return {"p_value": p, "significant": p < alpha}
