"""The typed, versioned evaluation document of ``polibench fairness eval`` (layout in docs/fairness.md).

:class:`FairnessEvaluation` is the whole document; ``version`` is its schema version (:data:`SCHEMA_VERSION`).
A document of another version, or one that does not match the schema, is one :class:`PolibenchError` naming
the file, the field and what was expected. Keys that a document leaves out (``significance`` without a
reference model, a t-test's ``note``) stay out when it is written again, so a document read and re-written is
the same JSON.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal, Optional

from polibench.errors import PolibenchError
from polibench.kit.strict import Strict, validated

FORMAT = "polibench-fairness-eval"
SCHEMA_VERSION = 1


class Stat(Strict):
    """A mean over seeds, with its bootstrap interval, standard deviation and the per-seed values."""

    value: Optional[float]
    ci: Optional[list[Optional[float]]]
    std: Optional[float]
    per_seed: list[Optional[float]]


class GroupEntry(Strict):
    """One group's counts and metrics (Feng et al.'s six, then Borkan et al.'s three AUCs)."""

    n: int
    n_positive: int
    n_members: int
    bacc: Stat
    f1: Stat
    precision: Stat
    recall: Stat
    tpr: Stat
    fpr: Stat
    subgroup_auc: Stat
    bpsn_auc: Stat
    bnsp_auc: Stat


class GroupingBlock(Strict):
    groups: dict[str, GroupEntry]
    gaps: dict[str, Stat]
    gap_groups: list[str]
    excluded_from_gaps: list[str]
    best_worst: dict[str, dict[Literal["best", "worst"], str]]


class TTest(Strict):
    p_value: Optional[float]
    significant: Optional[bool]
    note: Optional[str] = None


class Significance(Strict):
    """t-tests across seeds against the reference model: overall and per group."""

    overall: dict[str, TTest]
    groups: dict[str, dict[str, dict[str, TTest]]]


class ModelBlock(Strict):
    """One model (or ensemble) on one task."""

    kind: str
    members: Optional[list[str]]  # an ensemble's member models; None for a model
    seeds: list[int]
    runs: list[str]
    n_test: int
    n_positive: int
    overall: dict[str, Stat]
    groupings: dict[str, GroupingBlock]
    significance: Optional[Significance] = None


class Ensemble(Strict):
    members: list[str]
    table6: dict[str, dict[str, Any]]


class TaskEntry(Strict):
    labels: dict[str, str]
    groupings: dict[str, list[str]]
    reference: Optional[str]
    models: dict[str, ModelBlock]
    ensembles: dict[str, Ensemble]


class Settings(Strict):
    bootstrap: int
    ci_level: float
    bootstrap_seed: int
    alpha: float
    reference: Optional[str]
    prediction: str
    test: str


class FairnessEvaluation(Strict):
    """The document: every task's models with their overall and per-group metrics."""

    format: Literal["polibench-fairness-eval"] = FORMAT
    version: Literal[1] = SCHEMA_VERSION
    polibench_version: str
    generated: str
    settings: Settings
    tasks: dict[str, TaskEntry]

    def as_dict(self) -> dict:
        """The document as JSON values, with the keys it was made or read with."""
        return self.model_dump(mode="json", exclude_unset=True)

    def to_json(self) -> str:
        return json.dumps(self.as_dict(), indent=1, ensure_ascii=False) + "\n"


def parse_document(value: Any, source: str) -> FairnessEvaluation:
    """``value`` (parsed JSON) as the current document, or one clear error naming ``source``."""
    if not isinstance(value, dict) or value.get("format") != FORMAT:
        raise PolibenchError(f"{source}: not the output of `polibench fairness eval` (expected \"format\": "
                             f"\"{FORMAT}\")")
    if value.get("version") != SCHEMA_VERSION:
        raise PolibenchError(f"{source}: fairness evaluation version {value.get('version')!r} is not one this "
                             f"polibench reads ({SCHEMA_VERSION}); run `polibench fairness eval` again")
    try:
        return validated(source, FairnessEvaluation, value, "(top level)")
    except RecursionError:
        raise PolibenchError(f"{source}: nested too deeply to be an evaluation document") from None


def load_document(path: Path) -> FairnessEvaluation:
    """Read an evaluation document written by ``polibench fairness eval``, or say why it is not one."""
    path = Path(path)
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise PolibenchError(f"{path}: not a readable evaluation file ({exc})") from None
    return parse_document(value, str(path))
