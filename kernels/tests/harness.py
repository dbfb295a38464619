"""A tiny test harness for the reference kernels, run inside one torch release's Python.

The store's virtual environments hold torch and nothing else, so this stands in for pytest:
tests register with @case, the runner calls the ones whose group the build contains and
reports each op's result as data.
"""

import ctypes
import os
import tempfile
import traceback

import torch

CASES = []

NUMERIC_DTYPES = [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int32, torch.int64]
FLOAT_DTYPES = [torch.float32, torch.float64, torch.float16, torch.bfloat16]


def case(group, op, backend="cpu", namespace="abiref"):
    """Registers a test of `namespace`::`op` that needs kernel group `group` ("2.10") on `backend`."""

    def register(function):
        CASES.append({"group": group, "op": op, "backend": backend, "namespace": namespace, "name": function.__name__,
                      "run": function})
        return function

    return register


def make(shape, dtype, device="cpu", seed=0):
    generator = torch.Generator().manual_seed(seed)
    if dtype.is_floating_point:
        values = torch.randn(shape, generator=generator, dtype=torch.float64) * 4
    else:
        values = torch.randint(-50, 50, shape, generator=generator, dtype=torch.int64)
    return values.to(dtype).to(device)


def layouts(dtype, device="cpu"):
    """Inputs of every layout a strided kernel must honour, each with a name for messages."""
    base = make((6, 8), dtype, device, seed=1)
    return [
        ("empty", make((0,), dtype, device)),
        ("empty-2d", make((3, 0), dtype, device)),
        ("scalar", make((), dtype, device)),
        ("vector", make((7,), dtype, device)),
        ("contiguous-3d", make((2, 3, 4), dtype, device)),
        ("transposed", base.t()),
        ("stepped", base[:, ::3]),
        ("offset", base[2:, 1:]),
        ("expanded", make((1, 5), dtype, device).expand(4, 5)),
    ]


def tolerance(dtype):
    if dtype in (torch.float16, torch.bfloat16):
        return {"rtol": 2e-2, "atol": 5e-2}
    return {"rtol": 1e-5, "atol": 1e-6}


def assert_close(actual, expected, what=""):
    if actual.shape != expected.shape:
        raise AssertionError(f"{what}: shape {tuple(actual.shape)} != {tuple(expected.shape)}")
    if actual.dtype != expected.dtype:
        raise AssertionError(f"{what}: dtype {actual.dtype} != {expected.dtype}")
    if actual.device != expected.device:
        raise AssertionError(f"{what}: device {actual.device} != {expected.device}")
    if expected.dtype.is_floating_point:
        torch.testing.assert_close(actual, expected, **tolerance(expected.dtype), msg=lambda m: f"{what}: {m}")
    elif not torch.equal(actual, expected):
        raise AssertionError(f"{what}: values differ")


def warm_up():
    """Makes the first comparison's lazy imports (torch.testing imports torch.distributed.tensor on its
    first call: about 3 s of CPU on 2.15, most of a cell's time) in the process that forks the cells,
    so that each forked cell does not pay them again. One-element tensors: no thread pool starts."""
    one = torch.ones(1)
    torch.testing.assert_close(one, one)


def assert_raises(exception_type, message_part, call):
    """The call must raise `exception_type` with `message_part` in its message: an error path is
    checked by what it says, so that a shim failing for another reason is not taken for it.
    `message_part` may be a tuple of alternatives (one must appear): the words of the error where
    the release carries them across the shim, the failing shim call's name where it does not."""
    parts = message_part if isinstance(message_part, tuple) else (message_part,)
    if not all(parts):
        raise ValueError("assert_raises needs the part of the message that identifies the error")
    try:
        call()
    except exception_type as error:
        if not any(part in str(error) for part in parts):
            raise AssertionError(f"raised {exception_type.__name__} without {message_part!r}: {error}") from None
        return
    raise AssertionError(f"expected {exception_type.__name__} containing {message_part!r}, nothing was raised")


def take_reference(address):
    """The Python object at `address` (an id()) whose new reference a kernel handed over: returns the
    object and releases that reference, so the caller's variable holds the object as usual."""
    obj = ctypes.cast(address, ctypes.py_object).value
    ctypes.pythonapi.Py_DecRef(ctypes.py_object(obj))
    return obj


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks",
                 "keepcost")]


def heap_in_use():
    """Bytes of the C heap in use now (glibc's mallinfo2: chunks allocated in every arena plus the
    mmapped ones), which is where libtorch's `new` and the kernels' allocations land."""
    mallinfo2 = ctypes.CDLL(None).mallinfo2
    mallinfo2.restype = _MallInfo2
    info = mallinfo2()
    return info.uordblks + info.hblkhd


def assert_heap_returns(what, call, leak_bytes):
    """Ownership that no reference count shows (a list, string or boxed value the kernel frees
    through the shim): `call` runs once to warm torch's caches, then again between two readings
    of the heap in use, which must not have grown by `leak_bytes` / 4. `leak_bytes` is what the
    second call would leave behind if the handles it frees were not freed (at least a few MB, far
    above the few kB the interpreter and torch's caches move)."""
    call()
    before = heap_in_use()
    call()
    grown = heap_in_use() - before
    if grown > leak_bytes // 4:
        raise AssertionError(f"{what}: the heap grew by {grown} bytes over the call (a handle not freed would "
                             f"leave about {leak_bytes})")


def captured_stderr(call):
    """Runs `call` with file descriptor 2 sent to a temporary file (what C++ writes to std::cerr
    lands there); returns (the call's exception or None, the text written), and writes the text on
    to the real stderr so that no diagnostic is lost."""
    saved = os.dup(2)
    raised = None
    with tempfile.TemporaryFile() as sink:
        os.dup2(sink.fileno(), 2)
        try:
            call()
        except Exception as error:  # the caller judges it
            raised = error
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        sink.seek(0)
        text = sink.read().decode(errors="replace")
    os.write(2, text.encode())
    return raised, text


def run_cases(groups, backend, device_available):
    """Runs the registered cases of `groups` for `backend`; returns one result dict per case."""
    results = []
    for registered in CASES:
        if registered["group"] not in groups or registered["backend"] != backend:
            continue
        result = {"op": registered["op"], "name": registered["name"], "group": registered["group"]}
        if backend != "cpu" and not device_available:
            result.update(outcome="skipped", message="no device")
        else:
            try:
                registered["run"]()
                result.update(outcome="passed", message="")
            except AssertionError as error:  # the op answered, wrongly
                result.update(outcome="failed", failure="wrong-result", message=f"{type(error).__name__}: {error}",
                              traceback=traceback.format_exc())
            except Exception as error:  # the op (or the test) raised; a failing op must not stop the others
                result.update(outcome="failed", failure="error", message=f"{type(error).__name__}: {error}",
                              traceback=traceback.format_exc())
        results.append(result)
    return results
