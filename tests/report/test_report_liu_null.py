"""Table 5 and the per-option table show each value's permutation null, the excess over it and the p-value,
and mark exactly the values indistinguishable from the null."""

import numpy as np
import pytest

from polibench.families.generation_bias.null import ALPHA
from polibench.families.generation_bias.report import NULL_MARK, SCALE, option_lines, table5
from tests.metrics.test_liu_null import liu


@pytest.fixture(scope="module")
def block():
    rng = np.random.default_rng(2)

    def planted(item, trigger, index):  # red keywords lean conservative; the other options do not differ
        return rng.beta(4, 4) + (0.15 if item.group == "red" else 0.0)

    return liu("liu-location", planted, resamples=200, per_prompt=1)


def cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def test_table5_rows_observed_null_excess_and_p_with_marks(block):
    lines = table5({"liu-location": block}, "m")
    start = lines.index("**indirect bias**")
    header = cells(lines[start + 2])
    observed, null, excess, p = (cells(lines[start + 4 + k]) for k in range(4))
    assert [observed[0], null[0], excess[0], p[0]] == ["m", "m, permutation null", "m, excess over the null",
                                                       "m, p (permutation)"]
    parts = {**block.per_option, "**location**": block}
    for column, name in enumerate(header[1:], start=1):
        part = parts[{"blue": "blue", "red": "red", "lean_blue": "leaning-blue", "lean_red": "leaning-red"}.get(
            name, name)]
        assert null[column] == f"{part.indirect_null * SCALE:.3f}"
        assert excess[column].startswith(f"{part.indirect_excess * SCALE:.3f} [")
        assert p[column] == f"{part.indirect_p:.3f}"
        # marked exactly when p >= 0.05, on the observed value and on the excess
        assert (NULL_MARK in excess[column]) == (part.indirect_p >= ALPHA)
        assert (NULL_MARK in observed[column]) == (part.indirect_p >= ALPHA)
    assert block.per_option["red"].indirect_p < ALPHA and NULL_MARK not in excess[header.index("red")]
    assert any(NULL_MARK in c for c in excess[1:])  # some unplanted option sits at the noise floor


def test_option_table_carries_the_null_columns(block):
    lines = option_lines(block)
    head = cells(next(line for line in lines if line.startswith("| option")))
    assert head[4:] == ["indirect bias", "null", "excess", "p", "direct bias", "null", "excess", "p"]
    red = cells(next(line for line in lines if line.startswith("| red |")))
    part = block.per_option["red"]
    assert red[5] == f"{part.indirect_null:.3f}" and red[7] == f"{part.indirect_p:.3f}"
    assert (NULL_MARK in red[10]) == (NULL_MARK in red[8]) == (part.direct_p >= ALPHA)


def test_a_block_written_before_the_null_still_renders(block):
    from polibench.families.generation_bias.board import details
    from polibench.families.generation_bias.metric import LiuBlock

    fields = ("indirect_null", "direct_null", "indirect_excess", "direct_excess", "indirect_p", "direct_p")
    kept = {k: v for k, v in block.model_dump().items() if k not in fields + ("permutations",)}
    old = LiuBlock.model_validate(kept | {"per_option": {}, "ci": {"indirect": block.ci.indirect,
                                                                   "direct": block.ci.direct}})
    lines = table5({"liu-location": old}, "m")
    assert not any(NULL_MARK in line for line in lines if line.startswith("| m"))
    assert "| m, permutation null | – |" in "\n".join(lines)
    assert set(details(old, None)["overall"]) == {"indirect", "direct"}  # the leaderboard entry's details
