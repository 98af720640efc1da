"""The one typed record that flows between stages, and the settings that travel with it.

A :class:`Sample` is born in request building (prompt and seed filled in), gets its ``response`` from a
model backend, its ``stance`` from the scoring stage, and is then read by the metrics. Each stage returns
new records (``model_copy(update=...)``); no stage edits another stage's fields. ``samples.jsonl`` is
these records, one JSON object per line, so every number in ``results.json`` can be recomputed from it.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict, Field

StanceLabel = Literal["agree", "disagree", "neutral", "unrelated"]
Side = Literal["left", "right"]
Dimension = Literal["economic", "cultural"]
Form = Literal["original", "reformulation", "opposite"]


class GenerationSettings(BaseModel):
    """How to sample: shared by every request of a task."""

    model_config = ConfigDict(extra="forbid")

    samples: int = Field(10, ge=1, description="responses per prompt")
    max_new_tokens: int = Field(100, ge=1)
    temperature: float = Field(1.0, ge=0.0, description="0 means greedy decoding")
    top_k: Optional[int] = Field(None, ge=1)
    top_p: Optional[float] = Field(None, gt=0.0, le=1.0)
    seed: int = 1234
    stop: list[str] = Field(default_factory=list)


class ChatMessage(BaseModel):
    model_config = ConfigDict(extra="forbid")

    role: Literal["system", "user", "assistant"]
    content: str


class Usage(BaseModel):
    """Token counts a backend reports for one response (None where it cannot tell)."""

    prompt_tokens: Optional[int] = None
    completion_tokens: Optional[int] = None


class Stance(BaseModel):
    """What the scoring stage decided about one response."""

    label: Optional[StanceLabel] = Field(None, description="None when the scorer abstained")
    confidence: float = 0.0
    probs: dict[str, float] = Field(default_factory=dict)
    scorer: str = ""
    kept: bool = False
    reason: str = Field("", description="why a response was filtered: abstained, low_confidence, ...")


class Sample(BaseModel):
    """One response to one prompt: the unit of ``samples.jsonl``."""

    model_config = ConfigDict(extra="forbid")

    task: str
    instrument: str
    item_id: str
    statement: str = Field(..., description="the statement as shown (after choosing the form)")
    dimension: Optional[Dimension] = None
    agree_side: Optional[Side] = Field(None, description="side that agreeing with the shown statement reflects")
    form: Form = "original"
    variant: str
    scoring: Literal["stance", "likert"] = "stance"
    sample_index: int
    seed: int
    prompt: str = Field(..., description="the prompt text (the user turn when chat framing is used)")
    messages: Optional[list[ChatMessage]] = None
    response: Optional[str] = None
    finish_reason: Optional[str] = None
    usage: Usage = Field(default_factory=Usage)
    stance: Optional[Stance] = None

    @property
    def key(self) -> tuple:
        """Identity of a sample within a run (used to merge, deduplicate and resume)."""
        return (self.task, self.item_id, self.form, self.variant, self.sample_index)
