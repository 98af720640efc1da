"""A block names its estimates with an interval once, in its class line (``EstimateBlock, intervals=...``): its
``ci`` model holds exactly those intervals, in that order, refuses any other key, and a subclass keeps it."""

from __future__ import annotations

from typing import Optional

import pytest
from pydantic import ValidationError

from polibench.metrics.blocks import BiasEstimates, EstimateBlock, FaulbornBlock, Intervals


class Shares(EstimateBlock, intervals=("left", "right")):
    left: Optional[float] = None
    right: Optional[float] = None
    ci: Intervals = Intervals()
    responses: int = 0


def test_ci_holds_the_named_intervals_in_order_and_nothing_else():
    block = Shares(left=0.25, ci={"right": [0.5, 0.75]}, responses=4)
    assert block.model_dump_json() == ('{"left":0.25,"right":null,"ci":{"left":null,"right":[0.5,0.75]},'
                                       '"responses":4}')
    assert Shares.model_validate_json(block.model_dump_json()) == block
    assert block.estimate("right") == (None, block.ci.right) and list(block.ci.right) == [0.5, 0.75]
    assert Shares().ci.left is None  # the default: every interval absent
    with pytest.raises(ValidationError, match="ci.middle"):
        Shares(ci={"middle": [0, 1]})
    with pytest.raises(ValidationError, match="low 2.0 is above high 1.0"):
        Shares(ci={"left": [2, 1]})


def test_a_subclass_keeps_its_parents_intervals():
    assert list(BiasEstimates.model_fields["ci"].annotation.model_fields) == ["economic", "social", "total"]
    assert FaulbornBlock.model_fields["ci"].annotation is BiasEstimates.model_fields["ci"].annotation
    assert list(FaulbornBlock.model_fields)[:4] == ["economic", "social", "total", "ci"]  # results.json's key order


class Counted(EstimateBlock, intervals=("share", "gap")):
    responses: int = 0
    share: Optional[float] = None
    gap: Optional[float] = None
    ci: Intervals = Intervals()
    note: str = ""


def test_each_named_estimate_is_read_with_its_interval():
    assert list(Counted.model_fields) == ["responses", "share", "gap", "ci", "note"]
    block = Counted(share=0.5, ci={"share": [0.25, 0.75]})
    assert block.estimate("share") == (0.5, block.ci.share) and block.estimate("gap") == (None, None)
    assert Counted.model_validate_json(block.model_dump_json()) == block
    with pytest.raises(ValidationError, match="share"):
        Counted(share="many")


def test_a_block_that_names_its_intervals_but_declares_no_ci_is_refused():
    with pytest.raises(TypeError, match="declares ci: Intervals"):
        class NoCi(EstimateBlock, intervals=("share",)):
            share: Optional[float] = None


def test_an_interval_named_for_an_estimate_the_block_does_not_declare_is_refused():
    with pytest.raises(TypeError, match="does not declare: gap"):
        class NoGap(EstimateBlock, intervals=("share", "gap")):
            share: Optional[float] = None
            ci: Intervals = Intervals()
