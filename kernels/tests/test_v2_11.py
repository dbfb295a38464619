"""Tests of the 2.11 group."""

import gc

import torch

from harness import assert_close, assert_raises, case

ops = torch.ops.abiref


@case("2.11", "owned_arange")
def owned_arange_is_freed_through_its_deleter():
    for n in (0, 1, 1000):
        before = ops.released_buffer_count()
        tensor = ops.owned_arange(n)
        assert_close(tensor, torch.arange(n, dtype=torch.float32), f"n={n}")
        view = tensor[1:]
        del tensor
        gc.collect()
        if ops.released_buffer_count() != before:
            raise AssertionError("the buffer was freed while a view still used it")
        del view
        gc.collect()
        if ops.released_buffer_count() != before + 1:
            raise AssertionError("the deleter did not run once the last reference died")
    assert_raises(RuntimeError, "n must be non-negative", lambda: ops.owned_arange(-1))


NEW_DTYPES = [torch.float8_e8m0fnu, torch.float4_e2m1fn_x2]


@case("2.11", "empty_of_new_dtype")
def empty_of_new_dtype_makes_the_dtype():
    for which, dtype in enumerate(NEW_DTYPES):
        tensor = ops.empty_of_new_dtype(which, 3)
        if tensor.dtype != dtype or tensor.shape != (3,) or tensor.device.type != "cpu":
            raise AssertionError(f"{which}: {tensor.dtype} {tuple(tensor.shape)} {tensor.device}")
    assert_raises(RuntimeError, "which must be 0 or 1", lambda: ops.empty_of_new_dtype(2, 3))


@case("2.11", "new_dtype_index")
def new_dtype_index_reads_the_dtype_back():
    for which, dtype in enumerate(NEW_DTYPES):
        if ops.new_dtype_index(torch.empty(2, dtype=dtype)) != which:
            raise AssertionError(f"{dtype} not recognised")
    for dtype in (torch.float32, torch.float8_e4m3fn, torch.uint8):
        if ops.new_dtype_index(torch.empty(2, dtype=dtype)) != -1:
            raise AssertionError(f"{dtype} taken for a 2.11 dtype")
