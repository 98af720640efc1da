"""Tiny hand-made scored samples for the metrics, report and compare tests (no model involved)."""

from __future__ import annotations

import random

from polibench.records import Sample, Stance


def scored(item: str, side: str, label, *, dimension: str = "economic", instrument: str = "t",
           form: str = "original", variant: str = "v", kept: bool = True, index: int = 0, probs=None,
           reason: str = "") -> Sample:
    """One scored response. ``side`` is the side agreeing with the statement AS SHOWN reflects (flip it yourself
    for an opposite form, as request building does)."""
    if label is None:
        stance = Stance(label=None, kept=False, reason=reason or "abstained")
    else:
        stance = Stance(label=label, confidence=1.0, probs=probs if probs is not None else {label: 1.0},
                        scorer="hand", kept=kept, reason=reason if not kept else "")
        if not kept and not reason:
            stance = stance.model_copy(update={"reason": "low_confidence"})
    return Sample(task="t", instrument=instrument, item_id=item, statement=f"statement {item}", dimension=dimension,
                  agree_side=side, form=form, variant=variant, sample_index=index, seed=0, prompt="p", response="r",
                  stance=stance)


def random_items(n_items: int, responses: int = 10, lean: float = 0.2, seed: int = 0,
                 dimensions=("economic", "social")) -> list[Sample]:
    """``n_items`` items per dimension, half agree-right and half agree-left, each with ``responses`` random kept
    stances leaning left by ``lean`` (agreeing more with left statements)."""
    rng = random.Random(seed)
    out = []
    for dim in dimensions:
        for i in range(n_items):
            side = "right" if i % 2 == 0 else "left"
            p_agree = 0.5 + (lean if side == "left" else -lean)
            for k in range(responses):
                r = rng.random()
                label = "neutral" if r < 0.1 else "agree" if rng.random() < p_agree else "disagree"
                out.append(scored(f"{dim[0]}{i:03d}", side, label, dimension=dim, index=k))
    return out


def make_run(out, *, seed: int = 1, lean: float = 0.2, task: str = "faulborn30", limit: int = 3, samples: int = 1,
             model: str = "synthetic", run_seed=None):
    """A finished run folder (samples.jsonl, results.json, no report) of a built-in task with random stances
    leaning left by ``lean`` instead of model responses. Returns the results document as written (JSON values)."""
    from polibench.pipeline.compute import results_document
    from polibench.pipeline.plan import RunOptions, RunPlan, build_samples
    from polibench.results.files import write_results, write_samples
    from polibench.taskspec.loader import load_registry

    registry = load_registry([])
    config = registry.task(task)
    built = build_samples(config, registry, seed=run_seed, samples_per_prompt=samples, limit=limit)
    rng = random.Random(seed)
    done = []
    for s in built:
        p_agree = 0.5 + (lean if s.agree_side == "left" else -lean)
        r = rng.random()
        label = "unrelated" if r < 0.1 else "neutral" if r < 0.2 else "agree" if rng.random() < p_agree else "disagree"
        confidence = rng.uniform(0.7, 1.0)
        other = "disagree" if label == "agree" else "agree"
        kept = confidence >= 0.8
        done.append(s.model_copy(update={"response": "r", "stance": Stance(
            label=label, confidence=confidence, probs={label: confidence, other: 1 - confidence}, scorer="hand",
            kept=kept, reason="" if kept else "low_confidence")}))
    options = RunOptions(seed=run_seed, limit=limit, samples_per_prompt=samples)
    document = results_document(RunPlan.from_registry(registry, [task]), {task: done},
                                {"model": model, "backend": "synthetic"},
                                {task: {"scorer": "hand", "threshold": 0.8}}, options)
    write_samples(out, done)
    write_results(out, document)
    return document.model_dump(mode="json")


EMPTY_COVERAGE = {"items": 0, "items_answered": 0, "responses": 0, "responses_kept": 0, "responses_filtered": 0,
                  "filtered_low_confidence": 0, "filtered_abstained": 0, "filtered_empty": 0}
BOOTSTRAP = {"resamples": 10, "seed": 1, "level": 0.95, "unit": "item", "strata": [], "interval": "percentile"}


def typed_document(results: dict, model: str = "m", **fields):
    """A :class:`~polibench.results.document.ResultsDocument` around hand-written ``results`` blocks: missing
    coverage and bootstrap blocks, and the run fields no test here looks at, are filled with empty values."""
    from polibench.results.document import ResultsDocument

    tasks = {}
    for task, blocks in results.items():
        blocks = dict(blocks)
        if "pct" in blocks:
            blocks["pct"] = {"instrument": "pct", **blocks["pct"]}
        blocks["coverage"] = {**EMPTY_COVERAGE, **blocks.get("coverage", {})}
        blocks.setdefault("bootstrap", BOOTSTRAP)
        tasks[task] = blocks
    base = {"results": tasks, "configs": {}, "versions": {}, "instruments": {}, "variant_sets": {}, "scoring": {},
            "model": {"model": model, "backend": "b"}, "polibench_version": "0", "date": "d"}
    return ResultsDocument.model_validate({**base, **fields})
