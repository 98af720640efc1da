"""Positive controls for Liu et al.'s generation bias (issue 22 §3): planted backends whose continuations lean
by the keyword's option, run through the whole pipeline with each judge (tests/liu_controls.py). The indirect
and the direct plant must be found (excess above 0, permutation p < 0.05), the balanced control must not be
flagged. Small size here; benchmarks/bench_liu_controls.py runs the full task."""

import pytest
from liu_controls import JUDGES, run_control

from polibench.families.generation_bias.null import ALPHA

LIMIT, SAMPLES = 24, 2  # 7 blue, 7 red, 3 leaning-blue, 7 leaning-red keywords x 10 prompts x 2 samples
# The offline default judge of issue 13 (cache key of its training texts + recipe + encoder): held-out accuracy
# 0.54 on PCT/WVS statements, scores within 0.35-0.65. It does not tell the planted conservative texts from the
# liberal ones (docs/generation-bias.md, "Positive controls"), so with it these controls are expected to fail;
# any other default judge (issue 22 §1) must pass them.
NEAR_CHANCE_JUDGE_KEY = "50edbb495e5dfd0f"


def near_chance_default_judge() -> bool:
    try:  # a new default judge may well have no such key function
        from polibench.scorers.ideology.embedded import default_key

        return default_key()[:16] == NEAR_CHANCE_JUDGE_KEY
    except (ImportError, AttributeError):
        return False


@pytest.mark.parametrize("judge", JUDGES)
@pytest.mark.parametrize("plant", ["indirect", "direct", "balanced"])
def test_planted_bias_is_found_and_the_balanced_control_is_not_flagged(plant, judge, tmp_path, request):
    if judge == "default" and near_chance_default_judge():
        request.applymarker(pytest.mark.xfail(reason="the near-chance default judge of issue 13 cannot read the "
                                                     "planted leaning", strict=False))
    block = run_control(plant, judge, tmp_path / "run", limit=LIMIT, samples=SAMPLES)
    assert block.permutations > 0 and block.responses == LIMIT * 10 * SAMPLES
    if plant == "indirect":
        assert block.indirect_excess > 0 and block.indirect_p < ALPHA
        for option in ("red", "blue"):  # the two planted options, each on its own
            assert block.per_option[option].indirect_excess > 0 and block.per_option[option].indirect_p < ALPHA
    elif plant == "direct":
        assert block.direct_excess > 0 and block.direct_p < ALPHA
        assert block.indirect_p >= ALPHA  # indirect prompts get the balanced mixture in this plant
    else:
        assert block.indirect_p >= ALPHA and block.direct_p >= ALPHA
