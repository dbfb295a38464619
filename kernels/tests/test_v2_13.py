"""Tests of the 2.13 group."""

import torch

from harness import assert_close, assert_heap_returns, assert_raises, captured_stderr, case, make

ops = torch.ops.abiref


@case("2.13", "checked_view")
def checked_view_carries_torchs_own_error_message():
    x = make((4, 6), torch.float32)
    assert_close(ops.checked_view(x, [3, 8]), x.view(3, 8), "view")
    assert_raises(RuntimeError, "is invalid for input of size 24", lambda: ops.checked_view(x, [5, 5]))
    # The stable headers also write libtorch's whole message (torch_exception_get_what: the error and
    # its backtrace) to stderr as the error crosses the boundary.
    raised, written = captured_stderr(lambda: ops.checked_view(x, [5, 5]))
    if not isinstance(raised, RuntimeError):
        raise AssertionError(f"the failing view raised {raised!r}")
    boundary = "Exception across libtorch C API boundary: "
    if boundary not in written or "is invalid for input of size 24" not in written.split(boundary, 1)[1]:
        raise AssertionError(f"stderr does not carry libtorch's message after {boundary!r}: {written[:500]!r}")


@case("2.13", "seeded_uniform")
def seeded_uniform_draws_from_the_callers_generator():
    generator = torch.Generator().manual_seed(1234)
    reference = torch.Generator().manual_seed(1234)
    for n in (5, 17):
        x = torch.empty(n)
        device = ops.seeded_uniform(x, generator)
        if device != torch.device("cpu"):
            raise AssertionError(f"the generator's device came back as {device!r}")
        # The same draws as torch's own with the same seed: the kernel used this generator and
        # advanced its state (the second round would differ otherwise).
        assert_close(x, torch.empty(n).uniform_(0, 1, generator=reference), f"draw of {n}")
    if generator.get_state().tolist() != reference.get_state().tolist():
        raise AssertionError("the generator's state differs from torch's after the same draws")
    x = torch.empty(1000)
    if ops.seeded_uniform(x, None) != torch.device("cpu") or x.min() < 0 or x.max() >= 1:
        raise AssertionError("without a generator: not uniform in [0, 1) on the CPU")
    # The kernel frees the generator handles it holds (torch_delete_generator): else each of these
    # generators, dropped by Python, would stay alive on the heap with its 2.5 kB of state.
    assert_heap_returns("seeded_uniform with 2,000 new generators",
                        lambda: [ops.seeded_uniform(torch.empty(1), torch.Generator()) for _ in range(2000)],
                        2000 * 2500)


@case("2.13", "boxed_optionals")
def boxed_optionals_are_freed():
    n = 100_000
    if ops.boxed_optionals(n) != n * (n - 1) // 2:
        raise AssertionError(f"the sum of the unboxed values is {ops.boxed_optionals(n)}, not {n * (n - 1) // 2}")
    # Each box is a heap allocation of 8 bytes (a 32-byte chunk) that torch_delete_stable_ivalue frees.
    assert_heap_returns(f"{n} boxes made and freed", lambda: ops.boxed_optionals(n), 32 * n)


@case("2.13", "python_stubbed")
def python_stubbed_names_its_python_module():
    x = make((3,), torch.float32)
    assert_close(ops.python_stubbed(x), x, "the op still runs")
    stub = torch._C._dispatch_pystub("abiref::python_stubbed", "")
    if tuple(stub or ()) != ("abiref_python_stub", "shim_surface 2.13"):
        raise AssertionError(f"the op's Python module is {stub!r}")


@case("2.13", "current_stream")
def current_stream_is_torchs_or_refused_without_an_accelerator():
    if torch.cuda.is_available():
        if ops.current_device_index() != torch.cuda.current_device():
            raise AssertionError(f"current device {ops.current_device_index()} != {torch.cuda.current_device()}")
        current = torch.cuda.current_stream()
        actual = tuple(ops.current_stream(torch.cuda.current_device()))
        if actual != (current.stream_id, current.cuda_stream):
            raise AssertionError(f"{actual} != {(current.stream_id, current.cuda_stream)}")
    else:
        refused = ("accelerator", "aoti_torch_get_current")
        assert_raises(RuntimeError, refused, ops.current_device_index)
        assert_raises(RuntimeError, refused, lambda: ops.current_stream(0))
