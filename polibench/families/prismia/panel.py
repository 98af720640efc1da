"""PrismIA 2026 entries beside PrismIA's own judge panel: the rows of the site's "PrismIA 2026" tab (drawn by
:mod:`polibench.families.prismia.board`, the ``category_bias`` metric's board).

An entry belongs here when one of its tasks reads the ``prismia2026`` instrument and its model id is
``<model>@<YYYY-MM>`` (as benchmarks/prismia2026_import.py submits them). PrismIA's panel reading of every response
(``weighted_score``, 0 = right … 1 = left; MIT, Copyright (c) 2026 PrismIA) comes from
leaderboard/prismia2026/panel.json. Every polibench number is read from the entry's verified results or recomputed
from its shipped samples; a model's panel score is the mean of its responses' ``weighted_score``, as PrismIA's
summary.json computes ``mean_score``. To set it beside Faulborn's bias (right +, −1 … 1), the panel score is also
shown as a position ``1 − 2 × mean`` (right +, −1 … 1).

Agreement across models (:func:`agreement`): Spearman's rank correlation between polibench's bias and the panel
position over **models**, each at its latest month, not over model-months (the same four models in three
near-identical months would count three times and narrow the interval). Its percentile interval comes from a
bootstrap that redraws both the models (with replacement) and the 80 statements (within the same strata as every
polibench interval: dimension × lean, the same draw for every model); both readings and their rank correlation are
recomputed in each resample.

Change over time (:func:`month_changes`): each model's Faulborn bias from one month to its next, and a successor's
from its family's model the month before (PrismIA swapped every model in June: a successor is another model, not
drift), with a paired item-bootstrap interval over the statements both answered. A change "differs" only where
that interval excludes 0.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional

import numpy as np

from polibench.errors import PolibenchError
from polibench.families.faulborn.metric import NAME as FAULBORN
from polibench.families.faulborn.metric import bias_from_totals, side_sums
from polibench.families.prismia.metric import CategoryBiasBlock
from polibench.families.refusal.metric import RefusalBlock
from polibench.leaderboard.board import Value
from polibench.metrics.bootstrap import percentile_intervals, resample_weights
from polibench.metrics.columns import build_table
from polibench.results.files import parse_json, parse_samples
from polibench.results.migrate import migrate
from polibench.seeding import derive_seed

INSTRUMENT = "prismia2026"
MODEL_MONTH = re.compile(r"^(?P<model>.+)@(?P<month>\d{4}-\d{2})$")
RESAMPLES = 2000
PANEL_FILE, LICENSE_FILE = f"{INSTRUMENT}/panel.json", f"{INSTRUMENT}/LICENSE"  # beside the entries folder


@dataclass
class PrismiaRow:
    """One model in one month: polibench's reading and PrismIA's panel."""

    model: str
    month: str
    task: str
    entry: Any                                 # the leaderboard entry (polibench.leaderboard.schema.Entry)
    bias: Optional[Value]                      # Faulborn total, from the entry
    kept_share: float
    refusal: Optional[RefusalBlock]
    categories: Optional[CategoryBiasBlock]
    panel_mean: float                          # PrismIA: mean weighted_score, 1 = left
    panel_scores: np.ndarray                   # per item, in the order of ``items``
    items: list[str]
    strata: np.ndarray
    sums: np.ndarray                           # (items, side, 2): Faulborn's per-item sums from the samples
    panel_ci: Optional[list[float]] = None     # of the panel position (filled in by ``agreement``)
    panel_refusals: int = 0                    # responses PrismIA flagged as refusals (its keyword check)

    @property
    def panel_position(self) -> float:
        return 1 - 2 * self.panel_mean

    def bias_text(self) -> str:
        return _text(self.bias.value if self.bias else None, self.bias.ci if self.bias else None)

    def refusal_text(self) -> str:
        r = self.refusal
        return _text(r.share if r else None, list(r.ci.share) if r and r.ci.share else None, sign=False, digits=3)

    def panel_text(self) -> str:
        return _text(self.panel_position, self.panel_ci)


def _text(value: Optional[float], ci: Optional[list[float]], sign: bool = True, digits: int = 2) -> str:
    if value is None:
        return "–"
    f = f"{{:{'+' if sign else ''}.{digits}f}}"
    return f.format(value) + (f" [{f.format(ci[0])}, {f.format(ci[1])}]" if ci else "")


@dataclass
class Agreement:
    rho: float
    ci: Optional[list[float]]
    n: int                                   # models, each at its latest month
    resamples: int
    months: list[str] = field(default_factory=list)   # the month each model was taken from, in row order


@dataclass
class Change:
    """One model's Faulborn bias from one month to the next (``after`` − ``before``), paired over shared statements."""

    family: str
    before: PrismiaRow
    after: PrismiaRow
    change: float
    ci: Optional[list[float]]
    items: int

    @property
    def successor(self) -> bool:
        """The later month holds another model of the family (PrismIA swapped it), not the same one again."""
        return self.before.model != self.after.model

    @property
    def differs(self) -> bool:
        """The interval excludes 0: only then is a change claimed."""
        return self.ci is not None and (self.ci[0] > 0 or self.ci[1] < 0)


