"""Tests of the 2.15 group."""

import torch

from harness import NUMERIC_DTYPES, assert_raises, case, make

ops = torch.ops.abiref


@case("2.15", "is_tensor_object")
def is_tensor_object_tells_tensors_from_other_objects():
    tensor = make((2,), torch.float32)
    others = [3, "text", [tensor], torch.float32]
    if not ops.is_tensor_object(id(tensor)):
        raise AssertionError("a tensor was not recognised")
    for other in others:
        if ops.is_tensor_object(id(other)):
            raise AssertionError(f"{other!r} was taken for a tensor")


@case("2.15", "is_dtype_of")
def is_dtype_of_reads_dtype_objects():
    for dtype in NUMERIC_DTYPES:
        tensor = make((2,), dtype)
        if not ops.is_dtype_of(id(dtype), tensor):
            raise AssertionError(f"{dtype} not matched")
        other = torch.float64 if dtype != torch.float64 else torch.float32
        if ops.is_dtype_of(id(other), tensor):
            raise AssertionError(f"{other} matched a {dtype} tensor")
    assert_raises(RuntimeError, "expected torch.dtype", lambda: ops.is_dtype_of(id("not a dtype"), make((2,), torch.float32)))
