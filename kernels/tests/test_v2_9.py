"""Tests of the 2.9 group against torch's eager results."""

import ctypes
import os
import sys
import tempfile
import warnings

import torch

from harness import FLOAT_DTYPES, NUMERIC_DTYPES, assert_close, assert_raises, case, layouts, make

ops = torch.ops.abiref


@case("2.9", "scaled_add")
def scaled_add_matches_add_for_every_dtype_and_layout():
    for dtype in NUMERIC_DTYPES:
        for name, a in layouts(dtype):
            b = make(a.shape, dtype, seed=7)
            b = b.t().contiguous().t() if b.dim() == 2 else b  # a second, different layout
            expected = torch.add(a, b, alpha=2)
            assert_close(ops.scaled_add(a, b, 2.0), expected, f"{dtype} {name}")


@case("2.9", "scaled_add")
def scaled_add_rejects_mismatched_inputs():
    a = make((3, 4), torch.float32)
    assert_raises(RuntimeError, "shapes differ in rank", lambda: ops.scaled_add(a, make((4,), torch.float32), 1.0))
    assert_raises(RuntimeError, "shapes differ at dim 1", lambda: ops.scaled_add(a, make((3, 5), torch.float32), 1.0))
    assert_raises(RuntimeError, "dtypes differ", lambda: ops.scaled_add(a, a.double(), 1.0))
    flags = torch.ones(3, 4, dtype=torch.bool)
    assert_raises(RuntimeError, "scaled_add: unsupported dtype", lambda: ops.scaled_add(flags, flags, 1.0))


@case("2.9", "strided_sum")
def strided_sum_matches_sum():
    for dtype in NUMERIC_DTYPES:
        for name, x in layouts(dtype):
            assert_close(ops.strided_sum(x), x.sum(dtype=dtype), f"{dtype} {name}")


@case("2.9", "contiguous_copy")
def contiguous_copy_matches_clone():
    for dtype in NUMERIC_DTYPES:
        for name, x in layouts(dtype):
            assert_close(ops.contiguous_copy(x), x.clone(), f"{dtype} {name}")


@case("2.9", "metadata")
def metadata_matches_tensor_attributes():
    for name, x in layouts(torch.float32):
        innermost = x.stride(-1) if x.dim() else 1
        expected = (x.numel(), x.dim(), innermost, x.is_contiguous())
        actual = tuple(ops.metadata(x))
        if actual != expected:
            raise AssertionError(f"{name}: {actual} != {expected}")


@case("2.9", "padded")
def padded_matches_functional_pad():
    for dtype in FLOAT_DTYPES:
        for name, x in layouts(dtype):
            if x.dim() == 0:
                continue
            expected = torch.nn.functional.pad(x, (2, 1), value=-3.0)
            assert_close(ops.padded(x, 2, 1, -3.0), expected, f"{dtype} {name}")


@case("2.9", "fill_narrow_")
def fill_narrow_writes_into_the_argument():
    for dtype in NUMERIC_DTYPES:
        for dim, shape in ((0, (6, 4)), (1, (3, 7))):
            x = make(shape, dtype)
            expected = x.clone()
            expected.narrow(dim, 1, 2).fill_(5)
            ops.fill_narrow_(x, dim, 1, 2, 5.0)
            assert_close(x, expected, f"{dtype} dim {dim}")
    x = make((3, 4), torch.float32)
    assert_raises(RuntimeError, ("exceeds dimension size", "aoti_torch_aten_narrow"), lambda: ops.fill_narrow_(x, 0, 2, 5, 1.0))


@case("2.9", "amax_dim")
def amax_dim_matches_amax():
    for dtype in NUMERIC_DTYPES:
        for name, x in layouts(dtype):
            if x.dim() == 0 or x.numel() == 0:
                continue
            for keepdim in (False, True):
                assert_close(ops.amax_dim(x, -1, keepdim), x.amax(-1, keepdim), f"{dtype} {name} {keepdim}")


@case("2.9", "swap01")
def swap01_is_a_transposed_view():
    x = make((3, 5), torch.float32)
    swapped = ops.swap01(x)
    assert_close(swapped, x.t(), "values")
    if swapped.data_ptr() != x.data_ptr() or swapped.stride() != (1, 5):
        raise AssertionError("swap01 did not return a view with swapped strides")


@case("2.9", "zeros_2d")
def zeros_2d_follows_the_dtype_of_its_argument():
    for dtype in NUMERIC_DTYPES:
        assert_close(ops.zeros_2d(make((2,), dtype), 3, 4), torch.zeros(3, 4, dtype=dtype), str(dtype))
        assert_close(ops.zeros_2d(make((2,), dtype), 0, 4), torch.zeros(0, 4, dtype=dtype), f"{dtype} empty")


@case("2.9", "dispatch_abs")
def dispatch_abs_calls_aten_abs():
    for dtype in NUMERIC_DTYPES:
        for name, x in layouts(dtype):
            assert_close(ops.dispatch_abs(x), x.abs(), f"{dtype} {name}")


# shim_surface.cpp: the hand-written C shim of 2.9, called directly.

ROUNDTRIP_VALUES = {
    torch.float32: 2.5, torch.float64: -1.25, torch.uint8: 200, torch.uint16: 60000, torch.uint32: 4000000000,
    torch.uint64: 2**63 + 5, torch.int8: -100, torch.int16: -30000, torch.int32: -2000000000, torch.int64: -(2**62),
    torch.bool: True, torch.float16: 1.5, torch.bfloat16: -0.75, torch.complex64: complex(1.5, -2.0),
}


