"""Score, the fourth stage: every task's samples get their stance from the task's stance scorer.

:func:`scoring_setup` applies ``--scorer``, ``--scorer-args`` and ``--threshold`` over a task's ``scoring:``;
:func:`score_tasks` builds one scorer per distinct (name, labels, arguments), shared by the tasks that ask for
the same, and runs the scoring stage (:func:`polibench.scoring.stage.score_samples`). Scorers are created only
here, after the response source has been closed, so a generating model never shares memory with a scorer.
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

from polibench.errors import PolibenchError
from polibench.pipeline.plan import RunOptions, RunPlan
from polibench.records import Sample
from polibench.scoring.base import StanceScorer
from polibench.scoring.registry import create_scorer, reads, scorer_class
from polibench.scoring.stage import score_samples
from polibench.taskspec.schema import TaskConfig


class ScorerSpec(NamedTuple):
    """The stance scorer one task will use: its name, the task's labels and the scorer's arguments."""

    task: str
    scorer: str
    labels: Sequence[str]
    args: dict

    @property
    def key(self) -> tuple:
        """Tasks whose scorers have the same key share one scorer instance."""
        return (self.scorer, tuple(self.labels), repr(sorted(self.args.items())))


def scoring_setup(task: TaskConfig, options: RunOptions) -> tuple[str, dict, float]:
    """The scorer name, its arguments and the threshold for a task, after command-line overrides."""
    if options.scorer:
        name = options.scorer
        args = dict(options.scorer_args) if options.scorer != task.scoring.scorer else \
            {**task.scoring.scorer_args, **options.scorer_args}
    elif options.offline_default and task.language_code == "en" and task.scoring.scorer != "abstain" and \
            reads(task.scoring.scorer) in (None, reads(options.offline_default)):
        # the offline default replaces only a scorer of the same reading (a stance scorer; an ideology judge, an
        # issue or pair grader stays); it reads English only; a task that reads its answers with its parser alone
        # (abstain, e.g. the PCT in fourteen languages, read alike in each) keeps that
        name = options.offline_default
        args = dict(options.scorer_args) if name != task.scoring.scorer else \
            {**task.scoring.scorer_args, **options.scorer_args}
    else:
        name, args = task.scoring.scorer, {**task.scoring.scorer_args, **options.scorer_args}
    if options.judge_args and is_llm_judge(name):
        args = {**args, **options.judge_args}
    threshold = task.scoring.threshold if options.threshold is None else options.threshold
    return name, args, threshold


def is_llm_judge(name: str) -> bool:
    """Whether scorer ``name`` asks a language model through a backend (``judge``, ``issue_judge``): the
    scorers ``--judge-model``, ``--judge-backend`` and ``--judge-args`` are for."""
    from polibench.scorers.stance.llm_judge import JudgeScorer

    return issubclass(scorer_class(name), JudgeScorer)


def check_judge_options(tasks: list[TaskConfig], options: RunOptions) -> None:
    """``--judge-*`` given to a run none of whose tasks uses an LLM judge is one clear error."""
    if options.judge_args and not any(is_llm_judge(scoring_setup(t, options)[0]) for t in tasks):
        raise PolibenchError("--judge-model, --judge-backend and --judge-args are for tasks graded by an LLM judge "
                             "(e.g. issuebench, or --scorer judge); none of these tasks is")


def scorer_specs(tasks: list[TaskConfig], options: RunOptions) -> list[ScorerSpec]:
    """The stance scorer of each task, for the preflight."""
    specs = []
    for task in tasks:
        name, args, _ = scoring_setup(task, options)
        specs.append(ScorerSpec(task.task, name, tuple(task.scoring.labels), args))
    return specs


def first_use_plans(tasks: list[TaskConfig], options: RunOptions) -> list[str]:
    """What the tasks' scorers will cost on first use (training), once per scorer; nothing when all are ready."""
    lines: list[str] = []
    for spec in {spec.key: spec for spec in scorer_specs(tasks, options)}.values():
        line = scorer_class(spec.scorer).first_use_plan(**spec.args)
        if line and line not in lines:
            lines.append(line)
    return lines


def score_tasks(plan: RunPlan, samples: dict[str, list[Sample]], options: RunOptions
                ) -> tuple[dict[str, list[Sample]], dict[str, dict]]:
    """Each task's samples scored by its scorer; returns the scored samples and, per task, the scorer's
    description with its confidence threshold (what results.json records under ``scoring``)."""
    scorer_cache: dict[tuple, StanceScorer] = {}
    scored: dict[str, list[Sample]] = {}
    scorers: dict[str, dict] = {}
    for task, spec in zip(plan.tasks, scorer_specs(plan.tasks, options)):
        _, _, threshold = scoring_setup(task, options)
        if spec.key not in scorer_cache:
            scorer_cache[spec.key] = create_scorer(spec.scorer, task.scoring.labels, **spec.args)
        scored[task.task] = score_samples(samples[task.task], scorer_cache[spec.key], threshold,
                                          show_progress=options.show_progress)
        scorers[task.task] = {**scorer_cache[spec.key].describe(), "threshold": threshold}
    return scored, scorers
