"""Tests of the GPU kernel (CUDA and ROCm torch both use the "cuda" device); they run only where
a device exists, and are reported skipped otherwise."""

import torch

from harness import assert_close, assert_raises, case, make


def gpu_case(op):
    def register(function):
        case("2.9", op, backend="cuda")(function)
        case("2.9", op, backend="rocm")(function)
        return function

    return register


@gpu_case("scaled_add")
def gpu_scaled_add_matches_add_on_the_current_stream():
    for dtype in (torch.float32, torch.float64):
        for shape in ((0,), (7,), (300, 1000)):
            a = make(shape, dtype, "cuda")
            b = make(shape, dtype, "cuda", seed=3)
            stream = torch.cuda.Stream()
            with torch.cuda.stream(stream):
                # Work queued on a side stream: the kernel must run on that stream, not the default one.
                result = torch.ops.abiref.scaled_add(a, b, 2.0)
            stream.synchronize()
            assert_close(result, torch.add(a, b, alpha=2), f"{dtype} {shape}")


@gpu_case("scaled_add")
def gpu_scaled_add_rejects_bad_inputs():
    a = make((4,), torch.float32, "cuda")
    assert_raises(RuntimeError, "both inputs must be on the GPU", lambda: torch.ops.abiref.scaled_add(a, make((4,), torch.float32), 1.0))
    assert_raises(RuntimeError, "unsupported dtype", lambda: torch.ops.abiref.scaled_add(a.half(), a.half(), 1.0))
    assert_raises(RuntimeError, "must be contiguous", lambda: torch.ops.abiref.scaled_add(make((4, 4), torch.float32, "cuda").t(), make((4, 4), torch.float32, "cuda"), 1.0))