@case("2.9", "item_roundtrip")
def item_roundtrip_keeps_every_scalar_type():
    for dtype, value in ROUNDTRIP_VALUES.items():
        x = torch.tensor([value], dtype=dtype)
        widened = {torch.float16: torch.float32, torch.bfloat16: torch.float32}.get(dtype, dtype)
        back = ops.item_roundtrip(x, False)
        if back.dtype != widened or back.dim() != 0 or back.item() != x.to(widened).item():
            raise AssertionError(f"{dtype}: {back!r} is not {x.to(widened).item()!r} as {widened}")
    wide = ops.item_roundtrip(torch.tensor([complex(1.5, -2.0)], dtype=torch.complex64), True)
    if wide.dtype != torch.complex128 or wide.item() != complex(1.5, -2.0):
        raise AssertionError(f"complex64 widened: {wide!r}")
    assert_raises(RuntimeError, "unsupported dtype", lambda: ops.item_roundtrip(torch.zeros(1, dtype=torch.complex128), False))
    assert_raises(RuntimeError, ("a Tensor with 2 elements", "cannot be converted to Scalar", "item(x.get(), &value)"),
                  lambda: ops.item_roundtrip(torch.zeros(2), False))


@case("2.9", "storage_facts")
def storage_facts_match_the_tensor():
    for dtype in NUMERIC_DTYPES:
        for name, x in layouts(dtype):
            storage = x.untyped_storage()
            expected = (x.storage_offset(), storage.nbytes(), storage.nbytes() // x.element_size(), -1, True, True)
            actual = tuple(ops.storage_facts(x))
            if actual != expected:
                raise AssertionError(f"{dtype} {name}: {actual} != {expected}")


@case("2.9", "restrided")
def restrided_views_match_as_strided():
    base = make((6, 8), torch.float32)
    for x in (base, base[1:, 2:]):
        viewed, reinterpreted = ops.restrided(x, 3, 4, 1, 5, 7)
        assert_close(viewed, torch.as_strided(x, (3, 4), (1, 5)), "as_strided")
        # _reinterpret_tensor's offset counts from the argument's own offset, as_strided's from the storage's start.
        assert_close(reinterpreted, torch.as_strided(x, (3, 4), (1, 5), x.storage_offset() + 7), "_reinterpret_tensor")
        if viewed.untyped_storage().data_ptr() != x.untyped_storage().data_ptr():
            raise AssertionError("as_strided did not return a view of the argument's storage")
    viewed, reinterpreted = ops.restrided(base, 2, 2, 8, 1, 0)
    reinterpreted.fill_(9.0)
    if base[0, 0].item() != 9.0 or base[1, 1].item() != 9.0:
        raise AssertionError("writes through _reinterpret_tensor's view did not reach the storage")


@case("2.9", "blob_views")
def blob_views_alias_the_argument():
    for dtype in NUMERIC_DTYPES:
        for name, x in layouts(dtype):
            if x.numel() == 0:
                continue
            for which, view in zip(("from_blob", "from_blob_v2"), ops.blob_views(x)):
                assert_close(view, x, f"{dtype} {name} {which}")
                if view.data_ptr() != x.data_ptr() or view.stride() != x.stride():
                    raise AssertionError(f"{dtype} {name} {which}: not a view with the argument's strides")
    x = make((3, 4), torch.float32)
    first, second = ops.blob_views(x)
    first[0, 0] = 11.0
    second[2, 3] = 12.0
    if x[0, 0].item() != 11.0 or x[2, 3].item() != 12.0:
        raise AssertionError("writes through a blob view did not reach the argument")


@case("2.9", "clones")
def clones_copy_values_and_keep_strides():
    for dtype in NUMERIC_DTYPES:
        for name, x in layouts(dtype):
            plain, preserved = ops.clones(x)
            assert_close(plain, x, f"{dtype} {name} clone")
            assert_close(preserved, x, f"{dtype} {name} clone_preserve_strides")
            if x.numel() and (plain.data_ptr() == x.data_ptr() or preserved.data_ptr() == x.data_ptr()):
                raise AssertionError(f"{dtype} {name}: a clone shares the argument's memory")
    transposed = make((4, 6), torch.float32).t()
    if ops.clones(transposed)[1].stride() != transposed.stride():
        raise AssertionError("clone_preserve_strides changed the strides of a transposed tensor")


@case("2.9", "shim_copy_")
def shim_copy_writes_and_converts():
    for dtype in NUMERIC_DTYPES:
        for name, source in layouts(dtype):
            destination = torch.zeros(source.shape, dtype=torch.float64)
            ops.shim_copy_(destination, source)
            assert_close(destination, source.to(torch.float64), f"{dtype} {name}")
    destination = torch.zeros(3, 4)
    ops.shim_copy_(destination, torch.arange(4.0))  # broadcast along the rows
    assert_close(destination, torch.arange(4.0).expand(3, 4), "broadcast")
    assert_raises(RuntimeError, ("must match the size", "aoti_torch_copy_"),
                  lambda: ops.shim_copy_(torch.zeros(3, 4), torch.zeros(5)))


@case("2.9", "reassigned")
def reassigned_handles_point_at_the_second_tensor():
    a, b = make((2, 3), torch.float32, seed=1), make((4,), torch.float64, seed=2)
    for result in ops.reassigned(a, b):
        if result.data_ptr() != b.data_ptr() or result.dtype != b.dtype or result.shape != b.shape:
            raise AssertionError(f"{result!r} is not the second argument")
    assert_close(a, make((2, 3), torch.float32, seed=1), "the first argument is untouched")


@case("2.9", "matmuls")
def matmuls_match_torch():
    for dtype in (torch.float32, torch.float64):
        a, b, bias = make((3, 4), dtype, seed=1), make((4, 5), dtype, seed=2), make((3, 5), dtype, seed=3)
        batch, other = make((2, 3, 4), dtype, seed=4), make((2, 4, 5), dtype, seed=5)
        mm, addmm, bmm = ops.matmuls(a, b, bias, batch, other, 0.5, 2.0)
        assert_close(mm, a @ b, f"{dtype} mm_out")
        assert_close(addmm, torch.addmm(bias, a, b, beta=0.5, alpha=2.0), f"{dtype} addmm_out")
        assert_close(bmm, torch.bmm(batch, other), f"{dtype} bmm_out")
    a = make((3, 4), torch.float32)
    assert_raises(RuntimeError, ("cannot be multiplied", "aoti_torch_mm_out"),
                  lambda: ops.matmuls(a, a, a, make((2, 3, 4), torch.float32), make((2, 4, 5), torch.float32), 1.0, 1.0))


@case("2.9", "reviewed")
def reviewed_reinterprets_float32_bits_as_int32():
    x = make((3, 4), torch.float32)
    viewed = ops.reviewed(x)
    if viewed.dtype != torch.int32 or not torch.equal(viewed, x.view(torch.int32)) or viewed.data_ptr() != x.data_ptr():
        raise AssertionError(f"view_dtype: {viewed!r}")


@case("2.9", "real_view")
def real_view_matches_view_as_real():
    x = torch.complex(make((3,), torch.float32, seed=1), make((3,), torch.float32, seed=2))
    viewed = ops.real_view(x)
    assert_close(viewed, torch.view_as_real(x), "view_as_real")
    if viewed.data_ptr() != x.data_ptr():
        raise AssertionError("view_as_real did not return a view")
    assert_raises(RuntimeError, ("view_as_real is only supported for complex tensors", "aoti_torch_view_as_real"),
                  lambda: ops.real_view(make((3,), torch.float32)))


@case("2.9", "nonzero_of")
def nonzero_of_matches_nonzero():
    for dtype in NUMERIC_DTYPES:
        for name, x in layouts(dtype):
            x = torch.where(x.abs() > 1, x, torch.zeros_like(x))
            expected = torch.nonzero(x)
            actual = ops.nonzero_of(x)
            if not torch.equal(actual, expected):
                raise AssertionError(f"{dtype} {name}: {actual} != {expected}")


@case("2.9", "repeated")
def repeated_matches_repeat_interleave():
    repeats = torch.tensor([2, 0, 3, 1])
    unsized, sized = ops.repeated(repeats, 6)
    expected = torch.repeat_interleave(repeats)
    if not torch.equal(unsized, expected) or not torch.equal(sized, expected):
        raise AssertionError(f"{unsized}, {sized} != {expected}")


@case("2.9", "mm_plus_mm")
def mm_plus_mm_is_the_sum_of_two_products():
    a, b, c, d = (make(shape, torch.float64, seed=s) for s, shape in enumerate(((3, 4), (4, 5), (3, 2), (2, 5))))
    assert_close(ops.mm_plus_mm(a, b, c, d), a @ b + c @ d, "_mm_plus_mm_out")


@case("2.9", "scatters")
def scatters_match_torch():
    for dtype in (torch.float32, torch.float64, torch.int64):
        base = make((6,), dtype, seed=1)
        index = torch.tensor([4, 0, 4, 2])
        src = make((4,), dtype, seed=2)
        scattered, reduced, put = ops.scatters(base, index, src)
        assert_close(reduced, base.scatter_reduce(0, index, src, "sum", include_self=True), f"{dtype} scatter_reduce")
        assert_close(put, base.index_put((index,), src, accumulate=True), f"{dtype} index_put")
        unique = torch.tensor([5, 1, 3, 0])  # scatter with repeated indices picks an unspecified writer
        assert_close(ops.scatters(base, unique, src)[0], base.scatter(0, unique, src), f"{dtype} scatter")
        assert_close(base, make((6,), dtype, seed=1), f"{dtype}: the input is untouched")
    assert_raises(RuntimeError, ("index 9 is out of bounds", "out of bounds", "aoti_torch_scatter_out"),
                  lambda: ops.scatters(make((6,), torch.float32), torch.tensor([9]), make((1,), torch.float32)))


@case("2.9", "zeroed_")
def zeroed_clears_the_argument_in_place():
    for dtype in NUMERIC_DTYPES:
        for name, x in layouts(dtype):
            base = x
            ops.zeroed_(base)
            if base.numel() and bool((base != 0).any()):
                raise AssertionError(f"{dtype} {name}: not zeroed")


@case("2.9", "grad_mode_flip")
def grad_mode_flip_sees_and_restores_the_callers_mode():
    like = torch.zeros(1)
    with torch.enable_grad():
        flags = tuple(ops.grad_mode_flip(like))
        restored = torch.is_grad_enabled()
    with torch.no_grad():
        no_grad_flags = tuple(ops.grad_mode_flip(like))
        still_off = not torch.is_grad_enabled()
    if flags != (True, False) or no_grad_flags != (False, True) or not restored or not still_off:
        raise AssertionError(f"grad mode: {flags}, {no_grad_flags}, restored {restored}, still off {still_off}")


# The values of c10's Layout, MemoryFormat and DeviceType enums, which every extension built against
# any release has compiled in through these getters: a renumbering breaks them all.
ENUM_CODES = [
    0, 1, 2, 4, 5, 6, 3, 7,  # layouts: strided, sparse_coo, sparse_csr, sparse_csc, sparse_bsr, sparse_bsc, _mkldnn, jagged
    0, 2, 3, 1,  # memory formats: contiguous, channels_last, channels_last_3d, preserve
    0, 1, 14, 12, 13, 20,  # device types: cpu, cuda, meta, xpu, mps, privateuse1
    4, 8, 2, 1,  # element sizes: float32, float64, int16, bool
]


@case("2.9", "enum_codes")
def enum_codes_match_torchs():
    codes = ops.enum_codes(torch.zeros(1)).tolist()
    if codes != ENUM_CODES:
        raise AssertionError(f"{codes} != {ENUM_CODES}")


DTYPE_GETTERS = ["uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64", "complex32", "complex64",
                 "complex128", "bool", "bfloat16", "float8_e5m2", "float8_e4m3fn", "float8_e5m2fnuz", "float8_e4m3fnuz",
                 "uint16", "uint32", "uint64"]


@case("2.9", "dtype_getter")
def every_dtype_getter_gives_the_code_torch_reports_for_that_dtype():
    for index, name in enumerate(DTYPE_GETTERS):
        getter, reported = ops.dtype_getter(torch.empty(0, dtype=getattr(torch, name)), index)
        if getter != reported:
            raise AssertionError(f"aoti_torch_dtype_{name}() is {getter}, torch reports {reported} for torch.{name}")


@case("2.9", "abi_version")
def abi_version_names_the_running_release():
    version = ops.abi_version(torch.zeros(1))
    major, minor = (int(part) for part in torch.__version__.split(".")[:2])
    if (version >> 56, (version >> 48) & 0xFF) != (major, minor):
        raise AssertionError(f"aoti_torch_abi_version() is {version:#018x} under torch {torch.__version__}")


# shim_surface_aten.cpp: the aten-like entry points of the hand-written C shim, against torch's eager ops.


@case("2.9", "shim_convolution")
def shim_convolution_matches_aten_convolution():
    x = make((2, 4, 7, 6), torch.float32, seed=1)
    for transposed, groups, stride, padding, dilation, output_padding in (
            (False, 1, 1, 1, 1, 0), (False, 2, 2, 0, 2, 0), (True, 1, 2, 1, 1, 1)):
        shape = (4, 6 // groups, 3, 3) if transposed else (6, 4 // groups, 3, 3)
        weight, bias = make(shape, torch.float32, seed=2), make((6,), torch.float32, seed=3)
        expected = torch.ops.aten.convolution(x, weight, bias, [stride] * 2, [padding] * 2, [dilation] * 2, transposed,
                                              [output_padding] * 2, groups)
        actual = ops.shim_convolution(x, weight, bias, stride, padding, dilation, transposed, output_padding, groups)
        assert_close(actual, expected, f"transposed {transposed} groups {groups} stride {stride}")
    assert_raises(RuntimeError, ("expected input", "aoti_torch_convolution"),
                  lambda: ops.shim_convolution(x, make((6, 3, 3, 3), torch.float32), bias, 1, 1, 1, False, 0, 1))


@case("2.9", "shim_fft_c2c")
def shim_fft_c2c_matches_aten_fft_c2c():
    x = torch.complex(make((4, 6), torch.float32, seed=1), make((4, 6), torch.float32, seed=2))
    for dim, normalization, forward in ((1, 0, True), (0, 1, False), (1, 2, True)):
        expected = torch.ops.aten._fft_c2c(x, [dim], normalization, forward)
        assert_close(ops.shim_fft_c2c(x, dim, normalization, forward), expected, f"dim {dim} norm {normalization}")


@case("2.9", "shim_embedding_bag")
def shim_embedding_bag_matches_aten_embedding_bag():
    weight = make((10, 3), torch.float32, seed=1)
    indices = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9])
    offsets = torch.tensor([0, 4, 6])
    per_sample = make((8,), torch.float32, seed=2)
    for mode, weighted, include_last, padding_idx in ((0, False, False, -1), (1, False, True, 4), (2, False, False, -1),
                                                      (0, True, False, -1)):
        expected = torch.ops.aten._embedding_bag(weight, indices, offsets, False, mode, False,
                                                 per_sample if weighted else None, include_last, padding_idx)
        actual = ops.shim_embedding_bag(weight, indices, offsets, mode, per_sample, weighted, include_last, padding_idx)
        checked = (0, 2, 3) if mode == 2 else (0, 2)  # output, bag_size, and max_indices where max defines them
        for i in checked:
            assert_close(actual[i], expected[i], f"mode {mode} weighted {weighted}: result {i}")


