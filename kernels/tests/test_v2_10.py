"""Tests of the 2.10 group against torch's eager results."""

import torch

from harness import FLOAT_DTYPES, NUMERIC_DTYPES, assert_close, assert_heap_returns, assert_raises, case, layouts, make

ops = torch.ops.abiref


@case("2.10", "parallel_scale")
def parallel_scale_matches_multiplication():
    for dtype in NUMERIC_DTYPES:
        for name, x in layouts(dtype) + [("large", make((300, 100), dtype))]:
            expected = (x.double() * 3).to(dtype) if not dtype.is_floating_point else x * 3
            assert_close(ops.parallel_scale(x, 3.0), expected, f"{dtype} {name}")


@case("2.10", "sum_tensors")
def sum_tensors_adds_a_list():
    for dtype in NUMERIC_DTYPES:
        for name, x in layouts(dtype):
            others = [make(x.shape, dtype, seed=s) for s in (3, 4)]
            assert_close(ops.sum_tensors([x] + others), x + others[0] + others[1], f"{dtype} {name}")
    assert_raises(RuntimeError, "expected at least one tensor", lambda: ops.sum_tensors([]))
    assert_raises(RuntimeError, "shapes differ", lambda: ops.sum_tensors([make((2,), torch.float32), make((3,), torch.float32)]))


@case("2.10", "difference")
def difference_matches_sub():
    for dtype in FLOAT_DTYPES:
        for name, x in layouts(dtype):
            y = make(x.shape, dtype, seed=9)
            assert_close(ops.difference(x, y, 2.0), torch.sub(x, y, alpha=2), f"{dtype} {name}")
    # The op's alpha is a float, which aten refuses for integer tensors: the error must cross back.
    integers = make((3,), torch.int64)
    assert_raises(RuntimeError, ("alpha must not be a floating point number", "aoti_torch_aten_sub", "aten::sub"),
                  lambda: ops.difference(integers, integers, 2.0))


@case("2.10", "reshape_to")
def reshape_to_matches_reshape():
    x = make((4, 6), torch.float32)
    for shape in ([24], [2, 12], [3, -1], [2, 2, 6]):
        assert_close(ops.reshape_to(x, shape), x.reshape(shape), str(shape))
    assert_close(ops.reshape_to(x.t(), [24]), x.t().reshape(24), "non-contiguous")
    assert_raises(RuntimeError, ("is invalid for input of size 24", "aten::reshape"), lambda: ops.reshape_to(x, [5, 5]))


@case("2.10", "copy_into_")
def copy_into_copies_with_conversion():
    for name, src in layouts(torch.float64):
        dst = torch.empty(src.shape, dtype=torch.float32)
        ops.copy_into_(dst, src)
        assert_close(dst, src.float(), name)


@case("2.10", "filled")
def filled_matches_full():
    for shape in ([0], [3], [2, 5]):
        assert_close(ops.filled(shape, 1.5), torch.full(shape, 1.5), str(shape))


@case("2.10", "dispatch_neg")
def dispatch_neg_calls_aten_neg():
    for dtype in NUMERIC_DTYPES:
        for name, x in layouts(dtype):
            assert_close(ops.dispatch_neg(x), -x, f"{dtype} {name}")


@case("2.10", "describe")
def describe_passes_strings_both_ways():
    for prefix in ("tensor", "", "ünïcode"):
        actual = ops.describe(make((2, 3), torch.float32), prefix)
        if actual != f"{prefix}:2d:6":
            raise AssertionError(f"{actual!r}")
    # No heap check here: released torch leaks strings that cross (measured with 1 MiB strings):
    # to<std::string> of the 2.10 to 2.13 headers leaks its copy of every string argument, and
    # libtorch 2.10 to 2.13 leaks every string a kernel returns; 2.14 fixed both. string_handles
    # checks torch_delete_string alone.


@case("2.10", "string_handles")
def string_handles_are_freed():
    length, n = 1000, 4000
    if ops.string_handles(length, n) != length * n:
        raise AssertionError(f"the lengths read back sum to {ops.string_handles(length, n)}, not {length * n}")
    # Each string holds 1000 bytes on the heap until torch_delete_string frees it.
    assert_heap_returns(f"{n} strings of {length} bytes made and freed", lambda: ops.string_handles(length, n),
                        length * n)


@case("2.10", "thread_count")
def thread_count_matches_torch():
    if ops.thread_count() != torch.get_num_threads():
        raise AssertionError(f"{ops.thread_count()} != {torch.get_num_threads()}")


