"""Tests of the 2.13 group."""

import torch

from harness import assert_close, assert_raises, case, make

ops = torch.ops.abiref


@case("2.13", "checked_view")
def checked_view_carries_torchs_own_error_message():
    x = make((4, 6), torch.float32)
    assert_close(ops.checked_view(x, [3, 8]), x.view(3, 8), "view")
    assert_raises(RuntimeError, "is invalid for input of size 24", lambda: ops.checked_view(x, [5, 5]))
