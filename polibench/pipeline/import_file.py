"""``polibench import``: turn responses generated elsewhere into a normal run folder.

The input is a JSONL or CSV file with one response per row:

- ``item`` (the instrument's item id), ``variant`` (the prompt variant id) and ``response`` (required);
- ``task`` (required when more than one task is imported), ``form`` (default ``original``), ``sample_index``
  (default 0), ``model`` (must agree with ``--model`` when both are given) and ``prompt``.

Each row becomes the :class:`~polibench.records.Sample` that ``polibench run`` would have built for that task,
item, form, variant and index, with the response filled in. :class:`ImportedResponses` is the file as a response
source of the run pipeline (:mod:`polibench.pipeline.run`): the samples are scored and written exactly as a run
scores and writes them, so ``score``, ``report``, ``compare`` and ``submit`` work on the folder unchanged. A ``prompt``
given in a row must be byte-identical to the task's prompt: a response to another prompt is not a response to
this task. Every check (unknown task, item or variant, a prompt that does not match, a duplicate row, a prompt
without a response) fails with one error naming the file and row in the preflight, before any scorer is loaded;
the file is read and matched once.

The run records where its responses came from in ``results.json`` (``run.imported``): the file name, its
SHA-256, the number of rows, the model and the source's citation and licence.
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from polibench.errors import PolibenchError
from polibench.hashing import file_sha256
from polibench.kit.jsonl import read_jsonl
from polibench.models.base import display_name
from polibench.pipeline.plan import RunOptions, RunPlan, build_samples
from polibench.pipeline.respond import Responses, StoredResponses
from polibench.records import Sample

REQUIRED = ("item", "variant", "response")
OPTIONAL = ("task", "form", "sample_index", "model", "prompt")
BACKEND = "imported"


@dataclass(frozen=True)
class Row:
    number: int  # 1-based: the CSV data row (the header not counted), or the JSONL line
    task: Optional[str]
    item: str
    variant: str
    form: str
    sample_index: int
    response: str
    model: Optional[str]
    prompt: Optional[str]


def read_rows(path: Path) -> list[Row]:
    """The rows of a .jsonl or .csv file, each checked for its fields (one error naming the row otherwise)."""
    try:
        data = path.read_bytes().decode("utf-8-sig")  # a byte-order mark (Windows editors write one) is accepted
    except FileNotFoundError:
        raise PolibenchError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise PolibenchError(f"{path}: not a readable UTF-8 file ({exc})") from None
    suffix = path.suffix.lower()
    if suffix == ".csv":
        reader = csv.DictReader(io.StringIO(data, newline=""))
        missing = [f for f in REQUIRED if f not in (reader.fieldnames or [])]
        if missing:
            raise PolibenchError(f"{path}: the CSV header lacks the column(s) {', '.join(missing)} "
                                 f"(expected {', '.join(REQUIRED)}, optionally {', '.join(OPTIONAL)})")
        raw = [(n, dict(r)) for n, r in enumerate(reader, start=1)]
    elif suffix in (".jsonl", ".json"):
        raw = read_jsonl(data.encode("utf-8"), path)  # a row is numbered by its line
    else:
        raise PolibenchError(f"{path}: expected a .jsonl or .csv file")
    if not raw:
        raise PolibenchError(f"{path}: no rows")
    return [_row(path, n, value) for n, value in raw]


def _row(path: Path, n: int, value: dict) -> Row:
    unknown = sorted(set(value) - set(REQUIRED) - set(OPTIONAL))
    if unknown:
        raise PolibenchError(f"{path}: row {n}: unknown field(s) {', '.join(unknown)} "
                             f"(expected {', '.join(REQUIRED)}, optionally {', '.join(OPTIONAL)})")
    for name in REQUIRED:
        if name not in value or value[name] is None:
            raise PolibenchError(f"{path}: row {n}: field '{name}' is missing (every row needs "
                                 f"{', '.join(REQUIRED)})")
        if not isinstance(value.get(name), str) or (name != "response" and not value[name]):
            raise PolibenchError(f"{path}: row {n}: field '{name}' must be a "
                                 f"{'string' if name == 'response' else 'non-empty string'}")
    index = value.get("sample_index")
    if index in (None, ""):
        index = 0
    try:
        index = int(index)
        if index < 0:
            raise ValueError
    except (TypeError, ValueError):
        raise PolibenchError(f"{path}: row {n}: field 'sample_index' must be a whole number >= 0 "
                             f"(got {value.get('sample_index')!r})") from None
    for name in ("task", "form", "model", "prompt"):
        if value.get(name) is not None and not isinstance(value[name], str):
            raise PolibenchError(f"{path}: row {n}: field '{name}' must be a string")
    return Row(number=n, task=value.get("task") or None, item=value["item"], variant=value["variant"],
               form=value.get("form") or "original", sample_index=index, response=value["response"],
               model=value.get("model") or None, prompt=value.get("prompt"))


def _first_difference(a: str, b: str) -> int:
    return next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))


def matched_samples(path: Path, rows: list[Row], plan: RunPlan,
                    model: Optional[str]) -> tuple[dict[str, list[Sample]], str]:
    """The samples of each task with the rows' responses filled in, and the model name; every check first."""
    tasks, task_names = plan.tasks, plan.task_names
    for task in tasks:
        if any(v.scoring == "logprob" for v in plan.variants(task)):
            raise PolibenchError(f"task '{task.task}' reads answer log-probabilities from the model "
                                 "(scoring: logprob); imported text responses cannot answer it")
    models = {r.model for r in rows if r.model}
    if model is None:
        if len(models) != 1:
            raise PolibenchError(f"{path}: give --model, or one 'model' value in every row "
                                 f"(found {len(models)}: {', '.join(sorted(models)[:3])})")
        model = models.pop()
    else:
        other = next((r for r in rows if r.model and r.model != model), None)
        if other is not None:
            raise PolibenchError(f"{path}: row {other.number}: model '{other.model}' is not --model '{model}'")
    by_task: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        name = row.task or (task_names[0] if len(task_names) == 1 else None)
        if name is None:
            raise PolibenchError(f"{path}: row {row.number}: no 'task' field, and more than one task is imported")
        if name not in task_names:
            raise PolibenchError(f"{path}: row {row.number}: task '{name}' is not among the imported tasks "
                                 f"({', '.join(task_names)})")
        by_task[name].append(row)
    out: dict[str, list[Sample]] = {}
    for task in tasks:
        task_rows = by_task.get(task.task, [])
        if not task_rows:
            raise PolibenchError(f"{path}: no rows for task '{task.task}'")
        n = max(r.sample_index for r in task_rows) + 1
        # {model_name} is filled as `polibench run` fills it (the display name), so the prompts are run's prompts
        samples = build_samples(task, plan, samples_per_prompt=n, model_name=display_name(model))
        slots: dict[tuple, int] = {(s.item_id, s.form, s.variant, s.sample_index): i for i, s in enumerate(samples)}
        items = {s.item_id for s in samples}
        variants = {s.variant for s in samples}
        responses: dict[int, Row] = {}
        for row in task_rows:
            if row.item not in items:
                raise PolibenchError(f"{path}: row {row.number}: item '{row.item}' is not an item of task "
                                     f"'{task.task}' (its items: {', '.join(sorted(items)[:3])}, ...)")
            if row.variant not in variants:
                raise PolibenchError(f"{path}: row {row.number}: variant '{row.variant}' is not a prompt variant "
                                     f"of task '{task.task}' (its variants: {', '.join(sorted(variants))})")
            slot = slots.get((row.item, row.form, row.variant, row.sample_index))
            if slot is None:
                raise PolibenchError(f"{path}: row {row.number}: form '{row.form}' is not a form of task "
                                     f"'{task.task}' (its forms: {', '.join(task.forms)})")
            if slot in responses:
                raise PolibenchError(f"{path}: row {row.number}: a second response to task '{task.task}' item "
                                     f"'{row.item}' form '{row.form}' variant '{row.variant}' sample "
                                     f"{row.sample_index} (the first is row {responses[slot].number})")
            expected = samples[slot].prompt
            if row.prompt is not None and row.prompt != expected:
                at = _first_difference(row.prompt, expected)
                raise PolibenchError(
                    f"{path}: row {row.number}: the prompt does not match task '{task.task}' item '{row.item}' "
                    f"variant '{row.variant}' (first difference at character {at}: the row has "
                    f"{row.prompt[at:at + 30]!r}, the task {expected[at:at + 30]!r})")
            responses[slot] = row
        if len(responses) != len(samples):
            first = next(s for i, s in enumerate(samples) if i not in responses)
            raise PolibenchError(f"{path}: task '{task.task}': {len(samples) - len(responses)} of {len(samples)} "
                                 f"prompts have no response (first: item '{first.item_id}' form '{first.form}' "
                                 f"variant '{first.variant}' sample {first.sample_index})")
        out[task.task] = [s.model_copy(update={"response": responses[i].response}) for i, s in enumerate(samples)]
    return out, model


class ImportedResponses(StoredResponses):
    """A file of responses made elsewhere as the run's response source: read and matched to the plan's prompts
    once, in :meth:`check`."""

    def __init__(self, path: Path, model: Optional[str] = None, citation: Optional[str] = None,
                 licence: Optional[str] = None):
        self.path, self.model, self.citation, self.licence = Path(path), model, citation, licence
        self._matched: Optional[tuple[dict[str, list[Sample]], str]] = None
        self._rows = 0

    def check(self, plan: RunPlan) -> None:
        rows = read_rows(self.path)
        self._matched, self._rows = matched_samples(self.path, rows, plan, self.model), len(rows)

    def respond(self, plan: RunPlan, options: RunOptions) -> Responses:
        if self._matched is None:
            self.check(plan)
        assert self._matched is not None
        samples, model = self._matched
        imported = {"file": self.path.name, "sha256": file_sha256(self.path), "rows": self._rows, "model": model,
                    "citation": self.citation, "licence": self.licence}
        return Responses(samples=samples, model={"backend": BACKEND, "model": model}, origin={"imported": imported})