# CPU has no kernel for aten::_scaled_dot_product_flash_attention nor _efficient_attention (CUDA only):
# on CPU these shims can only fail, and the test checks that torch's own error crosses them.
@case("2.9", "shim_flash_attention")
def shim_flash_attention_reports_torchs_missing_cpu_kernel():
    q, k, v = (make((1, 2, 4, 8), torch.float32, seed=s) for s in range(3))
    for v2 in (False, True):
        name = "aoti_torch__scaled_dot_product_flash_attention" + ("_v2" if v2 else "")
        assert_raises(RuntimeError, ("Could not run 'aten::_scaled_dot_product_flash_attention'", name),
                      lambda: ops.shim_flash_attention(q, k, v, False, v2, 0.25))


@case("2.9", "shim_efficient_attention")
def shim_efficient_attention_reports_torchs_missing_cpu_kernel():
    q, k, v = (make((1, 2, 4, 8), torch.float32, seed=s) for s in range(3))
    assert_raises(RuntimeError, ("Could not run 'aten::_scaled_dot_product_efficient_attention'",
                                 "aoti_torch__scaled_dot_product_efficient_attention"),
                  lambda: ops.shim_efficient_attention(q, k, v))


@case("2.9", "shim_scaled_mm")
def shim_scaled_mm_matches_scaled_mm():
    a = make((4, 8), torch.float32, seed=1).to(torch.float8_e4m3fn)
    b = make((4, 8), torch.float32, seed=2).to(torch.float8_e4m3fn).t()
    scale_a, scale_b = torch.tensor(0.5), torch.tensor(2.5)
    bias = make((4,), torch.float32, seed=3)
    expected = torch._scaled_mm(a, b, scale_a, scale_b, bias=bias, out_dtype=torch.float32)
    for v2 in (False, True):
        assert_close(ops.shim_scaled_mm(a, b, scale_a, scale_b, bias, v2), expected, f"v2 {v2}")