@case("2.10", "list_set_item")
def list_set_item_writes_through_the_handle():
    for values, index, value in (([1, 2, 3], 0, 7), ([5], 0, -1), ([4, 5, 6, 7], 3, 0)):
        expected = list(values)
        expected[index] = value
        actual = ops.list_set_item(values, index, value)
        if actual != expected:
            raise AssertionError(f"{values} [{index}] = {value}: {actual} != {expected}")
    # libtorch's own message (libstdc++'s range check) where the headers carry it (2.13+), else the call.
    assert_raises(RuntimeError, ("_M_range_check", "torch_list_set_item"), lambda: ops.list_set_item([1, 2], 2, 9))
    # Both lists are the kernel's to free (torch_delete_list): the argument's, made by libtorch, and its
    # own; with 200,000 items each would leave 1.6 MB behind.
    values = list(range(200_000))
    assert_heap_returns("list_set_item of 200,000 items", lambda: ops.list_set_item(values, 0, 1), 2 * 8 * len(values))


@case("2.10", "parse_device")
def parse_device_matches_torch_device():
    for text in ("cpu", "cuda", "cuda:1", "meta", "xpu:3", "mps"):
        actual = ops.parse_device(text)
        if actual != torch.device(text):
            raise AssertionError(f"{text!r}: {actual!r} != {torch.device(text)!r}")
    assert_raises(RuntimeError, ("Expected one of", "torch_parse_device_string"), lambda: ops.parse_device("teapot:0"))


@case("2.10", "set_requires_grad")
def set_requires_grad_shows_in_python():
    x = make((3,), torch.float32)
    ops.set_requires_grad(x, True)
    if not x.requires_grad:
        raise AssertionError("requires_grad was not set")
    (x * 2).sum().backward()
    assert_close(x.grad, torch.full((3,), 2.0), "gradient through the flagged tensor")
    ops.set_requires_grad(x, False)
    if x.requires_grad:
        raise AssertionError("requires_grad was not cleared")
    assert_raises(RuntimeError, ("floating point and complex dtype", "torch_set_requires_grad"),
                  lambda: ops.set_requires_grad(make((3,), torch.int64), True))


@case("2.10", "thread_indices")
def thread_indices_name_each_thread_of_the_region():
    # Two threads, whatever the machine has: 64 chunks of grain 1 are shared between both, so both
    # indices must show (a torch_get_thread_idx that left its output alone would give 0 everywhere).
    previous = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        indices = ops.thread_indices(64)
    finally:
        torch.set_num_threads(previous)
    if indices.shape != (65,) or indices.dtype != torch.int64:
        raise AssertionError(f"shape {tuple(indices.shape)}, dtype {indices.dtype}")
    if sorted(indices[:64].unique().tolist()) != [0, 1]:
        raise AssertionError(f"thread indices {indices[:64].unique().tolist()} in a region of 2 threads, not [0, 1]")
    if indices[64] != 0:
        raise AssertionError(f"outside a parallel region the thread index is {int(indices[64])}, not 0")


# ivalues.cpp: boxed values made through the C shim, the inputs of a profiler range.
@case("2.10", "profiled_inputs")
def profiled_inputs_are_the_ranges_recorded_inputs():
    x = make((2, 3), torch.float32)
    references = x._use_count()
    with torch.autograd.profiler.profile(record_shapes=True) as profile:
        result = ops.profiled_inputs(x, 7, "abiref label")
    # The boxed tensor held a reference to x until aoti_torch_delete_c10_value_object freed it.
    if x._use_count() != references:
        raise AssertionError(f"x has {x._use_count()} references after the op, {references} before: a value leaked")
    assert_close(result, x, "clone inside the range")
    ranges = [event for event in profile.function_events if event.name == "abiref::ivalue_range"]
    if len(ranges) != 1:
        raise AssertionError(f"{len(ranges)} events named abiref::ivalue_range, not 1")
    # The profiler records a tensor's shape and an int's value; a string and a list of strings are
    # recorded as inputs without shape or value (their count shows they arrived).
    shapes = [list(shape) for shape in ranges[0].input_shapes]
    concrete = list(ranges[0].concrete_inputs)
    if shapes != [[2, 3], [], [], []] or len(concrete) != 4 or concrete[1] != 7:
        raise AssertionError(f"recorded input shapes {shapes}, concrete inputs {concrete}")
    children = [child.name for child in ranges[0].cpu_children]
    if children != ["aten::clone"]:
        raise AssertionError(f"the range holds {children}, not the clone (was it ended?)")
