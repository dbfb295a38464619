"""Tests of the 2.12 group."""

import torch

from harness import NUMERIC_DTYPES, assert_close, case, layouts

ops = torch.ops.abiref


@case("2.12", "squared")
def squared_matches_eager_and_carries_its_tag():
    for dtype in NUMERIC_DTYPES:
        for name, x in layouts(dtype):
            assert_close(ops.squared(x), x * x, f"{dtype} {name}")
    if torch.Tag.pointwise not in ops.squared.default.tags:
        raise AssertionError(f"tags are {ops.squared.default.tags}")