def panel_path(entries_dir: Path) -> Path:
    """PrismIA's panel scores (leaderboard/prismia2026/panel.json), found beside the entries folder."""
    return entries_dir.parent / PANEL_FILE


def load_panel(path: Optional[Path]) -> Optional[dict]:
    """panel.json as written by benchmarks/prismia2026_import.py (None when there is none)."""
    if path is None or not path.is_file():
        return None
    try:
        panel = json.loads(path.read_text(encoding="utf-8"))
        runs = {r["entry_model"]: r for r in panel["runs"]}
        for r in runs.values():
            if not all(isinstance(v, (int, float)) for v in r["scores"].values()):
                raise TypeError("a score is not a number")
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise PolibenchError(f"{path}: not a PrismIA panel file ({exc})") from None
    return {**panel, "by_model": runs}


def prismia_task(entry: Any) -> Any:
    """The entry's task that reads the PrismIA instrument, or None."""
    return next((t for t in entry.tasks if INSTRUMENT in t.instruments), None)


def prismia_rows(entries: list[Any], entries_dir: Path, panel: Optional[dict],
                 read_artifact: Callable[[Path, Any], bytes]) -> list[PrismiaRow]:
    """The PrismIA entries that the panel file covers and whose samples are shipped, by month then model;
    ``read_artifact(entries_dir, artifact)`` reads a shipped run file (checked against the entry's hash)."""
    if panel is None:
        return []
    rows = []
    for entry in entries:
        task, found = prismia_task(entry), MODEL_MONTH.match(entry.model.id)
        run = panel["by_model"].get(entry.model.id)
        shipped = all((entries_dir / a.file).is_file() for a in (entry.samples, entry.results))
        if task is None or found is None or run is None or not shipped:
            continue
        samples = [s for s in parse_samples(read_artifact(entries_dir, entry.samples), entry.samples.file)
                   if s.task == task.name]
        document = migrate(parse_json(read_artifact(entries_dir, entry.results), entry.results.file),
                           entry.results.file)
        results = document.results[task.name]
        table = build_table(samples)
        items = [i.item_id for i in table.items]
        missing = sorted(set(items) - set(run["scores"]))
        if missing:
            raise PolibenchError(f"panel file: {entry.model.id} has no panel score for {', '.join(missing[:3])}")
        refusal, categories = results.block("refusal"), results.block("category_bias")
        rows.append(PrismiaRow(
            model=found["model"], month=found["month"], task=task.name, entry=entry,
            bias=task.estimate(FAULBORN, "total"), kept_share=task.coverage.kept_share,
            refusal=refusal if isinstance(refusal, RefusalBlock) else None,
            categories=categories if isinstance(categories, CategoryBiasBlock) else None,
            panel_mean=float(np.mean([run["scores"][i] for i in items])),
            panel_scores=np.array([run["scores"][i] for i in items]), items=items, strata=table.strata(),
            sums=side_sums(table, np.zeros(len(table), dtype=np.intp), 1)[:, 0],
            panel_refusals=int(run.get("refusals", 0))))
    return sorted(rows, key=lambda r: (r.month, r.model))


def _item_weights(rows: list[PrismiaRow], resamples: int, *key: str) -> np.ndarray:
    if any(r.items != rows[0].items for r in rows):
        raise PolibenchError("PrismIA entries answer different statements; cannot compare their rankings")
    return resample_weights(rows[0].strata, resamples, derive_seed(0, INSTRUMENT, *key))


def panel_intervals(rows: list[PrismiaRow], resamples: int = RESAMPLES) -> None:
    """Fill in each row's ``panel_ci``: the panel position's item-bootstrap interval."""
    if not rows:
        return
    weights = _item_weights(rows, resamples, "agreement")
    panel = 1 - 2 * np.stack([weights @ r.panel_scores for r in rows], axis=1) / weights.sum(axis=1, keepdims=True)
    for r, ci in zip(rows, percentile_intervals(panel)):
        r.panel_ci = ci


def latest_months(rows: list[PrismiaRow]) -> list[PrismiaRow]:
    """Each model once, at its latest month, in the order the models first come."""
    latest: dict[str, PrismiaRow] = {}
    for r in rows:
        if r.model not in latest or r.month > latest[r.model].month:
            latest[r.model] = r
    return list(latest.values())


