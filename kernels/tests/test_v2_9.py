"""Tests of the 2.9 group against torch's eager results."""

import torch

from harness import FLOAT_DTYPES, NUMERIC_DTYPES, assert_close, assert_raises, case, layouts, make

ops = torch.ops.abiref


@case("2.9", "scaled_add")
def scaled_add_matches_add_for_every_dtype_and_layout():
    for dtype in NUMERIC_DTYPES:
        for name, a in layouts(dtype):
            b = make(a.shape, dtype, seed=7)
            b = b.t().contiguous().t() if b.dim() == 2 else b  # a second, different layout
            expected = torch.add(a, b, alpha=2)
            assert_close(ops.scaled_add(a, b, 2.0), expected, f"{dtype} {name}")


@case("2.9", "scaled_add")
def scaled_add_rejects_mismatched_inputs():
    a = make((3, 4), torch.float32)
    assert_raises(RuntimeError, "shapes differ in rank", lambda: ops.scaled_add(a, make((4,), torch.float32), 1.0))
    assert_raises(RuntimeError, "shapes differ at dim 1", lambda: ops.scaled_add(a, make((3, 5), torch.float32), 1.0))
    assert_raises(RuntimeError, "dtypes differ", lambda: ops.scaled_add(a, a.double(), 1.0))
    flags = torch.ones(3, 4, dtype=torch.bool)
    assert_raises(RuntimeError, "scaled_add: unsupported dtype", lambda: ops.scaled_add(flags, flags, 1.0))


@case("2.9", "strided_sum")
def strided_sum_matches_sum():
    for dtype in NUMERIC_DTYPES:
        for name, x in layouts(dtype):
            assert_close(ops.strided_sum(x), x.sum(dtype=dtype), f"{dtype} {name}")


@case("2.9", "contiguous_copy")
def contiguous_copy_matches_clone():
    for dtype in NUMERIC_DTYPES:
        for name, x in layouts(dtype):
            assert_close(ops.contiguous_copy(x), x.clone(), f"{dtype} {name}")


@case("2.9", "metadata")
def metadata_matches_tensor_attributes():
    for name, x in layouts(torch.float32):
        innermost = x.stride(-1) if x.dim() else 1
        expected = (x.numel(), x.dim(), innermost, x.is_contiguous())
        actual = tuple(ops.metadata(x))
        if actual != expected:
            raise AssertionError(f"{name}: {actual} != {expected}")


@case("2.9", "padded")
def padded_matches_functional_pad():
    for dtype in FLOAT_DTYPES:
        for name, x in layouts(dtype):
            if x.dim() == 0:
                continue
            expected = torch.nn.functional.pad(x, (2, 1), value=-3.0)
            assert_close(ops.padded(x, 2, 1, -3.0), expected, f"{dtype} {name}")


@case("2.9", "fill_narrow_")
def fill_narrow_writes_into_the_argument():
    for dtype in NUMERIC_DTYPES:
        for dim, shape in ((0, (6, 4)), (1, (3, 7))):
            x = make(shape, dtype)
            expected = x.clone()
            expected.narrow(dim, 1, 2).fill_(5)
            ops.fill_narrow_(x, dim, 1, 2, 5.0)
            assert_close(x, expected, f"{dtype} dim {dim}")
    x = make((3, 4), torch.float32)
    assert_raises(RuntimeError, ("exceeds dimension size", "aoti_torch_aten_narrow"), lambda: ops.fill_narrow_(x, 0, 2, 5, 1.0))


@case("2.9", "amax_dim")
def amax_dim_matches_amax():
    for dtype in NUMERIC_DTYPES:
        for name, x in layouts(dtype):
            if x.dim() == 0 or x.numel() == 0:
                continue
            for keepdim in (False, True):
                assert_close(ops.amax_dim(x, -1, keepdim), x.amax(-1, keepdim), f"{dtype} {name} {keepdim}")


@case("2.9", "swap01")
def swap01_is_a_transposed_view():
    x = make((3, 5), torch.float32)
    swapped = ops.swap01(x)
    assert_close(swapped, x.t(), "values")
    if swapped.data_ptr() != x.data_ptr() or swapped.stride() != (1, 5):
        raise AssertionError("swap01 did not return a view with swapped strides")


@case("2.9", "zeros_2d")
def zeros_2d_follows_the_dtype_of_its_argument():
    for dtype in NUMERIC_DTYPES:
        assert_close(ops.zeros_2d(make((2,), dtype), 3, 4), torch.zeros(3, 4, dtype=dtype), str(dtype))
        assert_close(ops.zeros_2d(make((2,), dtype), 0, 4), torch.zeros(0, 4, dtype=dtype), f"{dtype} empty")


@case("2.9", "dispatch_abs")
def dispatch_abs_calls_aten_abs():
    for dtype in NUMERIC_DTYPES:
        for name, x in layouts(dtype):
            assert_close(ops.dispatch_abs(x), x.abs(), f"{dtype} {name}")
