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