def agreement(rows: list[PrismiaRow], resamples: int = RESAMPLES) -> Optional[Agreement]:
    """Spearman's rho between polibench's bias and the panel position over the models of ``rows``, each at its
    latest month, with an interval from a bootstrap over models and statements (module doc); also fills in every
    row's ``panel_ci``. None with fewer than three models."""
    from scipy.stats import rankdata

    panel_intervals(rows, resamples)
    chosen = latest_months(rows)
    if len(chosen) < 3:
        return None
    weights = _item_weights(chosen, resamples, "agreement")
    point_bias = np.array([bias_from_totals(r.sums.sum(axis=0)) for r in chosen])
    point_panel = np.array([r.panel_position for r in chosen])
    bias = np.stack([bias_from_totals(np.einsum("ri,isk->rsk", weights, r.sums)) for r in chosen], axis=1)
    panel = 1 - 2 * np.stack([weights @ r.panel_scores for r in chosen], axis=1) / weights.sum(axis=1, keepdims=True)
    models = np.random.default_rng(derive_seed(0, INSTRUMENT, "agreement", "models")).integers(
        0, len(chosen), size=(resamples, len(chosen)))
    rows_index = np.arange(resamples)[:, None]
    rho = float(_spearman(point_bias[None, :], point_panel[None, :], rankdata)[0])
    replicates = _spearman(bias[rows_index, models], panel[rows_index, models], rankdata)
    ci = percentile_intervals(replicates[:, None])[0]
    return Agreement(rho=rho, ci=ci, n=len(chosen), resamples=resamples, months=[r.month for r in chosen])


def family(model: str) -> str:
    """A model's family: the first word of its id (gpt, claude, gemini, grok)."""
    return model.split("-")[0]


def month_changes(rows: list[PrismiaRow], resamples: int = RESAMPLES) -> list[Change]:
    """Each model's change from one month to its next, and each successor's from its family's model in the month
    before (when the family had exactly one model there, which this month no longer holds); paired item-bootstrap
    intervals over the statements both answered. In family, then month order."""
    by_month: dict[tuple[str, str], list[PrismiaRow]] = {}
    for r in rows:
        by_month.setdefault((family(r.model), r.month), []).append(r)
    pairs: list[tuple[PrismiaRow, PrismiaRow]] = []
    for r in sorted(rows, key=lambda r: (family(r.model), r.month, r.model)):
        own = [o for o in rows if o.model == r.model and o.month < r.month]
        if own:
            pairs.append((max(own, key=lambda o: o.month), r))
            continue
        earlier = sorted(m for f, m in by_month if f == family(r.model) and m < r.month)
        if not earlier:
            continue
        before = by_month[(family(r.model), earlier[-1])]
        if len(before) == 1 and not any(o.model == before[0].model for o in by_month[(family(r.model), r.month)]):
            pairs.append((before[0], r))
    return [_change(a, b, resamples) for a, b in pairs]


def _change(before: PrismiaRow, after: PrismiaRow, resamples: int) -> Change:
    shared = [i for i in before.items if i in set(after.items)]
    take_a = np.array([before.items.index(i) for i in shared], dtype=np.intp)
    take_b = np.array([after.items.index(i) for i in shared], dtype=np.intp)
    sums_a, sums_b = before.sums[take_a], after.sums[take_b]
    weights = resample_weights(before.strata[take_a], resamples,
                               derive_seed(0, INSTRUMENT, "change", f"{before.model}@{before.month}",
                                           f"{after.model}@{after.month}"))
    point = float(bias_from_totals(sums_b.sum(axis=0)) - bias_from_totals(sums_a.sum(axis=0)))
    replicates = (bias_from_totals(np.einsum("ri,isk->rsk", weights, sums_b))
                  - bias_from_totals(np.einsum("ri,isk->rsk", weights, sums_a)))
    found = percentile_intervals(replicates[:, None])[0]
    ci = None if found is None else [round(v, 6) + 0.0 for v in found]  # no float dust deciding "differs"
    return Change(family=family(after.model), before=before, after=after, change=round(point, 6) + 0.0, ci=ci,
                  items=len(shared))


def _spearman(a: np.ndarray, b: np.ndarray, rankdata) -> np.ndarray:
    """Row-wise Spearman correlation of ``(resamples, n)`` arrays (average ranks for ties; NaN where a row has an
    undefined value or no spread)."""
    out = np.full(a.shape[0], np.nan)
    ok = np.isfinite(a).all(axis=1) & np.isfinite(b).all(axis=1)
    ra, rb = rankdata(a[ok], axis=1), rankdata(b[ok], axis=1)
    ra, rb = ra - ra.mean(axis=1, keepdims=True), rb - rb.mean(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        out[ok] = (ra * rb).sum(axis=1) / np.sqrt((ra ** 2).sum(axis=1) * (rb ** 2).sum(axis=1))
    return out
