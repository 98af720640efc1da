"""``polibench fairness eval``: metrics of every model (and ensemble) found under the run folders, as one
typed JSON document (:class:`polibench.fairness.document.FairnessEvaluation`; layout in docs/fairness.md).

For each task and model: overall metrics; per grouping, per-group metrics, Borkan et al.'s AUCs, the
max-min gaps and the equalised-odds difference. Every number is the mean over the model's seeds, with the
per-seed values, their standard deviation and a bootstrap interval of the seed mean. With a reference
model, each other model's overall and per-group BACC and F1 are t-tested against it across seeds.
"""

from __future__ import annotations

import datetime as _dt
import math
from typing import Optional, Sequence

import numpy as np

from polibench import __version__
from polibench.errors import PolibenchError
from polibench.fairness import metrics as M
from polibench.fairness.document import FORMAT, SCHEMA_VERSION, FairnessEvaluation
from polibench.fairness.ensemble import build_ensemble, table6
from polibench.fairness.runs import ModelRuns, collect

TESTED = ("bacc", "f1")
OVERALL = (*M.METRICS, "macro_f1", "accuracy")


def _clean(value) -> Optional[float]:
    return None if value is None or not math.isfinite(value) else float(value)


def _stat(per_seed: Sequence[float], ci: Optional[list] = None) -> dict:
    finite = [v for v in per_seed if v is not None and math.isfinite(v)]
    return {"value": _clean(float(np.mean(finite))) if finite else None, "ci": ci,
            "std": _clean(float(np.std(finite, ddof=1))) if len(finite) >= 2 else None,
            "per_seed": [_clean(v) for v in per_seed]}


def _grouping_block(y, preds, scores, groups, members, order, n_boot, boot_seed, level) -> tuple[dict, Optional[dict]]:
    per_seed = [M.by_group(y, p, groups, order) for p in preds]
    per_seed_gaps = [M.gaps(y, p, groups, order) for p in preds]
    per_seed_auc = [{g: M.borkan_aucs(y, s, members, g) for g in order} for s in scores]
    eligible = M.eligible_groups(y, groups, order)
    boot = auc_boot = None
    if n_boot:
        index = np.array([order.index(g) if g in order else -1 for g in groups])
        boot = M.bootstrap(y, preds, index, len(order), [order.index(g) for g in eligible], n_boot, boot_seed, level)
        auc_boot = M.bootstrap_aucs(y, scores, members, order, n_boot, boot_seed, level)
    groups_arr = np.asarray(groups, dtype=object)
    block_groups = {}
    for n, group in enumerate(order):
        inside = groups_arr == group
        entry = {"n": int(inside.sum()), "n_positive": int(y[inside].sum()),
                 "n_members": per_seed_auc[0][group]["n_members"]}
        for metric in M.METRICS:
            ci = boot["groups"][n][metric] if boot else None
            entry[metric] = _stat([s[group][metric] for s in per_seed], ci)
        for metric in M.AUC_METRICS:
            entry[metric] = _stat([a[group][metric] for a in per_seed_auc],
                                  auc_boot[group][metric] if auc_boot else None)
        block_groups[group] = entry
    gap_block = {k: _stat([g[k] for g in per_seed_gaps], boot["gaps"].get(k) if boot else None)
                 for k in per_seed_gaps[0]}
    extremes = {}
    for metric in TESTED:
        values = {g: e[metric]["value"] for g, e in block_groups.items() if e[metric]["value"] is not None}
        if values:
            extremes[metric] = {"best": max(values, key=values.get), "worst": min(values, key=values.get)}
    return ({"groups": block_groups, "gaps": gap_block, "gap_groups": eligible,
             "excluded_from_gaps": [g for g in order if g not in eligible], "best_worst": extremes},
            boot["overall"] if boot else None)


def evaluate_model(model: ModelRuns, n_boot: int = 1000, boot_seed: int = 0, level: float = 0.95) -> dict:
    runs = model.aligned()
    y = runs[0].labels
    if any(not np.array_equal(r.labels, y) for r in runs):
        raise PolibenchError(f"model '{model.name}' on '{model.task}': seeds disagree on the gold labels")
    preds = [M.predictions(r.probs) for r in runs]
    scores = [r.probs[:, 1] for r in runs]
    per_seed_overall = [M.overall(y, p) for p in preds]
    groupings, overall_ci = {}, None
    for name, order in model.groupings.items():
        if name not in runs[0].groups:
            continue
        block, ci = _grouping_block(y, preds, scores, runs[0].groups[name], runs[0].members.get(name) or
                                    [[g] if g else [] for g in runs[0].groups[name]], list(order), n_boot,
                                    boot_seed, level)
        groupings[name] = block
        overall_ci = overall_ci or ci
    if n_boot and overall_ci is None:
        overall_ci = M.bootstrap(y, preds, np.full(len(y), -1), 0, [], n_boot, boot_seed, level)["overall"]
    overall = {m: _stat([s[m] for s in per_seed_overall], (overall_ci or {}).get(m)) for m in OVERALL}
    return {"kind": model.kind, "members": model.members, "seeds": sorted(model.seeds),
            "runs": [str(r.folder) for r in runs if r.folder], "n_test": int(len(y)),
            "n_positive": int(y.sum()), "overall": overall, "groupings": groupings}


