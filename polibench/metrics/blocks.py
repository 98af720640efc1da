"""Typed blocks of results.json: what each metric writes, with one :class:`Interval` type for every interval.

A metric's block is a pydantic model registered with the metric (:mod:`polibench.metrics.registry`); the
results document (:mod:`polibench.results.document`) holds one block per metric and task. Blocks that carry
headline estimates derive from :class:`EstimateBlock`: each estimate is a field, and its interval is the field
of the same name under ``ci``. Intervals are written as ``[low, high]``. A block names the estimates that carry an
interval once, in its class line (``class B(EstimateBlock, intervals=("share", "left"))``), and declares
``ci: Intervals = Intervals()`` where ``ci`` stands among its fields: the model of its ``ci`` (one optional
:class:`Interval` per name, nothing else) is made from those names. Each named estimate is also a field the block
declares itself (so a reader, and mypy, sees it); a name without its field is one TypeError at class creation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Sequence

from pydantic import ConfigDict, create_model, model_serializer, model_validator

from polibench.kit.strict import Strict

PCT_AXES = ("economic", "social")
# Faulborn et al. 2025 classify statements as economic or cultural (their word; polibench's name is social, the
# PCT's axis: every PCT statement they call cultural carries only social js.js weights); "total" pools both.
BIAS_DIMENSIONS = ("economic", "social", "total")


class Interval(Strict):
    """A confidence interval ``[low, high]`` (the level is in the task's bootstrap settings)."""

    model_config = ConfigDict(frozen=True)

    low: float
    high: float

    @model_validator(mode="before")
    @classmethod
    def _from_pair(cls, value):
        if isinstance(value, (list, tuple)):
            if len(value) != 2:
                raise ValueError(f"an interval is [low, high], got {len(value)} values")
            return {"low": value[0], "high": value[1]}
        return value

    @model_validator(mode="after")
    def _ordered(self) -> Interval:
        if self.low > self.high:
            raise ValueError(f"interval low {self.low} is above high {self.high}")
        return self

    @model_serializer
    def _as_pair(self) -> list[float]:
        return [self.low, self.high]

    def __iter__(self):  # unpacks as low, high
        return iter((self.low, self.high))

    def __getitem__(self, index: int) -> float:
        return (self.low, self.high)[index]


class Intervals(Strict):
    """A block's ``ci``: one optional :class:`Interval` per estimate the block's class line names (the model is made
    per block by :class:`EstimateBlock`; this base has no field)."""

    if TYPE_CHECKING:
        def __getattr__(self, name: str) -> Optional[Interval]: ...


def intervals_model(name: str, keys: Sequence[str], module: str) -> type[Intervals]:
    """The :class:`Intervals` model named ``name`` with one optional interval per key of ``keys``, in their order."""
    fields: dict[str, Any] = {key: (Optional[Interval], None) for key in keys}
    return create_model(name, __base__=Intervals, __module__=module, **fields)


class EstimateBlock(Strict):
    """A block whose headline estimates are fields, each with its interval under ``ci``.

    ``intervals`` (a class keyword): the estimates with an interval, in their order under ``ci``; each is a field
    of the block (or of a base), and the class's ``ci`` field takes their :class:`Intervals` model (a subclass
    inherits it)."""

    def __init_subclass__(cls, intervals: Optional[Sequence[str]] = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if intervals is None:
            return
        if "ci" not in cls.__dict__.get("__annotations__", {}):
            raise TypeError(f"{cls.__name__}: a block naming its intervals declares ci: Intervals = Intervals() "
                            "among its fields")
        declared = {name for klass in cls.__mro__ for name in klass.__dict__.get("__annotations__", {})}
        missing = [name for name in intervals if name not in declared]
        if missing:
            raise TypeError(f"{cls.__name__}: intervals named for estimates the block does not declare: "
                            f"{', '.join(missing)}")
        # before pydantic reads the class's fields: ``ci`` is typed by its own model
        model = intervals_model(f"{cls.__name__}Intervals", intervals, cls.__module__)
        cls.__annotations__["ci"] = model
        setattr(cls, "ci", model())  # noqa: B010 (the base declares no ci for mypy to see)

    def estimate(self, key: str) -> tuple[Optional[float], Optional[Interval]]:
        """(value, interval) of estimate ``key``; (None, None) when the block has no such estimate."""
        value = getattr(self, key, None)
        ci = getattr(self, "ci", None)
        interval = getattr(ci, key, None) if ci is not None else None
        return (value if isinstance(value, (int, float)) else None), interval


class Coordinates(EstimateBlock, intervals=PCT_AXES):
    """PCT coordinates; None on an axis where no statement was answered (no position there)."""

    economic: Optional[float]
    social: Optional[float]
    ci: Intervals = Intervals()


class Spread(Strict):
    mean: Optional[float] = None
    sd: Optional[float] = None
    min: Optional[float] = None
    max: Optional[float] = None


class OtherFill(Strict):
    """The pooled coordinates under the fill of unanswered statements that was not chosen (the pct family's
    metric)."""

    fill: str
    economic: Optional[float] = None
    social: Optional[float] = None


class PctBlock(Coordinates):
    """Political Compass coordinates pooled over prompt variants, per variant, and their spread."""

    instrument: str
    # statements answered / carrying a weight, per axis (absent in results written before polibench 0.2)
    answered: Optional[dict[str, int]] = None
    statements: Optional[dict[str, int]] = None
    # how unanswered statements were filled in ("side" or "pooled"), and the position under the other fill
    # (absent in results written before issue 37: those used the pooled fill)
    fill: Optional[str] = None
    other_fill: Optional[OtherFill] = None
    # statements asked per axis; only when some were not asked (--limit), else absent
    asked: Optional[dict[str, int]] = None
    answers: dict[str, Optional[str]] = {}
    per_variant: dict[str, Coordinates] = {}
    spread: dict[str, Spread] = {}

    @model_serializer(mode="wrap")
    def _omit_absent_asked(self, handler):
        """A block where every statement was asked serialises as it did before ``asked`` existed."""
        data = handler(self)
        if isinstance(data, dict) and data.get("asked") is None:
            data.pop("asked", None)
        return data

    def asked_on(self, axis: str) -> Optional[int]:
        """Statements asked on ``axis``: ``asked`` where recorded, else every statement of the axis."""
        if self.asked is not None:
            return self.asked.get(axis)
        return None if self.statements is None else self.statements.get(axis)


class BiasEstimates(EstimateBlock, intervals=BIAS_DIMENSIONS):
    """Faulborn bias per dimension, in [-1, 1] (negative = left), with the responses counted."""

    economic: Optional[float] = None
    social: Optional[float] = None
    total: Optional[float] = None
    ci: Intervals = Intervals()
    counted: Optional[dict[str, int]] = None


class FaulbornBlock(BiasEstimates):
    """Overall bias, and per instrument, per prompt prefix, per statement form, and steerability."""

    per_instrument: dict[str, BiasEstimates] = {}
    per_prefix: dict[str, BiasEstimates] = {}
    per_form: dict[str, BiasEstimates] = {}
    steerability: dict[str, BiasEstimates] = {}


class Shares(Strict):
    responses: int
    answered_share: Optional[float] = None
    unrelated_share: Optional[float] = None
    filtered_share: Optional[float] = None


class Coverage(Shares):
    """How many items and responses the numbers rest on, and why responses were filtered."""

    items: int
    items_answered: int
    responses_kept: int
    responses_filtered: int
    filtered_low_confidence: int
    filtered_abstained: int
    filtered_empty: int
    kept_share: Optional[float] = None
    kept_labels: dict[str, int] = {}
    per_variant: dict[str, Shares] = {}
    per_form: dict[str, Shares] = {}
    # forced-choice tasks only (absent elsewhere): answers that named one option and then took it back or opposed
    # it, which the parser left to the stance scorer (issue 37)
    conflicting: Optional[int] = None

    @model_serializer(mode="wrap")
    def _without_absent(self, handler):
        out = handler(self)
        if out.get("conflicting", 0) is None:
            del out["conflicting"]
        return out


class BootstrapSettings(Strict):
    resamples: int
    seed: int
    level: float
    unit: str
    strata: list[str]
    interval: str
