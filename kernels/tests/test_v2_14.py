"""Tests of the 2.14 group."""

import sys

import torch

from harness import assert_raises, case, make

ops = torch.ops.abiref


@case("2.14", "has_storage")
def has_storage_matches_the_tensor_kind():
    dense = make((3, 4), torch.float32)
    for name, tensor, expected in (("dense", dense, True), ("view", dense.t(), True), ("empty", make((0,), torch.float32), True)):
        if ops.has_storage(tensor) is not expected:
            raise AssertionError(f"{name}: has_storage is not {expected}")
    sparse = dense.to_sparse()
    if ops.has_storage(sparse):
        raise AssertionError("a sparse COO tensor reported a storage")


@case("2.14", "pyobject_roundtrip")
def pyobject_roundtrip_is_the_callers_tensor():
    x = make((3, 4), torch.float32)
    references = sys.getrefcount(x)
    tensor, same = ops.pyobject_roundtrip(id(x))
    if not same:
        raise AssertionError("wrapping the handle again gave another Python object")
    if tensor.data_ptr() != x.data_ptr() or not torch.equal(tensor, x):
        raise AssertionError("the handle is not the caller's tensor")
    del tensor
    if sys.getrefcount(x) != references:
        raise AssertionError(f"references to the tensor: {references} before, {sys.getrefcount(x)} after")
    assert_raises(RuntimeError, ("Tensor", "torch_tensor_from_pyobject"), lambda: ops.pyobject_roundtrip(id("text")))
