"""Downstream-fairness results on the leaderboard, verifiable like the compass entries.

``polibench fairness submit EVAL_JSON --name NAME`` packs an evaluation document (the output of
``polibench fairness eval``) with the test predictions it was computed from, recomputes the document from
the packed predictions, refuses it when any number differs, and writes to ``leaderboard/fairness/``:

- ``<name>.json``: the submission (:class:`FairnessSubmission`: name, note, dates, the document itself);
- ``<name>.predictions.jsonl.gz``: one line per seed run, ``{"run": <run.json>, "predictions": [<rows>]}``,
  with the SHA-256 of its uncompressed bytes in the submission.

``polibench leaderboard verify`` unpacks the predictions again and recomputes the document with the
settings it records (bootstrap resamples and seed, interval level, reference model, ensembles).
"""

from __future__ import annotations

import copy
import datetime as _dt
import json
import re
import tempfile
from pathlib import Path
from typing import Literal, Optional, Sequence

from pydantic import Field

from polibench import __version__
from polibench.errors import PolibenchError
from polibench.fairness.document import load_document, parse_document
from polibench.fairness.evaluate import evaluate
from polibench.fairness.runs import seed_folders
from polibench.fairness.train import PREDICTIONS, RUN
from polibench.kit.files import atomic_write_text
from polibench.kit.jsonl import iter_jsonl, line_error
from polibench.kit.strict import validated
from polibench.leaderboard.artifacts import gzip_bytes, read_artifact
from polibench.leaderboard.schema import Artifact, Strict, json_files, read_json
from polibench.leaderboard.verify import FAILED, VERIFIED, Outcome
from polibench.results.check import describe, differences

FORMAT = "polibench-fairness-submission"
DEFAULT_FAIRNESS = "leaderboard/fairness"
NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$"
VOLATILE = ("generated", "polibench_version")  # not recomputable: when and with what it was evaluated


class FairnessSubmission(Strict):
    format: Literal["polibench-fairness-submission"] = FORMAT
    version: Literal[1] = 1
    name: str = Field(..., pattern=NAME_PATTERN, description="the file name without .json")
    note: str = Field("", max_length=2000, description="what was evaluated: data, checkpoints, caveats")
    submitted: str = Field(..., description="when the submission was made (UTC, ISO 8601)")
    polibench_version: str
    n_runs: int = Field(..., ge=1, description="seed runs packed in the predictions file")
    predictions: Artifact
    document: dict = Field(..., description="the `polibench fairness eval` document")

    def models(self) -> list[str]:
        return sorted({m for task in self.document["tasks"].values() for m in task["models"]})


def comparable(document: dict) -> dict:
    """The document without what a recomputation cannot reproduce (dates, versions, run folder paths)."""
    out = {k: v for k, v in copy.deepcopy(document).items() if k not in VOLATILE}
    for task in out.get("tasks", {}).values():
        for block in task.get("models", {}).values():
            block.pop("runs", None)
    return out


def recompute(document: dict, run_root: Path) -> dict:
    """Evaluate the runs under ``run_root`` with the settings ``document`` records."""
    settings = document.get("settings", {})
    ensembles = {}
    for task in document.get("tasks", {}).values():
        for name, ensemble in task.get("ensembles", {}).items():
            ensembles[name] = list(ensemble["members"])
    try:
        return evaluate([run_root], reference=settings.get("reference"), ensembles=list(ensembles.items()),
                        n_boot=int(settings["bootstrap"]), level=float(settings["ci_level"]),
                        alpha=float(settings["alpha"]), boot_seed=int(settings["bootstrap_seed"])).as_dict()
    except (KeyError, TypeError, ValueError) as exc:
        raise PolibenchError(f"the evaluation document lacks its settings ({exc!s:.120})") from None


def check(document: dict, run_root: Path) -> None:
    """Raise PolibenchError naming the first differences unless the runs reproduce ``document``."""
    diffs = differences(comparable(document), comparable(recompute(document, run_root)))
    if diffs:
        raise PolibenchError(f"the evaluation document disagrees with its predictions: {describe(diffs)}")


