"""results.json's ``run_metrics`` is typed by the run-level metric registry (polibench.metrics.run_level): a
document written before a metric existed reads as that metric's empty block (the layout every earlier
results.json has), an unknown key or a malformed block is an error naming it, and a registered metric is
computed with the others."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ValidationError

from polibench.metrics.run_level import (
    RunMetric,
    RunMetrics,
    compute_run_metrics,
    register_run_metric,
    registered_run_metrics,
    unregister_run_metric,
)
from polibench.taskspec.loader import load_registry


def test_a_document_without_run_metrics_reads_as_the_empty_blocks_of_the_old_layout():
    assert list(registered_run_metrics())[:6] == ["channels", "logprob", "order", "controls", "language_effect",
                                                  "answering"]
    assert RunMetrics.model_validate({}).model_dump(mode="json") == {"channels": [], "logprob": [], "order": [],
                                                                     "controls": {}, "language_effect": [],
                                                                     "answering": []}
    assert RunMetrics() == RunMetrics.model_validate({"channels": [], "controls": {}})


def test_an_unknown_key_or_a_bad_block_is_named():
    with pytest.raises(ValidationError, match="'nope' is not the name of any registered run-level metric"):
        RunMetrics.model_validate({"nope": []})
    with pytest.raises(ValidationError, match=r"channels\.0\.a"):
        RunMetrics.model_validate({"channels": [{"b": "x"}]})


class Count(BaseModel):
    tasks: int = 0


def test_a_registered_run_level_metric_is_computed_stored_and_read_back():
    register_run_metric(RunMetric(name="test_count", block=Count, compute=lambda data: Count(tasks=len(data.tasks)),
                                  empty=Count, description="tasks in the run"))
    try:
        tasks = load_registry().tasks
        found = compute_run_metrics({name: tasks[name] for name in ("pct", "rottger-open")}, {}, [], {})
        assert found.block("test_count") == Count(tasks=2)
        assert RunMetrics.model_validate(found.model_dump(mode="json")) == found
        assert RunMetrics.model_validate({}).block("test_count") == Count()
    finally:
        unregister_run_metric("test_count")


def test_an_unknown_run_level_metric_is_one_error_in_the_registries_wording():
    from polibench.errors import PolibenchError
    from polibench.metrics.run_level import RUN_METRICS

    with pytest.raises(PolibenchError) as err:
        RUN_METRICS.get("nope")
    assert str(err.value) == ("unknown run-level metric 'nope'; registered run-level metrics: "
                              f"{', '.join(sorted(registered_run_metrics()))}")