def _significance(block: dict, reference: dict, alpha: float) -> dict:
    out = {"overall": {m: M.ttest(block["overall"][m]["per_seed"], reference["overall"][m]["per_seed"], alpha)
                       for m in TESTED}, "groups": {}}
    for name, grouping in block["groupings"].items():
        ref_groups = reference["groupings"].get(name, {}).get("groups", {})
        out["groups"][name] = {
            g: {m: M.ttest(entry[m]["per_seed"], ref_groups[g][m]["per_seed"], alpha) for m in TESTED}
            for g, entry in grouping["groups"].items() if g in ref_groups}
    return out


def parse_ensemble(text: str) -> tuple[str, list[str]]:
    """``NAME=A,B,C`` or ``A,B,C`` (named ``partisan-ensemble``) -> (name, members)."""
    name, sep, rest = text.partition("=")
    if not sep:
        name, rest = "partisan-ensemble", text
    members = [m.strip() for m in rest.split(",") if m.strip()]
    if not name.strip() or len(members) < 2:
        raise PolibenchError(f"--ensemble '{text}': expected [NAME=]MODEL,MODEL[,MODEL...]")
    return name.strip(), members


def evaluate(paths: Sequence, reference: Optional[str] = None, ensembles: Sequence[tuple[str, list[str]]] = (),
             n_boot: int = 1000, level: float = 0.95, alpha: float = 0.05, boot_seed: int = 0,
             progress=None) -> FairnessEvaluation:
    """The evaluation document of every run under ``paths`` (see the module docstring)."""
    if not 0 < level < 1:
        raise PolibenchError(f"--ci must be in (0, 1) (got {level})")
    if n_boot < 0:
        raise PolibenchError(f"--bootstrap must be >= 0 (got {n_boot})")
    found = collect(paths)
    names = sorted({n for models in found.values() for n in models})
    for name, members in ensembles:
        if not any(all(m in models for m in members) for models in found.values()):
            raise PolibenchError(f"--ensemble {name}: no task has runs of all its members {', '.join(members)} "
                                 f"(models found: {', '.join(names)})")
    if reference and reference not in names:
        raise PolibenchError(f"--reference '{reference}': no runs of that model (models found: {', '.join(names)})")
    tasks = {}
    for task, models in sorted(found.items()):
        for name, members in ensembles:
            present = [models[m] for m in members if m in models]
            if len(present) == len(members):
                if name in models:
                    raise PolibenchError(f"--ensemble name '{name}' is also a model name on '{task}'")
                models[name] = build_ensemble(name, present)
        blocks = {}
        for name, model in sorted(models.items(), key=lambda kv: (kv[1].kind != "model", kv[0])):
            if progress:
                progress(f"evaluating {name} on {task} ({len(model.seeds)} seed(s))")
            blocks[name] = evaluate_model(model, n_boot, boot_seed, level)
        entry = {"labels": next(iter(models.values())).labels,
                 "groupings": next(iter(models.values())).groupings, "reference": None, "models": blocks,
                 "ensembles": {}}
        if reference and reference in blocks:
            entry["reference"] = reference
            for name, block in blocks.items():
                if name != reference:
                    block["significance"] = _significance(block, blocks[reference], alpha)
        for name, members in ensembles:
            if name in blocks:
                member_scores = {m: {k: blocks[m]["overall"][k]["value"] for k in TESTED} for m in members}
                entry["ensembles"][name] = {
                    "members": members,
                    "table6": table6(member_scores, {k: blocks[name]["overall"][k]["value"] for k in TESTED})}
        tasks[task] = entry
    return FairnessEvaluation.model_validate({
            "format": FORMAT, "version": SCHEMA_VERSION, "polibench_version": __version__,
            "generated": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
            "settings": {"bootstrap": n_boot, "ci_level": level, "bootstrap_seed": boot_seed, "alpha": alpha,
                         "reference": reference, "prediction": "argmax of class probabilities",
                         "test": "scipy.stats.ttest_ind across seeds (Student's)"},
            "tasks": tasks})