@case("2.9", "shim_check_inf_and_nan")
def shim_check_inf_and_nan_rejects_exactly_non_finite_tensors():
    ops.shim_check_inf_and_nan(make((3, 4), torch.float32))
    for bad, word in ((float("nan"), "NaN"), (float("inf"), "INF")):
        x = make((3, 4), torch.float32)
        x[1, 2] = bad
        assert_raises(RuntimeError, (f"At least one {word} in checked", "aoti_torch_check_inf_and_nan"),
                      lambda: ops.shim_check_inf_and_nan(x))


@case("2.9", "shim_fbgemm_fp16_linear")
def shim_fbgemm_fp16_linear_matches_fbgemm():
    x, weight, bias = make((3, 8), torch.float32, seed=1), make((5, 8), torch.float32, seed=2), make((5,), torch.float32)
    expected = torch.ops.aten.fbgemm_linear_fp16_weight(x, torch.ops.aten.fbgemm_pack_gemm_matrix_fp16(weight), bias)
    actual = ops.shim_fbgemm_fp16_linear(x, weight, bias)
    assert_close(actual, expected, "fbgemm fp16 linear")
    error = float((actual - (x @ weight.t() + bias)).abs().max())  # fp16 weights: close to float32, not equal
    if not error < 0.05:
        raise AssertionError(f"fbgemm fp16 linear is {error} away from float32's")


