"""``issue`` scorer: an offline IssueBench stance grader (``1`` ... ``5`` or ``refusal``), trained on first use.

It labels a written response for its stance on an issue relative to the issue's ``topic_pro`` / ``topic_con`` /
``topic_neutral`` on the scale of IssueBench's grader template templ-5
(:mod:`polibench.scorers.issue_stance.llm_grader`), so
:mod:`polibench.families.issue_bias.metric` reads it like the LLM grader: ``polibench run --tasks issuebench-debug
--scorer issue``. It is the **offline fallback**: the paper's LLM grader (``issue_judge`` with a capable model) is
the validated path, and report.md says so when this reader graded a run. The model
(:mod:`polibench.scorers.issue_stance.model`, :data:`RECIPE`: frozen all-mpnet-base-v2 sentence embeddings, a
sentence-level side classifier read relative to the framings, a logistic-regression head over the response;
every response also read mirrored) is fit on the train and dev splits of polibench's two issue-stance gold sets
(``polibench/data/issue_stance``: the first, hand-composed set on 43 issues, and the model-voice set of issue
39), the first time it is needed, and cached under ``<cache_dir>/issue_stance/<encoder>-<key>``, where the key
hashes the training files, the recipe and the encoder's config. Concurrent processes wait on a lock file and
reuse the finished model. The run's plan says how long the training will take once this cache has recorded its
speed (:mod:`polibench.cache.speed`). :data:`RECIPE` had the best 3-way macro-F1 on the model-voice dev split
of the candidates that pass the planted control (``benchmarks/bench_issue_voice.py``,
tests/stance/test_issue_scorer.py); the figures are in docs/writing-bias.md. Version 3 moved the encoder from
MiniLM-L6 to all-mpnet-base-v2 (the ``mpnet`` extra; without it the hub id), on the dev comparison there.

``model=FOLDER`` (``--scorer-args``) uses a model saved elsewhere instead (tests use a tiny one).
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from pathlib import Path
from typing import Optional, Sequence

from tqdm import tqdm

from polibench.cache.speed import read_speed, record_speed
from polibench.errors import PolibenchError
from polibench.kit.files import cached_or_made, publish_folder
from polibench.models.eta import duration
from polibench.models.sentence_encoders import encoder_fingerprint, encoder_path
from polibench.paths import cache_dir, require_writable_cache
from polibench.records import ISSUE_LABELS, Sample
from polibench.scorers.issue_stance.data import IssueExample, gold_path, load_issue_examples
from polibench.scorers.issue_stance.model import MODEL_FILE, IssueStanceModel, train_model
from polibench.scoring.base import StanceResult, StanceScorer, first_use_training, require_issues

RECIPE = {"fit": {"kind": "two-stage", "sentence_c": 0.3, "head_c": 0.1, "embeddings": True}, "encoder": "mpnet",
          "train_splits": ["train", "dev", "voice-train", "voice-dev"], "version": 3}
ENCODER_NAMES = {"minilm": "MiniLM-L6", "mpnet": "all-mpnet-base-v2"}


def recipe_encoder() -> str:
    """The loading path of the recipe's encoder (see :mod:`polibench.models.sentence_encoders`)."""
    return encoder_path(str(RECIPE["encoder"]), "the offline issue-stance scorer")


def default_key() -> str:
    digest = hashlib.sha256()
    for split in RECIPE["train_splits"]:  # type: ignore[union-attr]
        digest.update(gold_path(str(split)).read_bytes())
    digest.update(json.dumps(RECIPE, sort_keys=True).encode())
    digest.update(encoder_fingerprint(recipe_encoder()))
    return digest.hexdigest()


def default_model_dir(key: Optional[str] = None) -> Path:
    """The cache folder of the default model (``key``: :func:`default_key`, when the caller has it already)."""
    return cache_dir() / "issue_stance" / f"{RECIPE['encoder']}-{(key or default_key())[:16]}"


def training_examples() -> list[IssueExample]:
    return [e for split in RECIPE["train_splits"] for e in load_issue_examples(f"gold:{split}")]  # type: ignore


SPEED_KEY = "train:issue-stance:" + hashlib.sha256(json.dumps(RECIPE, sort_keys=True).encode()).hexdigest()[:16]


