"""Tests of the 2.15 group."""

import sys

import torch

from harness import NUMERIC_DTYPES, assert_raises, case, make, take_reference

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


@case("2.15", "dtype_object")
def dtype_object_is_torchs_dtype():
    for dtype in NUMERIC_DTYPES + [torch.bool, torch.complex64, torch.float8_e5m2]:
        references = sys.getrefcount(dtype)
        obj = take_reference(ops.dtype_object(torch.empty(2, dtype=dtype)))
        if obj is not dtype:
            raise AssertionError(f"{dtype}: got {obj!r}")
        del obj
        if sys.getrefcount(dtype) != references:
            raise AssertionError(f"{dtype}: {references} references before, {sys.getrefcount(dtype)} after")


@case("2.15", "device_objects")
def device_objects_read_and_make_torch_devices():
    for text in ("cpu", "cuda:1", "meta", "xpu:2"):
        given = torch.device(text)
        device, address = ops.device_objects(id(given))
        made = take_reference(address)
        if device != given or made != given or made is given:
            raise AssertionError(f"{text}: read {device!r}, made {made!r}")
        if sys.getrefcount(made) != 2:  # `made` and getrefcount's argument: the kernel kept none
            raise AssertionError(f"{text}: the new device object has {sys.getrefcount(made) - 1} references")
    assert_raises(RuntimeError, ("torch.device", "torch_device_from_pyobject"), lambda: ops.device_objects(id(3)))