@case("2.9", "shim_wrapped_quantized_linear")
def shim_wrapped_quantized_linear_matches_aten():
    x, weight, bias = make((3, 8), torch.float32, seed=1), make((5, 8), torch.float32, seed=2), make((5,), torch.float32)
    scales = (torch.tensor(0.05), torch.tensor(0.02), torch.tensor(0.1))
    zeros = (torch.tensor(3, dtype=torch.int32), torch.tensor(0, dtype=torch.int32), torch.tensor(2, dtype=torch.int32))
    packed = torch.ops.aten._wrapped_linear_prepack(weight, scales[1], zeros[1], bias)
    expected = torch.ops.aten._wrapped_quantized_linear_prepacked(x, scales[0], zeros[0], packed, scales[2], zeros[2], 5)
    actual = ops.shim_wrapped_quantized_linear(x, scales[0], zeros[0], weight, scales[1], zeros[1], bias, scales[2],
                                               zeros[2])
    if not torch.equal(actual, expected) or not bool(expected.abs().sum() > 0):
        raise AssertionError(f"{actual} != {expected}")


# shim_cpu.h is visible only to a 2.9-target build with 2.9's headers (see shim_surface_aten.cpp).
def shim_cpu_declared():
    return ops.shim_cpu_declared(torch.zeros(1))


