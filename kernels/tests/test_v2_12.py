"""Tests of the 2.12 group."""

import torch

from harness import NUMERIC_DTYPES, assert_close, case, layouts, make

ops = torch.ops.abiref


@case("2.12", "squared")
def squared_matches_eager_and_carries_its_tag():
    for dtype in NUMERIC_DTYPES:
        for name, x in layouts(dtype):
            assert_close(ops.squared(x), x * x, f"{dtype} {name}")
    if torch.Tag.pointwise not in ops.squared.default.tags:
        raise AssertionError(f"tags are {ops.squared.default.tags}")


@case("2.12", "empty_of_aoti_dtypes")
def empty_of_aoti_dtypes_makes_both_dtypes():
    e8m0, e2m1 = ops.empty_of_aoti_dtypes(4)
    for tensor, dtype in ((e8m0, torch.float8_e8m0fnu), (e2m1, torch.float4_e2m1fn_x2)):
        if tensor.dtype != dtype or tensor.shape != (4,):
            raise AssertionError(f"{tensor.dtype} {tuple(tensor.shape)}, expected {dtype} (4,)")


ALL_TAGS = ["core", "cudagraph_unsafe", "data_dependent_output", "dynamic_output_shape", "flexible_layout",
            "generated", "inplace_view", "maybe_aliasing_or_mutating", "needs_contiguous_strides",
            "needs_exact_strides", "needs_fixed_stride_order", "nondeterministic_bitwise",
            "nondeterministic_seeded", "out_variant", "pointwise", "pt2_compliant_tag", "reduction", "view_copy"]


@case("2.12", "tagged_everywhere")
def tagged_everywhere_carries_every_tag():
    x = make((2, 3), torch.float32)
    assert_close(ops.tagged_everywhere(x), x, "the op still runs")
    tags = set(ops.tagged_everywhere.default.tags)
    missing = [name for name in ALL_TAGS if getattr(torch.Tag, name) not in tags]
    if missing or len(tags) != len(ALL_TAGS):
        raise AssertionError(f"missing tags {missing}; the op has {sorted(str(t) for t in tags)}")
