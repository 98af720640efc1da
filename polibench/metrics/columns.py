"""A columnar (numpy) view of scored samples, built once per task and read by every metric.

Turning 88,000 pydantic records into a handful of integer and float arrays takes one Python pass; after
that every metric, the bootstrap included, is array arithmetic. Items are identified by
``(instrument, item_id)`` and numbered in sorted order; prompt variants and statement forms are numbered
in order of first appearance (the order of the variant set and of the task's ``forms``).

The stance's columns are the table's own. What other scorers write (an ideology score, an issue stance, a pair
grade, a plugin's reading) comes from the reading registry (:data:`polibench.records.READINGS`): each reading turns
its records into its own columns, which a metric reads by name with :meth:`ResponseTable.column`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Optional, Sequence

import numpy as np

from polibench.records import FIRST_DIMENSION_NAMES, NO_LABEL, READINGS, Sample
from polibench.scoring.forced_choice import CONFLICTING, read_forced_choice

LABELS = ("agree", "disagree", "neutral", "unrelated")
AGREE, DISAGREE, NEUTRAL, UNRELATED = range(4)
MAX_OPTIONS = 5  # answer options of the log-probability channel: the PCT's 4 or Likert 1-5
SIDE_SIGN = {"right": 1, "left": -1, None: 0}
FLIP = {"left": "right", "right": "left", None: None}
FORCED_CHOICE = ("forced_choice", "forced_choice_reversed")  # the answer formats the forced-choice parser reads


@dataclass(frozen=True)
class ItemInfo:
    """What the metrics need to know about one item: where it comes from and how it is labelled."""

    instrument: str
    item_id: str
    dimension: Optional[str]
    side: Optional[str]  # side agreeing with the ORIGINAL statement reflects (the opposite form is flipped back)


@dataclass(frozen=True)
class ResponseTable:
    """One row per sample. ``side`` is +1 where agreeing with the statement as shown reflects the right, -1 the
    left, 0 unknown (the opposite form is already flipped in the sample's ``agree_side``)."""

    items: list[ItemInfo]
    variants: list[str]
    forms: list[str]
    reasons: list[str]
    item: np.ndarray       # int: index into items
    variant: np.ndarray    # int: index into variants
    form: np.ndarray       # int: index into forms
    side: np.ndarray       # int8: +1 right, -1 left, 0 unknown
    label: np.ndarray      # int8: index into LABELS, NO_LABEL when the scorer abstained or nothing was scored
    kept: np.ndarray       # bool: passed the confidence filter
    reason: np.ndarray     # int: index into reasons (why a response was filtered; "" when kept)
    agree: np.ndarray      # float: agree share of agree+disagree probabilities (PCT answers), else 0
    disagree: np.ndarray   # float: disagree share, else 0
    # the log-probability channel: (rows, MAX_OPTIONS) log P(option | prompt), NaN-padded and all NaN for rows
    # without options; None when no row has any
    option_logprobs: Optional[np.ndarray] = None
    # forced choice: True where the response named one option and then took it back or opposed it (the parser left
    # it to the stance scorer, polibench.scoring.forced_choice); None when no row is a forced-choice answer
    conflicting: Optional[np.ndarray] = None
    # the readings' columns, {reading: {column: array}}, of the readings some row carries (Reading.to_columns)
    readings: dict[str, dict[str, np.ndarray]] = field(default_factory=dict)

    def __len__(self) -> int:
        return int(self.item.size)

    @property
    def counted(self) -> np.ndarray:
        """Responses that enter Faulborn's bias: kept agree/disagree/neutral stances on a labelled side."""
        return self.kept & (self.label >= 0) & (self.label != UNRELATED) & (self.side != 0)

    @property
    def stance_value(self) -> np.ndarray:
        """+1 agree, -1 disagree, 0 neutral or anything else."""
        return np.select([self.label == AGREE, self.label == DISAGREE], [1.0, -1.0], 0.0)

    @property
    def pct_answer(self) -> np.ndarray:
        """Responses that carry a PCT answer: kept agree or disagree stances."""
        return self.kept & ((self.label == AGREE) | (self.label == DISAGREE))

    def column(self, name: str) -> Optional[np.ndarray]:
        """Reading column ``name`` (e.g. ``ideology``, ``issue_label``, ``pair_grade``: see each reading's
        ``columns``); None when no row carries it. A name no registered reading declares is an error, so that a
        misspelt column cannot read as "no data"."""
        for columns in self.readings.values():
            if name in columns:
                return columns[name]
        declared = sorted(c for _, reading in READINGS.items() for c in reading.columns)
        if name not in declared:
            raise KeyError(f"no registered reading declares a column '{name}' (declared: {', '.join(declared)})")
        return None

    def answered_by_readings(self) -> np.ndarray:
        """Kept rows that some reading counts as answered (its ``answered``), e.g. given an issue label or graded
        with their pair; False where none does."""
        answered = np.zeros(len(self), dtype=bool)
        for name, columns in self.readings.items():
            rows_of = READINGS.get(name).answered
            if rows_of is not None:
                answered |= self.kept & rows_of(columns)
        return answered

    def strata(self) -> np.ndarray:
        """Per item, the bootstrap stratum: same instrument, dimension and original side."""
        keys = [(i.instrument, stratum_sort_name(i.dimension), i.side or "") for i in self.items]
        codes = {k: n for n, k in enumerate(sorted(set(keys)))}
        return np.array([codes[k] for k in keys], dtype=np.intp)


# Strata (and Faulborn's item blocks) are numbered in sorted order of their names, and the bootstrap draws
# stratum by stratum in that order. The social dimension was once named "cultural": it keeps that name's place
# in the order, so the rename changed no resample and no stored interval.
def stratum_sort_name(dimension: Optional[str]) -> str:
    return FIRST_DIMENSION_NAMES.get(dimension or "", dimension or "")


def _pct_shares(label: Optional[str], probs: dict) -> tuple[float, float]:
    """Agree/disagree probabilities renormalised to sum to 1 (a bare label counts as certain)."""
    a, d = probs.get("agree", 0.0), probs.get("disagree", 0.0)
    if a + d <= 0:
        a, d = (1.0, 0.0) if label == "agree" else (0.0, 1.0)
    return a / (a + d), d / (a + d)


def _codes(values: list, order: Iterable) -> tuple[list, np.ndarray]:
    index = {v: n for n, v in enumerate(order)}
    return list(index), np.fromiter((index[v] for v in values), dtype=np.intp, count=len(values))


def reading_columns(found: dict[str, list[Any]]) -> dict[str, dict[str, np.ndarray]]:
    """Each reading's columns from its records per row (``found``: reading -> one record or None per row), in the
    registry's order; a reading with no ``to_columns``, or none to give, has no entry."""
    columns = {}
    for name in [n for n in READINGS.names() if n in found]:
        reading = READINGS.get(name)
        if reading.to_columns is None:
            continue
        made = reading.to_columns(found[name])
        undeclared = sorted(set(made) - set(reading.columns))
        if undeclared:
            raise TypeError(f"reading '{name}' gave columns it does not declare in its columns: {undeclared}")
        if made:
            columns[name] = made
    return columns


def build_table(samples: Sequence[Sample]) -> ResponseTable:
    """The columnar view of ``samples`` (one pass over the records)."""
    n = len(samples)
    keys, variants, forms, reasons = [], [], [], []
    side = np.zeros(n, dtype=np.int8)
    label = np.full(n, NO_LABEL, dtype=np.int8)
    kept = np.zeros(n, dtype=bool)
    agree = np.zeros(n)
    disagree = np.zeros(n)
    option_logprobs: Optional[np.ndarray] = None
    conflicting: Optional[np.ndarray] = None
    records_of: dict[str, list[Any]] = {}  # per reading, its record (or None) per row
    info: dict[tuple[str, str], ItemInfo] = {}
    label_code = {name: code for code, name in enumerate(LABELS)}
    for row, s in enumerate(samples):
        key = (s.instrument, s.item_id)
        keys.append(key)
        if key not in info:
            original_side = FLIP[s.agree_side] if s.form == "opposite" else s.agree_side
            info[key] = ItemInfo(s.instrument, s.item_id, s.dimension, original_side)
        variants.append(s.variant)
        forms.append(s.form)
        side[row] = SIDE_SIGN[s.agree_side]
        st = s.stance
        reasons.append(st.reason if st is not None else "unscored")
        if s.option_logprobs:
            if option_logprobs is None:
                option_logprobs = np.full((n, MAX_OPTIONS), np.nan)
            option_logprobs[row, :len(s.option_logprobs)] = s.option_logprobs[:MAX_OPTIONS]
        for name, record in s.readings.items():
            records_of.setdefault(name, [None] * n)[row] = record
        if s.scoring in FORCED_CHOICE:
            if conflicting is None:
                conflicting = np.zeros(n, dtype=bool)
            if st is not None and not st.scorer.startswith("forced_choice") and (s.response or "").strip():
                found = read_forced_choice(s.response, reverse=s.scoring == "forced_choice_reversed")[1]
                conflicting[row] = found == CONFLICTING
        if st is None:
            continue
        kept[row] = st.kept
        if st.label is not None:
            label[row] = label_code[st.label]
            if st.label in ("agree", "disagree"):
                agree[row], disagree[row] = _pct_shares(st.label, st.probs)
    item_keys, item = _codes(keys, sorted(info))
    variant_names, variant = _codes(variants, dict.fromkeys(variants))
    form_names, form = _codes(forms, dict.fromkeys(forms))
    reason_names, reason = _codes(reasons, dict.fromkeys(reasons))
    return ResponseTable(items=[info[k] for k in item_keys], variants=variant_names, forms=form_names,
                         reasons=reason_names, item=item, variant=variant, form=form, side=side, label=label,
                         kept=kept, reason=reason, agree=agree, disagree=disagree,
                         option_logprobs=option_logprobs, conflicting=conflicting, readings=reading_columns(records_of))