@case("2.9", "shim_int4pack_mm")
def shim_int4pack_mm_matches_int4mm_packed_weight_cpu():
    if not shim_cpu_declared():
        return
    n, k, group = 16, 64, 32
    packed = torch.ops.aten._convert_weight_to_int4pack_for_cpu(torch.randint(0, 16, (n, k), dtype=torch.int32,
                                                                              generator=torch.Generator().manual_seed(1)), 1)
    scales_and_zeros = make((k // group, n, 2), torch.float32, seed=2)
    x = make((3, k), torch.float32, seed=3)
    group_size = torch.tensor(group)
    expected = torch.ops.quantized.int4mm_packed_weight_cpu(x, packed, group_size, scales_and_zeros)
    assert_close(ops.shim_int4pack_mm(x, packed, group_size, scales_and_zeros), expected, "int4 mm")


@case("2.9", "shim_linear_pointwise")
def shim_linear_pointwise_matches_fused_linear():
    if not shim_cpu_declared():
        return
    x, w, b = make((3, 4), torch.float32, seed=1), make((5, 4), torch.float32, seed=2), make((5,), torch.float32)
    other = make((3, 5), torch.float32, seed=3)
    relu, added = ops.shim_linear_pointwise(x, w, b, other)
    assert_close(relu, torch.relu(x @ w.t() + b), "linear + relu")
    assert_close(added, x @ w.t() + b + other, "linear + add")


@case("2.9", "shim_mkl_linear")
def shim_mkl_linear_matches_linear():
    if not shim_cpu_declared() or not torch.backends.mkl.is_available():
        return
    x, w, b = make((3, 4), torch.float32, seed=1), make((5, 4), torch.float32, seed=2), make((5,), torch.float32)
    packed = torch.ops.mkl._mkl_reorder_linear_weight(w, 3)
    assert_close(ops.shim_mkl_linear(x, packed, w, b, 3), torch.ops.mkl._mkl_linear(x, packed, w, b, 3), "mkl linear")
    assert_close(ops.shim_mkl_linear(x, packed, w, b, 3), x @ w.t() + b, "mkl linear against linear")


@case("2.9", "shim_conv_pointwise")
def shim_conv_pointwise_matches_fused_convolutions():
    if not shim_cpu_declared():
        return
    x, w, b = make((1, 2, 5, 5), torch.float32, seed=1), make((3, 2, 3, 3), torch.float32, seed=2), make((3,), torch.float32)
    other, wt = make((1, 3, 5, 5), torch.float32, seed=3), make((2, 3, 3, 3), torch.float32, seed=4)
    accum = other.clone()
    relu, added, in_place, transposed = ops.shim_conv_pointwise(x, w, b, other, accum, wt)
    conv = torch.conv2d(x, w, b, 1, 1)
    assert_close(relu, torch.relu(conv), "conv + relu")
    assert_close(added, conv + other, "conv + add")
    assert_close(accum, conv + other, "conv + add into accum")
    assert_close(in_place, conv + other, "conv + add into accum: returned")
    assert_close(transposed, torch.relu(torch.conv_transpose2d(x, wt, None, 1, 1)), "transposed conv + relu")


@case("2.9", "shim_rnn_layer")
def shim_rnn_layer_matches_mkldnn_rnn_layer_and_lstm():
    if not shim_cpu_declared():
        return
    steps, batch, inputs, hidden = 5, 2, 3, 4
    args = [make(shape, torch.float32, seed=s) for s, shape in enumerate(
        ((steps, batch, inputs), (4 * hidden, inputs), (4 * hidden, hidden), (4 * hidden,), (4 * hidden,),
         (batch, hidden), (batch, hidden)))]
    expected = torch.ops.aten.mkldnn_rnn_layer(*args, False, [], 2, hidden, 1, True, False, False, False)
    actual = ops.shim_rnn_layer(*args, hidden)
    for i, name in enumerate(("output", "h", "c")):
        assert_close(actual[i], expected[i], f"rnn layer {name}")
    lstm = torch.nn.LSTM(inputs, hidden)
    with torch.no_grad():
        for parameter, value in zip((lstm.weight_ih_l0, lstm.weight_hh_l0, lstm.bias_ih_l0, lstm.bias_hh_l0), args[1:5]):
            parameter.copy_(value)
        output, _ = lstm(args[0], (args[5][None], args[6][None]))
    assert_close(actual[0], output, "rnn layer against nn.LSTM")


def quantized_inputs(shape, seed):
    generator = torch.Generator().manual_seed(seed)
    return torch.randint(0, 255, shape, dtype=torch.uint8, generator=generator), torch.tensor(0.02), torch.tensor(
        5, dtype=torch.int32)


def quantized_weights(shape, seed):
    generator = torch.Generator().manual_seed(seed)
    # |w| <= 64: a pair of u8 x s8 products stays within int16 (255 * 64 * 2 < 32768), so an x86 CPU without
    # VNNI (AMD EPYC here), whose u8s8 path adds pairs in int16 with saturation, computes what the math does.
    weight = torch.randint(-64, 64, shape, dtype=torch.int8, generator=generator)
    return weight, torch.rand(shape[0], generator=generator) * 0.01 + 0.001, torch.zeros(shape[0], dtype=torch.int32)


@case("2.9", "shim_qlinear")
def shim_qlinear_matches_onednn_qlinear():
    if not shim_cpu_declared():
        return
    qx, x_scale, x_zero = quantized_inputs((3, 8), 1)
    weight, w_scale, w_zero = quantized_weights((5, 8), 2)
    bias, other = make((5,), torch.float32, seed=3), make((3, 5), torch.float32, seed=4)
    qw = torch.ops.onednn.qlinear_prepack(weight, [3, 8])
    plain, added = ops.shim_qlinear(qx, x_scale, x_zero, qw, w_scale, w_zero, bias, other)
    expected = torch.ops.onednn.qlinear_pointwise.tensor(qx, x_scale, x_zero, qw, w_scale, w_zero, bias, 1.0, 0,
                                                         torch.float32, "none", [], "")
    assert_close(plain, expected, "qlinear")
    assert_close(plain, ((qx.float() - 5) * 0.02) @ (weight.float() * w_scale[:, None]).t() + bias, "qlinear by hand")
    expected = torch.ops.onednn.qlinear_pointwise.binary_tensor(qx, x_scale, x_zero, qw, w_scale, w_zero, other, bias,
                                                                1.0, 0, torch.float32, 1.0, 0, "add", 1.0, "none", [], "")
    assert_close(added, expected, "qlinear + add")
    assert_close(added, plain + other, "qlinear + add by hand")


@case("2.9", "shim_qconv")
def shim_qconv_matches_onednn_qconv():
    if not shim_cpu_declared():
        return
    qx, x_scale, x_zero = quantized_inputs((1, 2, 5, 5), 1)
    qx = qx.contiguous(memory_format=torch.channels_last)
    weight, w_scale, w_zero = quantized_weights((3, 2, 3, 3), 2)
    bias = make((3,), torch.float32, seed=3)
    accum = make((1, 3, 5, 5), torch.float32, seed=4).contiguous(memory_format=torch.channels_last)
    qw = torch.ops.onednn.qconv_prepack(weight, w_scale, 0.02, 5, [1, 1], [1, 1], [1, 1], 1, [1, 2, 5, 5])
    plain, summed = ops.shim_qconv(qx, x_scale, x_zero, qw, w_scale, w_zero, bias, accum.clone())
    by_hand = torch.conv2d((qx.float() - 5) * 0.02, weight.float() * w_scale[:, None, None, None], bias, 1, 1)
    assert_close(plain, torch.ops.onednn.qconv_pointwise.tensor(qx, x_scale, x_zero, qw, w_scale, w_zero, bias, [1, 1],
                                                                [1, 1], [1, 1], 1, 1.0, 0, torch.float32, "none", [],
                                                                ""), "qconv")
    assert_close(plain, by_hand, "qconv by hand")
    assert_close(summed, by_hand + accum, "qconv + sum by hand")


@case("2.9", "shim_all_reduce")
def shim_all_reduce_matches_functional_collectives_on_one_rank():
    if not shim_cpu_declared():
        return
    import torch.distributed as dist

    dist.init_process_group("gloo", store=dist.HashStore(), rank=0, world_size=1)
    try:
        group = dist.group.WORLD.group_name
        x, in_place = make((3, 4), torch.float32, seed=1), make((3, 4), torch.float32, seed=2)
        before = in_place.clone()
        expected = torch.ops._c10d_functional.wait_tensor(torch.ops._c10d_functional.all_reduce(x, "sum", group))
        actual = ops.shim_all_reduce(x, in_place, int(group))
        assert_close(actual, expected, "all_reduce then wait_tensor")
        if actual.data_ptr() == x.data_ptr():
            raise AssertionError("all_reduce returned its input, not a new tensor")
        assert_close(in_place, before, "all_reduce_ on one rank")
        assert_raises(RuntimeError, ("987", "aoti_torch_cpu__c10d_functional_all_reduce"),
                      lambda: ops.shim_all_reduce(x, in_place, 987))
    finally:
        dist.destroy_process_group()


# shim_surface_runtime.cpp: the runtime utilities of the hand-written C shim.


def _captured_output(fd, call):
    """What `call` writes on file descriptor `fd` (1 or 2) from C or C++, as text."""
    with tempfile.TemporaryFile(mode="w+b") as sink:
        sys.stdout.flush()
        sys.stderr.flush()
        saved = os.dup(fd)
        os.dup2(sink.fileno(), fd)
        try:
            call()
            ctypes.CDLL(None).fflush(None)
        finally:
            os.dup2(saved, fd)
            os.close(saved)
        sink.seek(0)
        return sink.read().decode(errors="replace")


@case("2.9", "profiled_clone")
def profiled_clone_opens_a_range_the_profiler_records():
    x = make((2, 3), torch.float32)
    with torch.autograd.profiler.profile() as profile:
        result = ops.profiled_clone(x)
    assert_close(result, x, "clone inside the range")
    ranges = [event for event in profile.function_events if event.name == "abiref::runtime_range"]
    if len(ranges) != 1:
        raise AssertionError(f"{len(ranges)} events named abiref::runtime_range, not 1")
    # Ended by aoti_record_function_end: the clone nests inside the range, which closes before the op
    # does (a range never ended is closed by the profiler with its op, and holds nothing).
    outer = [event for event in profile.function_events if event.name == "abiref::profiled_clone"]
    children = [child.name for child in ranges[0].cpu_children]
    if children != ["aten::clone"] or len(outer) != 1 or not ranges[0].time_range.end < outer[0].time_range.end:
        raise AssertionError(f"the range holds {children} and ends at {ranges[0].time_range.end}, its op at "
                             f"{[event.time_range.end for event in outer]}")


@case("2.9", "pool_view")
def pool_view_is_the_pool_bytes_seen_as_float32():
    pool = torch.arange(64, dtype=torch.uint8)
    view = ops.pool_view(pool, 8, 2, 3)
    expected = pool[8:32].view(torch.float32).view(2, 3)
    if view.dtype != torch.float32 or view.shape != (2, 3) or view.stride() != (3, 1):
        raise AssertionError(f"{view.dtype} {tuple(view.shape)} {view.stride()}")
    if view.data_ptr() != pool.data_ptr() + 8 or not torch.equal(view, expected):
        raise AssertionError(f"not the pool's bytes 8..32: {view} != {expected}")
    view.fill_(1.5)  # a view: writing through it changes the pool
    if not torch.equal(pool[8:32].view(torch.float32), torch.full((6,), 1.5)):
        raise AssertionError("writing through the view left the pool unchanged")


@case("2.9", "checked_clone")
def checked_clone_raises_torchs_error_with_the_message():
    x = make((4,), torch.float64)
    assert_close(ops.checked_clone(x, True), x, "a passing check")
    assert_raises(RuntimeError, "abiref checked_clone: ok was false", lambda: ops.checked_clone(x, False))


def _warnings_of(call):
    """The messages of the Python warnings `call` raises, and the text it writes on standard error."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        text = _captured_output(2, call)
    return [str(warning.message) for warning in caught], text


@case("2.9", "warned_clone")
def warned_clone_warns_where_torchs_own_warnings_go():
    # A TORCH_WARN inside an op called through torch.ops reaches Python's warnings in 2.15; in 2.9 to
    # 2.14 torch's default handler writes it on standard error. An aten op's warning shows which, and
    # the shim's warning must arrive the same way.
    a = torch.ones(3)
    reference = _warnings_of(lambda: torch.ops.aten.add.out(a, a, out=torch.empty(5)))
    as_python = any("resized" in message for message in reference[0])
    on_stderr = "resized" in reference[1]
    x = make((3,), torch.float32)
    results = []
    messages, text = _warnings_of(lambda: results.append(ops.warned_clone(x)))
    assert_close(results[0], x, "clone after the warning")
    wanted = "abiref warned_clone: a runtime warning"
    seen_as_python = any(wanted in message for message in messages)
    seen_on_stderr = wanted in text
    if not (seen_as_python or seen_on_stderr):
        raise AssertionError(f"the warning was not seen: warnings {messages}, standard error {text!r}")
    if (as_python or on_stderr) and (seen_as_python, seen_on_stderr) != (as_python, on_stderr):
        raise AssertionError(f"torch's warning went to Python {as_python}, stderr {on_stderr}; the shim's to "
                             f"Python {seen_as_python}, stderr {seen_on_stderr}")


@case("2.9", "guarded_devices")
def guarded_devices_follow_the_guard_or_are_refused_without_an_accelerator():
    if torch.cuda.is_available():
        last = torch.cuda.device_count() - 1
        like = torch.zeros(1, device="cuda")
        before = torch.cuda.current_device()
        actual = tuple(ops.guarded_devices(like, last, 0))
        if actual != (last, 0) or torch.cuda.current_device() != before:
            raise AssertionError(f"{actual} != {(last, 0)}, or the device was not restored")
    else:
        # A CUDA torch without a GPU fails to initialise CUDA; a CPU-only torch has no accelerator.
        refused = ("CUDA", "accelerator", "aoti_torch_create_device_guard")
        assert_raises(RuntimeError, refused, lambda: ops.guarded_devices(torch.zeros(1), 0, 0))


@case("2.9", "pinned_empty")
def pinned_empty_is_pinned_or_refused_as_torch_refuses():
    like = torch.zeros(1, dtype=torch.float64)
    try:
        eager = torch.empty_strided((2, 3), (3, 1), dtype=torch.float64, pin_memory=True)
    except RuntimeError as error:  # no GPU: torch needs its driver for pinned memory
        words = str(error).split(".")[0]
        assert_raises(RuntimeError, (words, "aoti_torch_empty_strided_pinned"), lambda: ops.pinned_empty(like, 2, 3))
        return
    pinned = ops.pinned_empty(like, 2, 3)
    facts = (pinned.shape, pinned.stride(), pinned.dtype, pinned.device, pinned.is_pinned())
    if facts != (eager.shape, eager.stride(), eager.dtype, eager.device, eager.is_pinned()):
        raise AssertionError(f"{facts} differ from torch's pinned tensor")


@case("2.9", "uninitialized_copy")
def uninitialized_copy_starts_undefined_and_holds_a_copy():
    for name, x in layouts(torch.float32):
        if name == "expanded":  # an empty tensor with its strides would overlap itself: nothing to copy into
            continue
        defined_before, defined_after, copy = ops.uninitialized_copy(x)
        if defined_before or not defined_after:
            raise AssertionError(f"{name}: defined before {defined_before}, after {defined_after}")
        assert_close(copy, x, name)
        if x.numel() > 1 and (copy.stride() != x.stride() or copy.data_ptr() == x.data_ptr()):
            raise AssertionError(f"{name}: strides {copy.stride()} != {x.stride()}, or not a copy")


@case("2.9", "printed")
def printed_shows_the_message_values_and_summary():
    x = torch.tensor([[1.5, -2.0, 4.0], [0.0, 8.0, 3.5]])
    text = _captured_output(1, lambda: ops.printed(x))
    expected = ["abiref printed", "Number of elements: 6", "Min value: -2", "Max value: 8", "Size: [2, 3]",
                "Stride: [3, 1]", "-2.0000", "8.0000"]
    missing = [part for part in expected if part not in text]
    if missing:
        raise AssertionError(f"{missing} not in the printed text {text!r}")


@case("2.9", "saved")
def saved_tensor_is_read_back_by_torch_load():
    x = make((3, 4), torch.float64, seed=5)
    with tempfile.TemporaryDirectory() as directory:
        before = os.getcwd()
        os.chdir(directory)
        try:
            os.mkdir("tmp")  # torch creates tmp/aoti_torch under the current directory, not its parent
            _captured_output(1, lambda: ops.saved(x))
        finally:
            os.chdir(before)
        # 2.9 writes tmp/aoti_torch/NAME; from 2.10 torch joins the folder and NAME without a separator
        # (tmp/aoti_torchNAME). Either is torch's own choice: the file is found wherever torch put it.
        name = "abiref_launch_abiref_kernel_abiref_tensor_cpu.pt"
        found = [os.path.join(folder, file) for folder, _, files in os.walk(directory) for file in files
                 if file.endswith(name)]
        if len(found) != 1:
            raise AssertionError(f"{len(found)} saved files named *{name}: {found}")
        path = found[0]
        assert_close(torch.load(path), x, "the saved tensor")
