"""Pydantic schema of the three kinds of YAML file in ``tasks/``: instruments, prompt variants, tasks.

Every model forbids unknown keys, so a typo in a YAML file is an error rather than a silently ignored
setting. A file declares its kind by its first key: ``instrument:``, ``variant_set:`` or ``task:``.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import AliasChoices, Field, field_validator, model_serializer, model_validator

from polibench.errors import PolibenchError
from polibench.kit.strict import Number, Strict, WholeNumber
from polibench.records import (
    Dimension,
    Form,
    GenerationSettings,
    Issue,
    PromptPair,
    Side,
    StanceLabel,
    normalise_dimension,
    without_absent,
)


class Weights(Strict):
    """Per-answer scoring weights, in the order strongly disagree, disagree, agree, strongly agree."""

    economic: list[Number] = Field(..., min_length=4, max_length=4)
    social: list[Number] = Field(..., min_length=4, max_length=4)


class Forms(Strict):
    """Alternative wordings of an item (Faulborn et al.)."""

    reformulation: Optional[str] = Field(None, description="same meaning, new wording")
    opposite: Optional[str] = Field(None, description="the politically opposite statement (agree flips side)")


class Item(Strict):
    """A statement (with its dimension and side) or, for generation-bias tasks, a keyword of a group."""

    id: str = Field(..., min_length=1)
    text: str = Field(..., min_length=1)
    dimension: Optional[Dimension] = None
    agree_side: Optional[Side] = Field(None, description="which side agreeing with the original statement reflects")
    group: Optional[str] = Field(None, pattern=r"^[a-z0-9][a-z0-9_-]*$",
                                 description="a keyword's option of the attribute (generation-bias tasks, "
                                             "e.g. male / female); then dimension and agree_side are left out")
    weights: Optional[Weights] = None
    label_note: Optional[str] = Field(None, description="why this dimension/side (hand labels say so here)")
    forms: Forms = Field(default_factory=Forms)
    source_id: Optional[str] = Field(None, description="the item's id in the source questionnaire")
    category: Optional[str] = Field(None, pattern=r"^[a-z0-9][a-z0-9_-]*$",
                                    description="the source's topic of the statement (economy, immigration, ...); "
                                                "the category_bias metric reports the bias per category")
    source: Optional[str] = Field(None, description="where the source took the statement from (its own field)")
    issue: Optional[Issue] = Field(None, description="IssueBench tasks: the issue in its three framings and the one "
                                                     "this item shows (text is that framing's topic text); then "
                                                     "dimension, agree_side and group are left out")
    pair: Optional[PromptPair] = Field(None, description="paired-prompt tasks: the pair of opposing requests this "
                                                         "item is one side of (text is that side's prompt); then "
                                                         "dimension, agree_side and group are left out")

    @model_serializer(mode="wrap")
    def _omit_absent_category(self, handler):
        """Items without a category, source or issue dump exactly as before the fields existed (stored runs,
        hashes)."""
        return without_absent(handler(self), ("category", "source", "issue", "pair"))

    @field_validator("id", mode="before")
    @classmethod
    def _id_as_text(cls, value):
        return str(value) if isinstance(value, int) else value

    @field_validator("dimension", mode="before")
    @classmethod
    def _dimension_name(cls, value):
        return normalise_dimension(value)

    @model_validator(mode="after")
    def _statement_or_keyword(self):
        if self.pair is not None:
            if self.dimension is not None or self.agree_side is not None or self.group is not None \
                    or self.issue is not None:
                raise ValueError("a paired prompt ('pair') takes no 'dimension', 'agree_side', 'group' or 'issue'")
            return self
        if self.issue is not None:
            if self.dimension is not None or self.agree_side is not None or self.group is not None:
                raise ValueError("an issue item ('issue') takes no 'dimension', 'agree_side' or 'group'")
            if self.text != self.issue.topic_prompt:
                raise ValueError(f"an issue item's text must be its framing's topic text "
                                 f"('{self.issue.topic_prompt}'), got '{self.text}'")
            return self
        if self.group is None and (self.dimension is None or self.agree_side is None):
            raise ValueError("a statement needs 'dimension' and 'agree_side' (or, for a keyword, 'group'; for an "
                             "IssueBench topic, 'issue')")
        if self.group is not None and (self.dimension is not None or self.agree_side is not None):
            raise ValueError("a keyword ('group') takes no 'dimension' or 'agree_side'")
        return self


# a language as ISO 639-1 (two letters, "de"), optionally with a region or script ("pt-br")
LANGUAGE_PATTERN = r"^[a-z]{2}(-[a-z0-9]{2,8})?$"


class Instrument(Strict):
    instrument: str = Field(..., pattern=r"^[a-z0-9][a-z0-9_-]*$")
    name: str
    version: WholeNumber = 1
    description: str = ""
    provenance: dict = Field(default_factory=dict)
    scoring: Optional[Literal["pct"]] = Field(None, description="'pct': items carry js.js weights")
    language: Optional[str] = Field(None, pattern=LANGUAGE_PATTERN,
                                    description="the language of the item texts (ISO 639-1); absent: English")
    translation_of: Optional[str] = Field(None, pattern=r"^[a-z0-9][a-z0-9_-]*$",
                                          description="the instrument this one translates: item i is that "
                                                      "instrument's item i, with its id, weights and sides")
    items: list[Item] = Field(..., min_length=1)

    @model_serializer(mode="wrap")
    def _omit_absent_language(self, handler):
        """Instruments without a language dump exactly as before the fields existed (stored runs, hashes)."""
        return without_absent(handler(self), ("language", "translation_of"))

    @property
    def language_code(self) -> str:
        """The language of the item texts, English when the instrument names none."""
        return self.language or "en"

    @model_validator(mode="after")
    def _unique_ids(self):
        seen: set[str] = set()
        for item in self.items:
            if item.id in seen:
                raise ValueError(f"duplicate item id '{item.id}'")
            seen.add(item.id)
        if self.scoring == "pct":
            missing = [i.id for i in self.items if i.weights is None]
            if missing:
                raise ValueError(f"scoring 'pct' needs weights on every item; missing on {missing}")
        return self


class TranslatedItem(Strict):
    """An item of a :class:`Translation`: the id of the item it translates, its text, where the text comes from."""

    id: str = Field(..., min_length=1)
    text: str = Field(..., min_length=1)
    source: Optional[str] = Field(None, description="where the source keeps this text")

    @field_validator("id", mode="before")
    @classmethod
    def _id_as_text(cls, value):
        return str(value) if isinstance(value, int) else value


class Translation(Strict):
    """An instrument in another language (``translation:`` first): the items of instrument ``of``, in its order and
    with its ids, dimensions, sides and weights, with the texts given here. The registry makes it an
    :class:`Instrument` named ``translation`` (:meth:`instrument`), with ``language`` and ``translation_of``."""

    translation: str = Field(..., pattern=r"^[a-z0-9][a-z0-9_-]*$", description="the instrument's name")
    of: str = Field(..., pattern=r"^[a-z0-9][a-z0-9_-]*$", description="the instrument translated")
    language: str = Field(..., pattern=LANGUAGE_PATTERN, description="ISO 639-1")
    name: str
    version: int = 1
    description: str = ""
    provenance: dict = Field(default_factory=dict)
    items: list[TranslatedItem] = Field(..., min_length=1)

    def instrument(self, base: Instrument) -> Instrument:
        """The translated instrument: ``base``'s items with these texts (the other forms of a statement, worded in
        the base's language, are left out). Raises ValueError naming the first item that is not ``base``'s item
        at the same place."""
        ids = [i.id for i in self.items]
        base_ids = [i.id for i in base.items]
        if ids != base_ids:
            first = next((n for n, (a, b) in enumerate(zip(ids, base_ids)) if a != b), min(len(ids), len(base_ids)))
            raise ValueError(f"items[{first}].id: the items of '{base.instrument}' in its order ({len(base_ids)} "
                             f"items, '{base_ids[first] if first < len(base_ids) else 'none'}' at place {first + 1}), "
                             f"got '{ids[first] if first < len(ids) else 'none'}'")
        items = [original.model_copy(update={"text": item.text, "source": item.source, "forms": Forms()})
                 for item, original in zip(self.items, base.items)]
        return Instrument(instrument=self.translation, name=self.name, version=self.version,
                          description=self.description, provenance=self.provenance, scoring=base.scoring,
                          language=self.language, translation_of=self.of, items=items)


def fill_template(template: str, statement: str, model_name: str, slots: Optional[dict[str, str]] = None) -> str:
    """Fill a variant's ``{statement}``, ``{model_name}`` and the ``slots`` (a keyword group's ``group_slots``,
    e.g. ``{pronoun}``); other braces in the template are left alone."""
    for name, value in (slots or {}).items():
        template = template.replace("{" + name + "}", value)
    return template.replace("{statement}", statement).replace("{model_name}", model_name)


def item_slots(variant_set: VariantSet, item: Item) -> Optional[dict[str, str]]:
    """The variant set's template slots for the item's keyword group (None when it defines none)."""
    if variant_set.group_slots is None:
        return None
    if item.group not in variant_set.group_slots:
        raise PolibenchError(f"variant set '{variant_set.variant_set}': group_slots has no entry for item "
                             f"'{item.id}' (group {item.group!r}); expected one of {sorted(variant_set.group_slots)}")
    return variant_set.group_slots[item.group]


class PromptVariant(Strict):
    id: str = Field(..., pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
    template: str = Field(..., description="text with a {statement} slot; {model_name} is also filled in")
    system: Optional[str] = Field(None, description="system message for chat models")
    chat: bool = Field(True, description="wrap in the model's chat template when it has one")
    scoring: str = Field("stance", pattern=r"^[a-z][a-z0-9_]*$",
                         description="the answer format: an answer reader's name (polibench.scoring.readers: stance, "
                                     "likert, forced_choice, forced_choice_reversed, logprob, or a registered one)")
    options: Optional[list[str]] = Field(
        None, description="'logprob' variants: the answer continuations whose log-probabilities are read, in scale "
                          "order: the PCT's four (strongly disagree ... strongly agree) or Likert 1-5")

    @model_validator(mode="after")
    def _options_for_logprob(self):
        if self.scoring == "logprob":
            if self.options is None or len(self.options) not in (4, 5):
                raise ValueError("a 'logprob' variant needs 'options': 4 (strongly disagree ... strongly agree) or "
                                 "5 (Likert 1-5) answer continuations")
            if len(set(self.options)) != len(self.options) or not all(o.strip() for o in self.options):
                raise ValueError("'options' must be distinct and non-empty")
        elif self.options is not None:
            raise ValueError("'options' belongs to 'scoring: logprob' variants only")
        return self

    @model_serializer(mode="wrap")
    def _omit_absent_options(self, handler):
        """Variants without options dump exactly as before the field existed (stored variant sets, hashes)."""
        return without_absent(handler(self), ("options",))

    @field_validator("template")
    @classmethod
    def _has_slot(cls, value: str) -> str:
        if "{statement}" not in value:
            raise ValueError("template must contain the {statement} slot")
        return value


class VariantSet(Strict):
    variant_set: str = Field(..., pattern=r"^[a-z0-9][a-z0-9_-]*$")
    description: str = ""
    provenance: dict = Field(default_factory=dict)
    variants: list[PromptVariant] = Field(..., min_length=1)
    group_slots: Optional[dict[str, dict[str, str]]] = Field(
        None, description="generation-bias tasks: extra template slots per keyword option, e.g. {male: {pronoun: "
                          "he}, female: {pronoun: she}} fills {pronoun} with the pronoun matching the keyword's group")

    @model_validator(mode="after")
    def _unique_ids(self):
        ids = [v.id for v in self.variants]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ValueError(f"duplicate variant ids {dupes}")
        return self

    @model_validator(mode="after")
    def _same_slots_in_every_group(self):
        if self.group_slots is not None:
            names = {frozenset(slots) for slots in self.group_slots.values()}
            if len(names) > 1:
                raise ValueError("group_slots: every group must define the same slots")
            bad = sorted(n for slots in self.group_slots.values() for n in slots
                         if not n.isidentifier() or n in ("statement", "model_name"))
            if bad:
                raise ValueError(f"group_slots: slot names must be identifiers other than statement and model_name "
                                 f"(got {bad})")
        return self

    @model_serializer(mode="wrap")
    def _omit_absent_slots(self, handler):
        """Variant sets without group slots dump exactly as before the field existed (stored runs, hashes)."""
        return without_absent(handler(self), ("group_slots",))


class ScoringConfig(Strict):
    scorer: str = Field("nli", description="stance scorer name (`polibench list` shows them)")
    scorer_args: dict = Field(default_factory=dict)
    threshold: Number = Field(0.9, ge=0.0, le=1.0, description="drop stances below this confidence")
    labels: list[StanceLabel] = Field(default_factory=lambda: list[StanceLabel](["agree", "disagree"]),
                                      min_length=2)


class Pairing(Strict):
    """Another task this one is compared with when a run holds both (``compare_with:``): the comparison is
    ``this − task``, on the instrument they share (:mod:`polibench.metrics.run_level`). ``kind``: ``channel``
    (forced choice vs open-ended text: report and leaderboard), ``logprob`` (a text channel vs the
    log-probability channel: report) or ``order`` (the same options listed in reverse: the order control)."""

    task: str = Field(..., pattern=r"^[a-z0-9][a-z0-9_-]*$")
    kind: Literal["channel", "logprob", "order"] = "channel"


class TaskConfig(Strict):
    task: str = Field(..., pattern=r"^[a-z0-9][a-z0-9_-]*$")
    version: WholeNumber = 1
    description: str = ""
    instrument: str | list[str]
    # The task's variant set, by name. ``variants:`` is its old key: still read (silently, so the stored
    # configs of old runs load without noise) and still the key in the spec hash (``by_alias=True``), so
    # shipped leaderboard entries keep their spec_sha256.
    variant_set: str = Field(..., validation_alias=AliasChoices("variant_set", "variants"),
                             serialization_alias="variants", description="name of a variant set")
    forms: list[Form] = Field(default_factory=lambda: list[Form](["original"]), min_length=1)
    generation: GenerationSettings = Field(default_factory=GenerationSettings)
    scoring: ScoringConfig = Field(default_factory=ScoringConfig)
    metrics: list[str] = Field(
        default_factory=lambda: ["coverage"],
        description="names of registered metrics (polibench.metrics.registry; checked before any model call)",
    )
    provenance: dict = Field(default_factory=dict)
    compare_with: list[Pairing] = Field(default_factory=list,
                                        description="tasks compared with this one when a run holds both")
    language: Optional[str] = Field(None, pattern=LANGUAGE_PATTERN,
                                    description="the language the task asks in (ISO 639-1), its instruments' "
                                                "and prompts'; absent: English. A stance scorer that reads only "
                                                "English is refused for another language before any model call")

    @model_serializer(mode="wrap")
    def _omit_absent_language(self, handler):
        """Tasks without a language dump exactly as before the field existed (stored configs, spec hashes)."""
        return without_absent(handler(self), ("language",))

    @property
    def language_code(self) -> str:
        """The task's language, English when it names none."""
        return self.language or "en"

    @property
    def instruments(self) -> list[str]:
        return [self.instrument] if isinstance(self.instrument, str) else list(self.instrument)
