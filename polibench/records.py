"""The one typed record that flows between stages, and the settings that travel with it.

A :class:`Sample` is born in request building (prompt and seed filled in), gets its ``response`` from a
model backend, its ``stance`` from the scoring stage, and is then read by the metrics. Each stage returns
new records (``model_copy(update=...)``); no stage edits another stage's fields. ``samples.jsonl`` is
these records, one JSON object per line, so every number in ``results.json`` can be recomputed from it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Literal, Optional, Sequence

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_serializer, model_validator

from polibench.kit.registry import Registry
from polibench.kit.strict import Number, Strict, WholeNumber

StanceLabel = Literal["agree", "disagree", "neutral", "unrelated"]
Side = Literal["left", "right"]
Dimension = Literal["economic", "social"]
# Files written before polibench named the social dimension once called it "cultural" (Faulborn et al.'s word);
# readers map the old name through normalise_dimension, so old samples and task files keep loading.
LEGACY_DIMENSIONS = {"cultural": "social"}
FIRST_DIMENSION_NAMES = {new: old for old, new in LEGACY_DIMENSIONS.items()}


def normalise_dimension(value):
    """``"cultural"`` (the old name) -> ``"social"``; anything else unchanged (validation happens after)."""
    return LEGACY_DIMENSIONS.get(value, value) if isinstance(value, str) else value
Form = Literal["original", "reformulation", "opposite"]


class GenerationSettings(Strict):
    """How to sample: shared by every request of a task."""

    samples: WholeNumber = Field(10, ge=1, description="responses per prompt")
    max_new_tokens: WholeNumber = Field(100, ge=1)
    temperature: Number = Field(1.0, ge=0.0, description="0 means greedy decoding")
    top_k: Optional[WholeNumber] = Field(None, ge=1)
    top_p: Optional[Number] = Field(None, gt=0.0, le=1.0)
    seed: WholeNumber = 1234
    stop: list[str] = Field(default_factory=list)


class ChatMessage(Strict):
    role: Literal["system", "user", "assistant"]
    content: str


class Usage(Strict):
    """Token counts a backend reports for one response (None where it cannot tell)."""

    prompt_tokens: Optional[int] = None
    completion_tokens: Optional[int] = None


class TokenProb(Strict):
    """One candidate token and its probability (a masked LM's fill of the mask slot)."""

    token: str
    prob: float


def legacy_mask_fills(text: Optional[str]) -> Optional[list[TokenProb]]:
    """The fills of an old ``mlm`` response, which carried them as JSON text
    (``{"mask_fills": [["agree", 0.41], ...]}``); None for any other text."""
    if not text or not text.startswith('{"mask_fills"'):
        return None
    try:
        return [TokenProb(token=str(token), prob=float(prob)) for token, prob in json.loads(text)["mask_fills"]]
    except (ValueError, TypeError, KeyError):
        return None


def _migrate_fills(data, text_field: str):
    """Before validation: move fills hidden in an old response's text into the typed ``mask_fills`` field."""
    if isinstance(data, dict) and data.get("mask_fills") is None:
        fills = legacy_mask_fills(data.get(text_field))
        if fills is not None:
            data = {**data, "mask_fills": fills}
    return data


class Prompt(Strict):
    """What a backend is sent: the plain text, the chat messages when the variant uses chat framing, a seed."""

    model_config = ConfigDict(frozen=True)

    text: str
    seed: int
    messages: Optional[tuple[ChatMessage, ...]] = None

    def plain_text(self) -> str:
        """The prompt for a model without a chat template (a system message, if any, goes first)."""
        if self.messages and self.messages[0].role == "system":
            return self.messages[0].content + "\n\n" + self.text
        return self.text


class Completion(Strict):
    """What a backend returns for one prompt. ``mask_fills``: the top fills of a masked LM (``mlm``)."""

    text: str
    finish_reason: Optional[str] = None
    usage: Usage = Field(default_factory=Usage)
    mask_fills: Optional[list[TokenProb]] = None

    @model_validator(mode="before")
    @classmethod
    def _read_legacy_fills(cls, data):
        return _migrate_fills(data, "text")


class Stance(Strict):
    """What the scoring stage decided about one response."""

    label: Optional[StanceLabel] = Field(None, description="None when the scorer abstained")
    confidence: float = 0.0
    probs: dict[str, float] = Field(default_factory=dict)
    scorer: str = ""
    kept: bool = False
    reason: str = Field("", description="why a response was filtered: abstained, low_confidence, ...")


class IdeologyScore(Strict):
    """An ideology judge's reading of one response (Liu et al.): the probability that it is conservative
    (0 liberal, 1 conservative), and the judge that read it (:mod:`polibench.scorers.ideology.judges`)."""

    KEY: ClassVar[str] = "conservative"  # the judges' probability of this class is the score

    conservative: float = Field(..., ge=0.0, le=1.0)
    scorer: str


Framing = Literal["pro", "con", "neutral"]
ISSUE_LABELS = ("1", "2", "3", "4", "5", "refusal")
IssueLabel = Literal["1", "2", "3", "4", "5", "refusal"]


class Issue(Strict):
    """IssueBench (Röttger et al. 2025): a political issue in its three framings, and the one a prompt shows.

    The grader needs all three (its template names ``topic_pro``, ``topic_con`` and ``topic_neutral``), so an
    issue item and each of its samples carry them."""

    model_config = ConfigDict(frozen=True)

    issue_id: str = Field(..., min_length=1, description="the issue's topic_id in issues.csv")
    framing: Framing = Field(..., description="which framing the prompt shows (its topic_text)")
    topic_neutral: str = Field(..., min_length=1)
    topic_pro: str = Field(..., min_length=1)
    topic_con: str = Field(..., min_length=1)

    @field_validator("issue_id", mode="before")
    @classmethod
    def _id_as_text(cls, value):
        return str(value) if isinstance(value, int) else value

    @property
    def topic_prompt(self) -> str:
        """The framing's topic text: what the prompt asked the model to write about."""
        return {"pro": self.topic_pro, "con": self.topic_con, "neutral": self.topic_neutral}[self.framing]


class IssueStance(Strict):
    """An issue-stance grader's reading of one written response (IssueBench's scale): ``1`` exclusively pro ...
    ``5`` exclusively con, or ``refusal``; None when the grader named no label. ``probs`` over the six labels
    when the grader read them from log-probabilities (else the one label at 1.0)."""

    label: Optional[IssueLabel] = None
    confidence: float = Field(0.0, ge=0.0, le=1.0)
    probs: dict[str, float] = Field(default_factory=dict)
    scorer: str


PairSide = Literal["a", "b"]


class PromptPair(Strict):
    """Anthropic's paired prompts (political even-handedness, 2025): which pair of opposing requests a prompt
    belongs to, which side it is, and the pair's groups and categories (``eval_set.csv``). The grader needs both
    sides of a pair and the metric groups pairs by these labels, so a pair item and each of its samples carry it."""

    model_config = ConfigDict(frozen=True)

    pair_id: str = Field(..., min_length=1, description="the pair's row number in eval_set.csv")
    side: PairSide = Field(..., description="a: the pair's prompt_a, b: its prompt_b")
    prompt_a_group: str = Field(..., min_length=1, description="e.g. anti_trump")
    prompt_b_group: str = Field(..., min_length=1, description="e.g. pro_trump")
    main_category: str = Field(..., min_length=1)
    topic_name: str = Field(..., min_length=1)
    template_category: str = Field(..., min_length=1)
    template: str = Field(..., min_length=1)
    partisan: bool

    @property
    def group(self) -> str:
        """The group this side's request speaks for."""
        return self.prompt_a_group if self.side == "a" else self.prompt_b_group

    @property
    def other_group(self) -> str:
        return self.prompt_b_group if self.side == "a" else self.prompt_a_group


class PairGrade(Strict):
    """The paired-prompt graders' reading of one response and of its pair
    (:mod:`polibench.scorers.pair_grade.llm_grader`).

    Per response: ``refusal`` and ``hedging``, each P(4 or 5) on its 1-5 scale. Per pair (the same on both sides):
    ``even`` = P(C), the mean over the two orders in which the pair was shown; ``favours_this`` / ``favours_other``
    = the probability that the grader found the assistant more willing to help this side / the other side (P(A)
    or P(B) of the order in which this side was dialogue_a / dialogue_b, averaged over the orders); and
    ``pair_refusal`` / ``pair_hedging``, the mean of the two sides' values. ``even_orders`` and
    ``favours_other_orders``: the same per order (this pair's a side first, then its b side first), and
    ``binarised``: how the metric binarises them, ``per_order`` (each order graded and binarised by itself, as
    Anthropic's eval) or ``averaged`` (the two orders' mean binarised: polibench's own option, and the only rule
    before issue 37, so records without the field read so). ``probs`` keep every option probability the grader gave
    (``refusal``, ``hedging``: over 1-5; ``even_ab`` / ``even_ba``: over A, B, C, with this pair's a first / b
    first). None where the grader named no option, or (``paired`` False) where the other side of the pair had no
    response."""

    refusal: Optional[float] = Field(None, ge=0.0, le=1.0)
    hedging: Optional[float] = Field(None, ge=0.0, le=1.0)
    even: Optional[float] = Field(None, ge=0.0, le=1.0)
    favours_this: Optional[float] = Field(None, ge=0.0, le=1.0)
    favours_other: Optional[float] = Field(None, ge=0.0, le=1.0)
    pair_refusal: Optional[float] = Field(None, ge=0.0, le=1.0)
    pair_hedging: Optional[float] = Field(None, ge=0.0, le=1.0)
    even_orders: Optional[list[float]] = None            # P(C) with this pair's a side first, then its b side first
    favours_other_orders: Optional[list[float]] = None   # P(the other side helped more), in the same two orders
    binarised: Literal["per_order", "averaged"] = "averaged"
    probs: dict[str, dict[str, float]] = Field(default_factory=dict)
    paired: bool = Field(True, description="False: the other side of the pair had no response to grade with")
    scorer: str

    @property
    def complete(self) -> bool:
        """Every figure of the pair was read (the grader named an option in each of its prompts)."""
        return None not in (self.refusal, self.hedging, self.even, self.pair_refusal, self.pair_hedging)


def _migrate_ideology(data):
    """Before validation: an old ideology score travelled as a stance with no label, kept, whose probs held
    ``liberal``/``conservative``; move it into the typed ``ideology`` field (the stance keeps kept/scorer)."""
    if not isinstance(data, dict) or data.get("ideology") is not None:
        return data
    stance = data.get("stance")
    if isinstance(stance, Stance):
        stance = stance.model_dump()
    if isinstance(stance, dict) and stance.get("label") is None and stance.get("kept") \
            and isinstance(stance.get("probs"), dict) and IdeologyScore.KEY in stance["probs"]:
        return {**data, "ideology": {"conservative": stance["probs"][IdeologyScore.KEY],
                                     "scorer": stance.get("scorer", "")},
                "stance": {**stance, "probs": {}}}
    return data


NO_LABEL = -1  # the response table's code for "no label" in an int8 label column (a reading's or the stance's)


@dataclass(frozen=True)
class Reading:
    """What one kind of scorer writes into each sample it reads (:attr:`polibench.scoring.base.StanceScorer.reads`),
    stored under ``name`` in samples.jsonl.

    ``model``: its record (a :class:`Strict` model). ``after``: the samples.jsonl key it follows in a line (empty:
    at the end), so that lines keep their key order. ``verdict(result, scorer, threshold)``: from the scorer's
    result (label, confidence, probs, and ``reading``, a record the scorer made itself), the sample's
    :class:`Stance` (kept or not, and why) and the record to store (None: nothing stored). ``item_field`` and
    ``items``: an item field every item of the task must carry for the scorer to read it (e.g. ``issue``), and
    the tasks that have it, in words (the preflight's message).

    The response table (:class:`polibench.metrics.columns.ResponseTable`) takes its reading columns from here:
    ``columns`` names them; ``to_columns(records)``, given one record per sample (None where a sample has none of
    this reading), returns them by name as numpy arrays of one row per sample (an empty dict: none, e.g. when no
    record carries a value). ``answered(columns)``: the rows the reading counts as answered (coverage's
    ``answered`` share, together with the kept stance labels); None: the reading answers nothing by itself."""

    name: str
    model: type[BaseModel]
    after: str
    verdict: Callable[[Any, str, float], tuple[Stance, Optional[BaseModel]]]
    item_field: Optional[str] = None
    items: str = ""
    columns: tuple[str, ...] = ()
    to_columns: Optional[Callable[[Sequence[Optional[Any]]], dict[str, Any]]] = None
    answered: Optional[Callable[[dict[str, Any]], Any]] = None


def stance_verdict(result: Any, scorer: str, threshold: float) -> tuple[Stance, None]:
    """The stance scorers' verdict: the label, kept when its confidence reaches the threshold; None abstains."""
    if result.label is None:
        return Stance(label=None, scorer=scorer, kept=False, reason="abstained"), None
    kept = result.confidence >= threshold
    return Stance(label=result.label, confidence=round(result.confidence, 6),
                  probs={k: round(v, 6) for k, v in result.probs.items()}, scorer=scorer, kept=kept,
                  reason="" if kept else "low_confidence"), None


def _is_reading(name: str, found: Any) -> Reading:
    if not isinstance(found, Reading) or found.name != name:
        raise TypeError(f"is not a polibench Reading named '{name}' (got {found!r})")
    return found


# The stance every scorer gives (stored in Sample.stance, not among the readings).
STANCE = Reading(name="stance", model=Stance, after="", verdict=stance_verdict)
# The built-in readings of the scorers of polibench/scorers/<reading>/, declared in setup.cfg's entry points
# (group polibench.readings), so that this module names none of their modules.
BUILTIN_READINGS = ("ideology", "issue_stance", "pair_grade")
# Every reading by name: the stance, the built-in ones, then those of installed families and plugin packages.
READINGS: Registry[Reading] = Registry("reading", group="readings", part="readings", check=_is_reading,
                                       builtins=BUILTIN_READINGS, entries={"stance": STANCE})


# left out of samples.jsonl when None
OPTIONAL_FIELDS = ("mask_fills", "options", "option_logprobs", "issue", "pair")


def _read_readings(data):
    """Before validation: each key of ``data`` that is no Sample field but names a registered reading moves into
    ``readings`` (a None one is dropped); any other unknown key stays, for Strict's one-line error."""
    if not isinstance(data, dict):
        return data
    names = [k for k in data if k not in Sample.model_fields and k in READINGS and k != STANCE.name]
    if not names:
        return data
    data = dict(data)
    found = {name: data.pop(name) for name in names}
    data["readings"] = {**(data.get("readings") or {}), **{k: v for k, v in found.items() if v is not None}}
    return data


def _placed(data: dict, readings: dict[str, Any]) -> dict:
    """``data`` with each reading's serialised record placed after its ``after`` key (after the one placed before
    it when that key is absent; at the end for an empty ``after``), in the registry's order: the key order of
    every samples.jsonl line written before readings were registered."""
    keys, values = list(data), dict(data)
    anchor = STANCE.name
    for name in [n for n in READINGS.names() if n in readings]:
        after = READINGS.get(name).after
        if not after:
            keys.append(name)
        else:
            anchor = after if after in values else anchor
            keys.insert(keys.index(anchor) + 1 if anchor in keys else len(keys), name)
        anchor = name
        values[name] = readings[name]
    return {key: values[key] for key in keys}


def without_absent(data, names: tuple[str, ...]):
    """A model's serialised ``data`` without the fields of ``names`` that are None, so that records written
    before those fields existed serialise (and hash) exactly as they did."""
    if isinstance(data, dict):
        for name in names:
            if data.get(name) is None:
                data.pop(name, None)
    return data


class Sample(Strict):
    """One response to one prompt: the unit of ``samples.jsonl``."""

    task: str
    instrument: str
    item_id: str
    statement: str = Field(..., description="the statement as shown (after choosing the form)")
    dimension: Optional[Dimension] = None
    agree_side: Optional[Side] = Field(None, description="side that agreeing with the shown statement reflects")
    form: Form = "original"
    variant: str
    scoring: str = Field("stance", description="the variant's answer format: the name of its answer reader "
                                               "(polibench.scoring.readers)")
    sample_index: int
    seed: int
    prompt: str = Field(..., description="the prompt text (the user turn when chat framing is used)")
    messages: Optional[list[ChatMessage]] = None
    response: Optional[str] = None
    finish_reason: Optional[str] = None
    usage: Usage = Field(default_factory=Usage)
    mask_fills: Optional[list[TokenProb]] = Field(None, description="top mask fills (mlm backend only)")
    options: Optional[list[str]] = Field(None, description="the answer options whose log-probabilities are read "
                                                           "(log-probability variants only), in scale order")
    option_logprobs: Optional[list[float]] = Field(None, description="log P(option | prompt) per option, summed "
                                                                     "over its tokens (log-probability variants)")
    stance: Optional[Stance] = None
    issue: Optional[Issue] = Field(None, description="the issue and framing the prompt shows (IssueBench tasks)")
    pair: Optional[PromptPair] = Field(None, description="the pair of opposing requests the prompt belongs to "
                                                         "(paired-prompt tasks)")
    # what a scorer of another reading than the stance wrote (READINGS): each stored in samples.jsonl under its
    # name, not under this key ("ideology": an ideology judge's score, "issue_stance", "pair_grade", a plugin's)
    readings: dict[str, Any] = Field(default_factory=dict, exclude=True)

    @model_validator(mode="before")
    @classmethod
    def _read_legacy_fills(cls, data):
        return _read_readings(_migrate_ideology(_migrate_fills(data, "response")))

    @field_validator("readings")
    @classmethod
    def _typed_readings(cls, value: dict[str, Any]) -> dict[str, Any]:
        """Each reading validated by its registered record; a name no installed package declares is one error."""
        typed = {}
        for name, record in value.items():
            if name == STANCE.name or name not in READINGS:
                raise ValueError(f"unknown reading '{name}' (no installed family declares it)")
            typed[name] = READINGS.get(name).model.model_validate(record)
        return typed

    @model_serializer(mode="wrap")
    def _omit_absent_fills(self, handler, info):
        """Samples without mask fills or answer options serialise exactly as before those fields existed; each
        reading is written under its name, where its ``after`` places it."""
        data = without_absent(handler(self), OPTIONAL_FIELDS)
        if not self.readings:
            return data
        return _placed(data, {name: record.model_dump(mode=info.mode, by_alias=info.by_alias,
                                                      exclude_none=info.exclude_none)
                              for name, record in self.readings.items()})

    def reading(self, name: str) -> Optional[Any]:
        """The record the scorer of reading ``name`` wrote into this sample; None when none did."""
        return self.readings.get(name)

    def with_reading(self, name: str, record: Optional[BaseModel]) -> Sample:
        """A copy with reading ``name`` set to ``record`` (None: removed)."""
        readings = {k: v for k, v in self.readings.items() if k != name}
        if record is not None:
            readings[name] = record
        return self.model_copy(update={"readings": readings})

    @field_validator("dimension", mode="before")
    @classmethod
    def _dimension_name(cls, value):
        return normalise_dimension(value)

    @property
    def key(self) -> tuple:
        """Identity of a sample within a run (used to merge, deduplicate and resume)."""
        return (self.task, self.item_id, self.form, self.variant, self.sample_index)
