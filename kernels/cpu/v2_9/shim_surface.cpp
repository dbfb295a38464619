// Kernels that call the hand-written C shim of 2.9 directly (aoti_torch/c/shim.h), one op per family:
// scalars in and out of tensors, storage and layout facts, views made from strides and from raw
// pointers, clones and copies, handle assignment, and the deprecated matmul entry points that old
// extensions still import. Every result is checked against torch's eager result by test_v2_9.py, so
// a shim that breaks in a newer release is seen as a wrong result, an error or a load failure.
#include <torch/csrc/inductor/aoti_torch/c/shim.h>
#include <torch/csrc/stable/library.h>
#include <torch/csrc/stable/tensor.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>

#include "abiref/boxing.h"

namespace {

using abiref::boxing::from;
using abiref::boxing::to;
using torch::stable::Tensor;

// A new reference returned by a shim, owned from here on (released exactly once by Tensor).
Tensor owned(AtenTensorHandle handle) { return Tensor(handle); }

int32_t dtype_of(const Tensor& x) {
  int32_t dtype = 0;
  TORCH_ERROR_CODE_CHECK(aoti_torch_get_dtype(x.get(), &dtype));
  return dtype;
}

// item_<T> then scalar_to_tensor_<T> of the same type.
template <typename T>
Tensor roundtrip(const Tensor& x, AOTITorchError (*item)(AtenTensorHandle, T*),
                 AOTITorchError (*make)(T, AtenTensorHandle*)) {
  T value{};
  TORCH_ERROR_CODE_CHECK(item(x.get(), &value));
  AtenTensorHandle out = nullptr;
  TORCH_ERROR_CODE_CHECK(make(value, &out));
  return owned(out);
}

// Half and BFloat16 have an item_ but no scalar_to_tensor_: they come back as float32.
template <typename T>
Tensor widened(const Tensor& x, AOTITorchError (*item)(AtenTensorHandle, T*)) {
  T value{};
  TORCH_ERROR_CODE_CHECK(item(x.get(), &value));
  AtenTensorHandle out = nullptr;
  TORCH_ERROR_CODE_CHECK(aoti_torch_scalar_to_tensor_float32(static_cast<float>(value), &out));
  return owned(out);
}

// complex64 comes back as complex64, or widened to complex128 (the only way to reach that shim).
Tensor complex_roundtrip(const Tensor& x, bool widen) {
  c10::complex<float> value;
  TORCH_ERROR_CODE_CHECK(aoti_torch_item_complex64(x.get(), &value));
  AtenTensorHandle out = nullptr;
  if (widen) {
    TORCH_ERROR_CODE_CHECK(
        aoti_torch_scalar_to_tensor_complex128(c10::complex<double>(value.real(), value.imag()), &out));
  } else {
    TORCH_ERROR_CODE_CHECK(aoti_torch_scalar_to_tensor_complex64(value, &out));
  }
  return owned(out);
}

Tensor item_roundtrip(const Tensor& x, bool widen) {
  const int32_t dtype = dtype_of(x);
  if (dtype == aoti_torch_dtype_float32())
    return roundtrip(x, aoti_torch_item_float32, aoti_torch_scalar_to_tensor_float32);
  if (dtype == aoti_torch_dtype_float64())
    return roundtrip(x, aoti_torch_item_float64, aoti_torch_scalar_to_tensor_float64);
  if (dtype == aoti_torch_dtype_uint8()) return roundtrip(x, aoti_torch_item_uint8, aoti_torch_scalar_to_tensor_uint8);
  if (dtype == aoti_torch_dtype_uint16())
    return roundtrip(x, aoti_torch_item_uint16, aoti_torch_scalar_to_tensor_uint16);
  if (dtype == aoti_torch_dtype_uint32())
    return roundtrip(x, aoti_torch_item_uint32, aoti_torch_scalar_to_tensor_uint32);
  if (dtype == aoti_torch_dtype_uint64())
    return roundtrip(x, aoti_torch_item_uint64, aoti_torch_scalar_to_tensor_uint64);
  if (dtype == aoti_torch_dtype_int8()) return roundtrip(x, aoti_torch_item_int8, aoti_torch_scalar_to_tensor_int8);
  if (dtype == aoti_torch_dtype_int16()) return roundtrip(x, aoti_torch_item_int16, aoti_torch_scalar_to_tensor_int16);
  if (dtype == aoti_torch_dtype_int32()) return roundtrip(x, aoti_torch_item_int32, aoti_torch_scalar_to_tensor_int32);
  if (dtype == aoti_torch_dtype_int64()) return roundtrip(x, aoti_torch_item_int64, aoti_torch_scalar_to_tensor_int64);
  if (dtype == aoti_torch_dtype_bool()) return roundtrip(x, aoti_torch_item_bool, aoti_torch_scalar_to_tensor_bool);
  if (dtype == aoti_torch_dtype_float16()) return widened(x, aoti_torch_item_float16);
  if (dtype == aoti_torch_dtype_bfloat16()) return widened(x, aoti_torch_item_bfloat16);
  if (dtype == aoti_torch_dtype_complex64()) return complex_roundtrip(x, widen);
  throw std::runtime_error("item_roundtrip: unsupported dtype");
}

void boxed_item_roundtrip(StableIValue* stack, uint64_t, uint64_t) {
  stack[0] = from(item_roundtrip(to<Tensor>(stack[0]), to<bool>(stack[1])));
}

// Storage offset and size, storage numel, device index, layout, definedness.
void boxed_storage_facts(StableIValue* stack, uint64_t, uint64_t) {
  Tensor x = to<Tensor>(stack[0]);
  int64_t offset = 0, bytes = 0, numel = 0;
  int32_t device_index = 0, layout = 0;
  bool defined = false;
  TORCH_ERROR_CODE_CHECK(aoti_torch_get_storage_offset(x.get(), &offset));
  TORCH_ERROR_CODE_CHECK(aoti_torch_get_storage_size(x.get(), &bytes));
  TORCH_ERROR_CODE_CHECK(aoti_torch_get_storage_numel(x.get(), &numel));
  TORCH_ERROR_CODE_CHECK(aoti_torch_get_device_index(x.get(), &device_index));
  TORCH_ERROR_CODE_CHECK(aoti_torch_get_layout(x.get(), &layout));
  TORCH_ERROR_CODE_CHECK(aoti_torch_is_defined(x.get(), &defined));
  stack[0] = from(offset);
  stack[1] = from(bytes);
  stack[2] = from(numel);
  stack[3] = from(static_cast<int64_t>(device_index));
  stack[4] = from(layout == aoti_torch_layout_strided());
  stack[5] = from(defined);
}

// A 2-d view of x's storage: through as_strided (keeps x's offset) and _reinterpret_tensor (sets it).
void boxed_restrided(StableIValue* stack, uint64_t, uint64_t) {
  Tensor x = to<Tensor>(stack[0]);
  const std::array<int64_t, 2> sizes{to<int64_t>(stack[1]), to<int64_t>(stack[2])};
  const std::array<int64_t, 2> strides{to<int64_t>(stack[3]), to<int64_t>(stack[4])};
  AtenTensorHandle viewed = nullptr;
  AtenTensorHandle reinterpreted = nullptr;
  TORCH_ERROR_CODE_CHECK(aoti_torch_as_strided(x.get(), sizes.data(), strides.data(), &viewed));
  Tensor as_strided = owned(viewed);
  TORCH_ERROR_CODE_CHECK(
      aoti_torch__reinterpret_tensor(x.get(), 2, sizes.data(), strides.data(), to<int64_t>(stack[5]), &reinterpreted));
  stack[0] = from(as_strided);
  stack[1] = from(owned(reinterpreted));
}

// Views of x's memory made from its raw pointer, sizes and strides (tensor_from_blob and _v2).
void boxed_blob_views(StableIValue* stack, uint64_t, uint64_t) {
  Tensor x = to<Tensor>(stack[0]);
  void* data = nullptr;
  int64_t* sizes = nullptr;
  int64_t* strides = nullptr;
  int64_t dim = 0;
  int32_t device_type = 0, device_index = 0;
  TORCH_ERROR_CODE_CHECK(aoti_torch_get_data_ptr(x.get(), &data));
  TORCH_ERROR_CODE_CHECK(aoti_torch_get_sizes(x.get(), &sizes));
  TORCH_ERROR_CODE_CHECK(aoti_torch_get_strides(x.get(), &strides));
  TORCH_ERROR_CODE_CHECK(aoti_torch_get_dim(x.get(), &dim));
  TORCH_ERROR_CODE_CHECK(aoti_torch_get_device_type(x.get(), &device_type));
  TORCH_ERROR_CODE_CHECK(aoti_torch_get_device_index(x.get(), &device_index));
  const int32_t dtype = dtype_of(x);
  AtenTensorHandle first = nullptr;
  AtenTensorHandle second = nullptr;
  TORCH_ERROR_CODE_CHECK(
      aoti_torch_create_tensor_from_blob(data, dim, sizes, strides, 0, dtype, device_type, device_index, &first));
  Tensor from_blob = owned(first);
  TORCH_ERROR_CODE_CHECK(aoti_torch_create_tensor_from_blob_v2(data, dim, sizes, strides, 0, dtype, device_type,
                                                               device_index, &second, aoti_torch_layout_strided(),
                                                               nullptr, 0));
  stack[0] = from(from_blob);
  stack[1] = from(owned(second));
}

// clone (the memory format preserved) and clone_preserve_strides (the strides kept exactly).
void boxed_clones(StableIValue* stack, uint64_t, uint64_t) {
  Tensor x = to<Tensor>(stack[0]);
  AtenTensorHandle plain = nullptr;
  AtenTensorHandle preserved = nullptr;
  TORCH_ERROR_CODE_CHECK(aoti_torch_clone(x.get(), &plain));
  Tensor clone = owned(plain);
  TORCH_ERROR_CODE_CHECK(aoti_torch_clone_preserve_strides(x.get(), &preserved));
  stack[0] = from(clone);
  stack[1] = from(owned(preserved));
}

void boxed_shim_copy(StableIValue* stack, uint64_t, uint64_t) {
  Tensor destination = to<Tensor>(stack[0]);
  Tensor source = to<Tensor>(stack[1]);
  TORCH_ERROR_CODE_CHECK(aoti_torch_copy_(destination.get(), source.get(), /*non_blocking=*/0));
}

// A second handle to `a` is pointed at `b` (assign_tensors); a third handle to `b` (assign_tensors_out).
void boxed_reassigned(StableIValue* stack, uint64_t, uint64_t) {
  Tensor a = to<Tensor>(stack[0]);
  Tensor b = to<Tensor>(stack[1]);
  AtenTensorHandle handle = nullptr;
  TORCH_ERROR_CODE_CHECK(aoti_torch_new_tensor_handle(a.get(), &handle));
  Tensor second = owned(handle);
  TORCH_ERROR_CODE_CHECK(aoti_torch_assign_tensors(b.get(), second.get()));
  AtenTensorHandle third = nullptr;
  TORCH_ERROR_CODE_CHECK(aoti_torch_assign_tensors_out(b.get(), &third));
  stack[0] = from(second);
  stack[1] = from(owned(third));
}

Tensor empty_like_shape(const Tensor& like, std::initializer_list<int64_t> shape) {
  std::array<int64_t, 3> sizes{};
  std::array<int64_t, 3> strides{};
  const int64_t dim = static_cast<int64_t>(shape.size());
  int64_t stride = 1;
  for (int64_t i = dim - 1; i >= 0; --i) {
    sizes[i] = shape.begin()[i];
    strides[i] = stride;
    stride *= sizes[i];
  }
  int32_t device_type = 0, device_index = 0;
  TORCH_ERROR_CODE_CHECK(aoti_torch_get_device_type(like.get(), &device_type));
  TORCH_ERROR_CODE_CHECK(aoti_torch_get_device_index(like.get(), &device_index));
  AtenTensorHandle out = nullptr;
  TORCH_ERROR_CODE_CHECK(
      aoti_torch_empty_strided(dim, sizes.data(), strides.data(), dtype_of(like), device_type, device_index, &out));
  return owned(out);
}

// The deprecated out= matmuls that extensions built before 2.10 import: mm, addmm (beta, alpha), bmm.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
void boxed_matmuls(StableIValue* stack, uint64_t, uint64_t) {
  Tensor a = to<Tensor>(stack[0]);      // (n, k)
  Tensor b = to<Tensor>(stack[1]);      // (k, m)
  Tensor bias = to<Tensor>(stack[2]);   // (n, m)
  Tensor batch = to<Tensor>(stack[3]);  // (p, n, k)
  Tensor other = to<Tensor>(stack[4]);  // (p, k, m)
  const double beta = to<double>(stack[5]);
  const double alpha = to<double>(stack[6]);
  Tensor mm = empty_like_shape(a, {a.size(0), b.size(1)});
  TORCH_ERROR_CODE_CHECK(aoti_torch_mm_out(mm.get(), a.get(), b.get()));
  Tensor addmm = empty_like_shape(a, {a.size(0), b.size(1)});
  TORCH_ERROR_CODE_CHECK(aoti_torch_addmm_out(addmm.get(), bias.get(), a.get(), b.get(), static_cast<float>(beta),
                                              static_cast<float>(alpha)));
  Tensor bmm = empty_like_shape(batch, {batch.size(0), batch.size(1), other.size(2)});
  TORCH_ERROR_CODE_CHECK(aoti_torch_bmm_out(bmm.get(), batch.get(), other.get()));
  stack[0] = from(mm);
  stack[1] = from(addmm);
  stack[2] = from(bmm);
}

// The views, index and scatter kernels of the deprecated part of 2.9's shim.
void boxed_reviewed(StableIValue* stack, uint64_t, uint64_t) {
  Tensor x = to<Tensor>(stack[0]);
  AtenTensorHandle as_int = nullptr;
  TORCH_ERROR_CODE_CHECK(aoti_torch_view_dtype(x.get(), aoti_torch_dtype_int32(), &as_int));
  stack[0] = from(owned(as_int));
}

void boxed_real_view(StableIValue* stack, uint64_t, uint64_t) {
  Tensor x = to<Tensor>(stack[0]);
  AtenTensorHandle real = nullptr;
  TORCH_ERROR_CODE_CHECK(aoti_torch_view_as_real(x.get(), &real));
  stack[0] = from(owned(real));
}

void boxed_nonzero_of(StableIValue* stack, uint64_t, uint64_t) {
  Tensor x = to<Tensor>(stack[0]);
  AtenTensorHandle indices = nullptr;
  TORCH_ERROR_CODE_CHECK(aoti_torch_nonzero(x.get(), &indices));
  stack[0] = from(owned(indices));
}

// repeat_interleave of a repeats tensor, without and with the output size given.
void boxed_repeated(StableIValue* stack, uint64_t, uint64_t) {
  Tensor repeats = to<Tensor>(stack[0]);
  int64_t output_size = to<int64_t>(stack[1]);
  AtenTensorHandle unsized = nullptr;
  AtenTensorHandle sized = nullptr;
  TORCH_ERROR_CODE_CHECK(aoti_torch_repeat_interleave_Tensor(repeats.get(), nullptr, &unsized));
  Tensor first = owned(unsized);
  TORCH_ERROR_CODE_CHECK(aoti_torch_repeat_interleave_Tensor(repeats.get(), &output_size, &sized));
  stack[0] = from(first);
  stack[1] = from(owned(sized));
}

void boxed_mm_plus_mm(StableIValue* stack, uint64_t, uint64_t) {
  Tensor a = to<Tensor>(stack[0]);
  Tensor b = to<Tensor>(stack[1]);
  Tensor c = to<Tensor>(stack[2]);
  Tensor d = to<Tensor>(stack[3]);
  Tensor out = empty_like_shape(a, {a.size(0), b.size(1)});
  TORCH_ERROR_CODE_CHECK(aoti_torch__mm_plus_mm_out(out.get(), a.get(), b.get(), c.get(), d.get()));
  stack[0] = from(out);
}
#pragma GCC diagnostic pop

// Along dim 0 of a 1-d `self`: scatter, scatter_reduce ("sum", self included) and index_put (accumulating).
void boxed_scatters(StableIValue* stack, uint64_t, uint64_t) {
  Tensor self = to<Tensor>(stack[0]);
  Tensor index = to<Tensor>(stack[1]);
  Tensor src = to<Tensor>(stack[2]);
  Tensor scattered = empty_like_shape(self, {self.size(0)});
  TORCH_ERROR_CODE_CHECK(aoti_torch_scatter_out(scattered.get(), self.get(), 0, index.get(), src.get()));
  Tensor reduced = empty_like_shape(self, {self.size(0)});
  TORCH_ERROR_CODE_CHECK(
      aoti_torch_scatter_reduce_out(reduced.get(), self.get(), 0, index.get(), src.get(), "sum", /*include_self=*/1));
  Tensor put = empty_like_shape(self, {self.size(0)});
  const std::array<AtenTensorHandle, 1> indices{index.get()};
  TORCH_ERROR_CODE_CHECK(aoti_torch_index_put_out(put.get(), self.get(), indices.data(), 1, src.get(), true));
  stack[0] = from(scattered);
  stack[1] = from(reduced);
  stack[2] = from(put);
}

void boxed_zeroed(StableIValue* stack, uint64_t, uint64_t) {
  Tensor x = to<Tensor>(stack[0]);
  TORCH_ERROR_CODE_CHECK(aoti_torch_zero_(x.get()));
}

// Grad mode as the caller set it, and after the kernel flipped it (then restored).
void boxed_grad_mode_flip(StableIValue* stack, uint64_t, uint64_t) {
  const bool before = aoti_torch_grad_mode_is_enabled();
  aoti_torch_grad_mode_set_enabled(!before);
  const bool flipped = aoti_torch_grad_mode_is_enabled();
  aoti_torch_grad_mode_set_enabled(before);
  stack[0] = from(before);
  stack[1] = from(flipped);
}

// The enum codes an extension compiles in through the shim's getters, in one int64 tensor (the caller
// compares them with torch's own): layouts, memory formats, device types, then element sizes.
void boxed_enum_codes(StableIValue* stack, uint64_t, uint64_t) {
  Tensor like = to<Tensor>(stack[0]);
  const std::array<int64_t, 22> codes{
      aoti_torch_layout_strided(),
      aoti_torch_layout_sparse_coo(),
      aoti_torch_layout_sparse_csr(),
      aoti_torch_layout_sparse_csc(),
      aoti_torch_layout_sparse_bsr(),
      aoti_torch_layout_sparse_bsc(),
      aoti_torch_layout__mkldnn(),
      aoti_torch_layout_jagged(),
      aoti_torch_memory_format_contiguous_format(),
      aoti_torch_memory_format_channels_last(),
      aoti_torch_memory_format_channels_last_3d(),
      aoti_torch_memory_format_preserve_format(),
      aoti_torch_device_type_cpu(),
      aoti_torch_device_type_cuda(),
      aoti_torch_device_type_meta(),
      aoti_torch_device_type_xpu(),
      aoti_torch_device_type_mps(),
      aoti_torch_device_type_privateuse1(),
      static_cast<int64_t>(aoti_torch_dtype_element_size(aoti_torch_dtype_float32())),
      static_cast<int64_t>(aoti_torch_dtype_element_size(aoti_torch_dtype_float64())),
      static_cast<int64_t>(aoti_torch_dtype_element_size(aoti_torch_dtype_int16())),
      static_cast<int64_t>(aoti_torch_dtype_element_size(aoti_torch_dtype_bool())),
  };
  const std::array<int64_t, 1> sizes{static_cast<int64_t>(codes.size())};
  const std::array<int64_t, 1> strides{1};
  int32_t device_type = 0;
  TORCH_ERROR_CODE_CHECK(aoti_torch_get_device_type(like.get(), &device_type));
  AtenTensorHandle out = nullptr;
  TORCH_ERROR_CODE_CHECK(
      aoti_torch_empty_strided(1, sizes.data(), strides.data(), aoti_torch_dtype_int64(), device_type, -1, &out));
  Tensor result = owned(out);
  void* data = nullptr;
  TORCH_ERROR_CODE_CHECK(aoti_torch_get_data_ptr(result.get(), &data));
  std::copy(codes.begin(), codes.end(), static_cast<int64_t*>(data));
  stack[0] = from(result);
}

// Each getter is called directly, not through a table of function pointers: taking a shim's
// address binds it through the GOT, which the matrix's call counter (and the mutation benchmark's
// broken shims) never see.
int32_t dtype_getter(int64_t index) {
  switch (index) {
    case 0: return aoti_torch_dtype_uint8();
    case 1: return aoti_torch_dtype_int8();
    case 2: return aoti_torch_dtype_int16();
    case 3: return aoti_torch_dtype_int32();
    case 4: return aoti_torch_dtype_int64();
    case 5: return aoti_torch_dtype_float16();
    case 6: return aoti_torch_dtype_float32();
    case 7: return aoti_torch_dtype_float64();
    case 8: return aoti_torch_dtype_complex32();
    case 9: return aoti_torch_dtype_complex64();
    case 10: return aoti_torch_dtype_complex128();
    case 11: return aoti_torch_dtype_bool();
    case 12: return aoti_torch_dtype_bfloat16();
    case 13: return aoti_torch_dtype_float8_e5m2();
    case 14: return aoti_torch_dtype_float8_e4m3fn();
    case 15: return aoti_torch_dtype_float8_e5m2fnuz();
    case 16: return aoti_torch_dtype_float8_e4m3fnuz();
    case 17: return aoti_torch_dtype_uint16();
    case 18: return aoti_torch_dtype_uint32();
    case 19: return aoti_torch_dtype_uint64();
    default: throw std::runtime_error("dtype_getter: no such getter");
  }
}

// The dtype code the shim's getter number `index` gives (in the order of DTYPE_GETTERS in
// test_v2_9.py), next to the code torch reports for `x`, whose dtype is the test's pick for that
// getter: every getter is then checked against torch itself, whatever the numbering.
void boxed_dtype_getter(StableIValue* stack, uint64_t, uint64_t) {
  Tensor x = to<Tensor>(stack[0]);
  const auto index = to<int64_t>(stack[1]);
  stack[0] = from(static_cast<int64_t>(dtype_getter(index)));
  stack[1] = from(static_cast<int64_t>(dtype_of(x)));
}

// The ABI version the runtime reports (major in the top byte, then minor, then patch).
void boxed_abi_version(StableIValue* stack, uint64_t, uint64_t) {
  (void)to<Tensor>(stack[0]);
  stack[0] = from(static_cast<int64_t>(aoti_torch_abi_version()));
}

}  // namespace

STABLE_TORCH_LIBRARY_IMPL(abiref, CPU, m) {
  m.impl("item_roundtrip", &boxed_item_roundtrip);
  m.impl("storage_facts", &boxed_storage_facts);
  m.impl("restrided", &boxed_restrided);
  m.impl("blob_views", &boxed_blob_views);
  m.impl("clones", &boxed_clones);
  m.impl("shim_copy_", &boxed_shim_copy);
  m.impl("reassigned", &boxed_reassigned);
  m.impl("matmuls", &boxed_matmuls);
  m.impl("reviewed", &boxed_reviewed);
  m.impl("real_view", &boxed_real_view);
  m.impl("nonzero_of", &boxed_nonzero_of);
  m.impl("repeated", &boxed_repeated);
  m.impl("mm_plus_mm", &boxed_mm_plus_mm);
  m.impl("scatters", &boxed_scatters);
  m.impl("zeroed_", &boxed_zeroed);
  m.impl("grad_mode_flip", &boxed_grad_mode_flip);
  m.impl("enum_codes", &boxed_enum_codes);
  m.impl("dtype_getter", &boxed_dtype_getter);
  m.impl("abi_version", &boxed_abi_version);
}
