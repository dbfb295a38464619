"""Tests of the 2.14 group."""

import torch

from harness import case, make

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