def pack(folders: Sequence[Path]) -> bytes:
    """The predictions file's bytes: one JSON line per seed folder, in a stable order."""
    lines = []
    for folder in sorted(folders, key=str):
        try:
            record = json.loads((folder / RUN).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise PolibenchError(f"{folder}: cannot read the run ({exc})") from None
        rows = [row for _, row in iter_jsonl(folder / PREDICTIONS)]
        lines.append(json.dumps({"run": record, "predictions": rows}, ensure_ascii=False, sort_keys=True))
    lines.sort()
    return ("\n".join(lines) + "\n").encode("utf-8")


def unpack(data: bytes, root: Path) -> int:
    """Write the packed runs as seed folders under ``root``; return how many."""
    n = 0
    for lineno, item in iter_jsonl(data, "packed predictions"):
        try:
            record, rows = item["run"], item["predictions"]
        except KeyError as exc:
            raise line_error("packed predictions", lineno, f"expected the keys 'run' and 'predictions' "
                                                           f"(missing {exc})") from None
        folder = root / f"run-{n:04d}"
        folder.mkdir(parents=True)
        (folder / RUN).write_text(json.dumps(record), encoding="utf-8")
        (folder / PREDICTIONS).write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        n += 1
    if not n:
        raise PolibenchError("the packed predictions hold no runs")
    return n


def listed_runs(document: dict) -> list[Path]:
    """Every seed folder the document says it evaluated (ensembles have none of their own)."""
    return sorted({Path(r) for task in document["tasks"].values() for block in task["models"].values()
                   for r in block.get("runs", [])}, key=str)


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


def submit(eval_json: Path, out_dir: Path, name: str, note: str = "", runs: Optional[Sequence[Path]] = None,
           force: bool = False) -> tuple[Path, FairnessSubmission]:
    """Check ``eval_json`` against its runs and write the submission (see the module docstring)."""
    if not re.match(NAME_PATTERN, name):
        raise PolibenchError(f"--name '{name}': letters, digits, '.', '_' and '-' only (at most 100)")
    document = load_document(eval_json).as_dict()
    if runs:
        folders = seed_folders(runs)
    else:
        folders = listed_runs(document)
        missing = [str(f) for f in folders if not (f / RUN).is_file() or not (f / PREDICTIONS).is_file()]
        if missing or not folders:
            raise PolibenchError(f"{eval_json}: the run folders it lists are not all here "
                                 f"({', '.join(missing[:3]) or 'none listed'}); pass them with --runs")
    data = pack(folders)
    with tempfile.TemporaryDirectory(prefix="polibench-fairness-submit-") as tmp:
        n_runs = unpack(data, Path(tmp))
        check(document, Path(tmp))
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{name}.json"
    if path.exists() and not force:
        raise PolibenchError(f"{path} exists; pass --force to replace it")
    artifact = gzip_bytes(data, out_dir / f"{name}.predictions.jsonl.gz")
    submission = FairnessSubmission(name=name, note=note, submitted=_now(), polibench_version=__version__,
                                    n_runs=n_runs, predictions=artifact, document=document)
    atomic_write_text(path, json.dumps(submission.model_dump(mode="json"), indent=1, ensure_ascii=False) + "\n")
    return path, submission


def load_submission(path: Path) -> FairnessSubmission:
    """Read and validate one submission; its file name must be ``<name>.json``."""
    submission = validated(path, FairnessSubmission, read_json(path), "(submission)")
    parse_document(submission.document, f"{path}: field 'document'")
    if path.name != f"{submission.name}.json":
        raise PolibenchError(f"{path}: the file must be named {submission.name}.json")
    return submission


def submission_paths(folder: Path) -> list[Path]:
    return json_files(folder, "fairness submissions")


def load_submissions(folder: Path) -> list[FairnessSubmission]:
    return [load_submission(p) for p in submission_paths(folder)]


def check_submission(submission: FairnessSubmission, folder: Path) -> None:
    """Raise PolibenchError saying what differs unless the predictions shipped in ``folder`` reproduce
    every number of ``submission``."""
    if not (folder / submission.predictions.file).is_file():
        raise PolibenchError(f"{submission.predictions.file} is not in {folder}")
    data = read_artifact(folder, submission.predictions)
    with tempfile.TemporaryDirectory(prefix="polibench-fairness-verify-") as tmp:
        n_runs = unpack(data, Path(tmp))
        if n_runs != submission.n_runs:
            raise PolibenchError(f"the predictions hold {n_runs} runs, the submission says {submission.n_runs}")
        check(submission.document, Path(tmp))


def verify_submission(path: Path) -> Outcome:
    """The submission file at ``path`` re-checked against the predictions shipped beside it."""
    try:
        submission = load_submission(path)
        check_submission(submission, path.parent)
    except PolibenchError as exc:
        return Outcome(path, FAILED, str(exc))
    return Outcome(path, VERIFIED, f"{submission.n_runs} seed runs of {len(submission.models())} model(s) on "
                                   f"{', '.join(submission.document['tasks'])} reproduced")