def training_plan(n_train: int) -> str:
    """The first-use line of the run's plan: what is trained and its ETA (from this cache's record of the
    recipe's speed: seconds per gold response, embedding and fit included)."""
    speed = read_speed(SPEED_KEY)
    eta = (f"ETA about {duration(speed.seconds * n_train)} ({speed.describe('response')})" if speed is not None
           else "no training speed recorded in this cache yet (it embeds every sentence once)")
    return (f"the offline issue-stance scorer is trained once, on first use: "
            f"{ENCODER_NAMES.get(str(RECIPE['encoder']), RECIPE['encoder'])} sentence embeddings of "
            f"{n_train} gold responses + logistic regression; {eta}")


def ensure_default_model() -> IssueStanceModel:
    """The default model, trained first if this cache does not hold it yet."""
    key = default_key()

    def make(folder: Path) -> IssueStanceModel:
        train = training_examples()
        print(f"polibench: {training_plan(len(train))}; cached in {folder}", file=sys.stderr, flush=True)
        started = time.perf_counter()
        with tqdm(desc="issue-stance scorer: embedding its gold texts", unit="text", file=sys.stderr) as bar:
            model = train_model(recipe_encoder(), train, progress=bar.update, **RECIPE["fit"])  # type: ignore[arg-type]
        model.encoder = str(RECIPE["encoder"])  # saved by name: resolved where it is loaded
        seconds = time.perf_counter() - started
        record_speed(SPEED_KEY, seconds, len(train), what="offline issue-stance scorer training")
        model.info.update({"key": key[:16], "recipe": RECIPE, "train_seconds": round(seconds, 1)})
        publish_folder(folder, model.save)
        return model

    return cached_or_made(default_model_dir(key), MODEL_FILE, IssueStanceModel.load, make)


class IssueStanceScorer(StanceScorer):
    """The offline issue-stance grader (see the module docstring); its results go to ``issue_stance``."""

    name = "issue"
    reads = "issue_stance"

    def __init__(self, labels: Sequence[str] = ("agree", "disagree"), *, model: Optional[str] = None):
        super().__init__(labels)
        self.model_dir = Path(model) if model else None
        self.options = {"model": str(model) if model else
                        f"{ENCODER_NAMES.get(str(RECIPE['encoder']), RECIPE['encoder'])} sentences + logistic "
                        "regression on the issue-stance gold sets (offline fallback; the validated grader is "
                        "issue_judge with a capable LLM)", "recipe_version": RECIPE["version"]}
        self._model: Optional[IssueStanceModel] = None

    @classmethod
    def first_use_plan(cls, model: Optional[str] = None, **scorer_args) -> Optional[str]:
        return first_use_training(model, default_model_dir() / MODEL_FILE,
                                  lambda: training_plan(len(training_examples())))

    def preflight(self) -> None:
        if self.model_dir is not None:
            if not (self.model_dir / MODEL_FILE).is_file():
                raise PolibenchError(f"issue scorer: {self.model_dir} holds no {MODEL_FILE}")
            return
        recipe_encoder()
        require_writable_cache(cache_dir() / "issue_stance", "the offline issue-stance scorer")

    def loaded(self) -> IssueStanceModel:
        if self._model is None:
            self.preflight()
            self._model = IssueStanceModel.load(self.model_dir) if self.model_dir else ensure_default_model()
            self.options["key"] = self._model.info.get("key", "")
        return self._model

    def score(self, statements: Sequence[str], responses: Sequence[str], progress=None) -> list[StanceResult]:
        raise PolibenchError("the issue scorer grades IssueBench-style responses only (it needs each prompt's issue "
                             "in its three framings): use it with the issuebench tasks or `polibench stance eval "
                             "--scorer issue` on rows with topic_pro, topic_con, topic_neutral, response, label")

    def score_samples(self, samples: Sequence[Sample], progress=None) -> list[StanceResult]:
        require_issues(samples, "issue")
        examples = [IssueExample(s.issue.topic_pro, s.issue.topic_con, s.issue.topic_neutral,  # type: ignore[union-attr]
                                 s.response or "", "3") for s in samples]
        probs = self.loaded().predict(examples) if examples else []
        results = []
        for row in probs:
            named = {label: float(p) for label, p in zip(ISSUE_LABELS, row)}
            top = max(named, key=named.__getitem__)
            results.append(StanceResult(top, named[top], named))
        if progress:
            progress(len(results))
        return results
