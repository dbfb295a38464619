// Kernels that call the runtime utilities of 2.9's hand-written C shim (aoti_torch/c/shim.h) that
// AOTInductor's generated code uses and no other reference kernel reaches: a profiler range
// (aoti_record_function_start/_end), a view carved out of a byte pool (_alloc_from_pool), torch's own
// check and warning (aoti_torch_check, aoti_torch_warn), the generic device guard, pinned and
// uninitialized tensors, the old tensor_copy_, and the debug printer's print and save. test_v2_9.py
// checks each against what torch itself does (the profiler's events, the warning Python sees, the
// printed text, the saved file read back by torch.load, the error torch raises without an accelerator).
#include <torch/csrc/inductor/aoti_torch/c/shim.h>
#include <torch/csrc/stable/library.h>
#include <torch/csrc/stable/tensor.h>

#include <array>
#include <cstdint>

#include "abiref/boxing.h"

// abiref/shim_check.h needs stable/macros.h, which 2.9's headers lack: there only the failing call's
// name crosses (TORCH_ERROR_CODE_CHECK); with newer headers torch's own message does.
#if __has_include(<torch/csrc/stable/macros.h>)
#include "abiref/shim_check.h"
#else
#define ABIREF_SHIM_CHECK(call) TORCH_ERROR_CODE_CHECK(call)
#endif

namespace abiref::surface_runtime {
namespace {

using abiref::boxing::from;
using abiref::boxing::to;
using torch::stable::Tensor;

int32_t dtype_of(const Tensor& x) {
  int32_t dtype = 0;
  ABIREF_SHIM_CHECK(aoti_torch_get_dtype(x.get(), &dtype));
  return dtype;
}

int32_t device_type_of(const Tensor& x) {
  int32_t device_type = 0;
  ABIREF_SHIM_CHECK(aoti_torch_get_device_type(x.get(), &device_type));
  return device_type;
}

// An empty tensor with x's sizes, strides, dtype and device.
Tensor empty_like_strided(const Tensor& x) {
  int64_t* sizes = nullptr;
  int64_t* strides = nullptr;
  int64_t dim = 0;
  int32_t device_index = 0;
  ABIREF_SHIM_CHECK(aoti_torch_get_sizes(x.get(), &sizes));
  ABIREF_SHIM_CHECK(aoti_torch_get_strides(x.get(), &strides));
  ABIREF_SHIM_CHECK(aoti_torch_get_dim(x.get(), &dim));
  ABIREF_SHIM_CHECK(aoti_torch_get_device_index(x.get(), &device_index));
  AtenTensorHandle out = nullptr;
  ABIREF_SHIM_CHECK(aoti_torch_empty_strided(dim, sizes, strides, dtype_of(x), device_type_of(x), device_index, &out));
  return Tensor(out);
}

Tensor cloned(const Tensor& x) {
  AtenTensorHandle out = nullptr;
  ABIREF_SHIM_CHECK(aoti_torch_clone(x.get(), &out));
  return Tensor(out);
}

// x cloned inside a profiler range named "abiref::runtime_range" (no inputs, no keyword arguments).
void boxed_profiled_clone(StableIValue* stack, uint64_t, uint64_t) {
  Tensor x = to<Tensor>(stack[0]);
  AtenRecordFunctionHandle range = nullptr;
  ABIREF_SHIM_CHECK(aoti_record_function_start("abiref::runtime_range", nullptr, nullptr, 0, &range));
  Tensor result = cloned(x);
  ABIREF_SHIM_CHECK(aoti_record_function_end(range));
  stack[0] = from(result);
}

// A (rows, cols) float32 view of a byte pool, starting offset_bytes in (the way AOTInductor carves
// its buffers out of one allocation).
void boxed_pool_view(StableIValue* stack, uint64_t, uint64_t) {
  Tensor pool = to<Tensor>(stack[0]);
  const int64_t offset_bytes = to<int64_t>(stack[1]);
  const std::array<int64_t, 2> sizes{to<int64_t>(stack[2]), to<int64_t>(stack[3])};
  const std::array<int64_t, 2> strides{sizes[1], 1};
  AtenTensorHandle view = nullptr;
  ABIREF_SHIM_CHECK(aoti_torch__alloc_from_pool(pool.get(), offset_bytes, aoti_torch_dtype_float32(), 2, sizes.data(),
                                                strides.data(), &view));
  stack[0] = from(Tensor(view));
}

// torch's own check: raises torch's error with the message when `ok` is false, else x cloned.
void boxed_checked_clone(StableIValue* stack, uint64_t, uint64_t) {
  Tensor x = to<Tensor>(stack[0]);
  const bool ok = to<bool>(stack[1]);
  aoti_torch_check(ok, __func__, __FILE__, static_cast<uint32_t>(__LINE__), "abiref checked_clone: ok was false");
  stack[0] = from(cloned(x));
}

// torch's own warning (seen by Python as a UserWarning), then x cloned.
void boxed_warned_clone(StableIValue* stack, uint64_t, uint64_t) {
  Tensor x = to<Tensor>(stack[0]);
  aoti_torch_warn(__func__, __FILE__, static_cast<uint32_t>(__LINE__), "abiref warned_clone: a runtime warning");
  stack[0] = from(cloned(x));
}

// The device index a new tensor of `like`'s device type lands on under a device guard for `index`,
// then after the guard is moved to `next_index`. torch refuses the guard without an accelerator.
void boxed_guarded_devices(StableIValue* stack, uint64_t, uint64_t) {
  Tensor like = to<Tensor>(stack[0]);
  const auto index = static_cast<int32_t>(to<int64_t>(stack[1]));
  const auto next_index = static_cast<int32_t>(to<int64_t>(stack[2]));
  const std::array<int64_t, 1> sizes{1};
  const std::array<int64_t, 1> strides{1};
  auto landed_on = [&]() {
    AtenTensorHandle out = nullptr;
    ABIREF_SHIM_CHECK(
        aoti_torch_empty_strided(1, sizes.data(), strides.data(), dtype_of(like), device_type_of(like), -1, &out));
    Tensor probe(out);
    int32_t device_index = 0;
    ABIREF_SHIM_CHECK(aoti_torch_get_device_index(probe.get(), &device_index));
    return static_cast<int64_t>(device_index);
  };
  DeviceGuardHandle guard = nullptr;
  ABIREF_SHIM_CHECK(aoti_torch_create_device_guard(index, &guard));
  const int64_t first = landed_on();
  const AOTITorchError moved = aoti_torch_device_guard_set_index(guard, next_index);
  const int64_t second = moved == AOTI_TORCH_SUCCESS ? landed_on() : -1;
  ABIREF_SHIM_CHECK(aoti_torch_delete_device_guard(guard));
  ABIREF_SHIM_CHECK(moved);
  stack[0] = from(first);
  stack[1] = from(second);
}

// A (rows, cols) tensor of like's dtype in pinned host memory (torch needs an accelerator for that).
void boxed_pinned_empty(StableIValue* stack, uint64_t, uint64_t) {
  Tensor like = to<Tensor>(stack[0]);
  const std::array<int64_t, 2> sizes{to<int64_t>(stack[1]), to<int64_t>(stack[2])};
  const std::array<int64_t, 2> strides{sizes[1], 1};
  AtenTensorHandle out = nullptr;
  ABIREF_SHIM_CHECK(aoti_torch_empty_strided_pinned(2, sizes.data(), strides.data(), dtype_of(like),
                                                    aoti_torch_device_type_cpu(), 0, &out));
  stack[0] = from(Tensor(out));
}

// A new handle that holds no tensor (is it defined?), given a copy of x made by the old
// tensor_copy_ (src first) into an empty tensor of x's layout (is it defined now?), and returned.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
void boxed_uninitialized_copy(StableIValue* stack, uint64_t, uint64_t) {
  Tensor x = to<Tensor>(stack[0]);
  AtenTensorHandle handle = nullptr;
  ABIREF_SHIM_CHECK(aoti_torch_new_uninitialized_tensor(&handle));
  Tensor holder(handle);
  bool defined_before = true;
  ABIREF_SHIM_CHECK(aoti_torch_is_defined(holder.get(), &defined_before));
  Tensor copy = empty_like_strided(x);
  ABIREF_SHIM_CHECK(aoti_torch_tensor_copy_(x.get(), copy.get()));
  ABIREF_SHIM_CHECK(aoti_torch_assign_tensors(copy.get(), holder.get()));
  bool defined_after = false;
  ABIREF_SHIM_CHECK(aoti_torch_is_defined(holder.get(), &defined_after));
  stack[0] = from(defined_before);
  stack[1] = from(defined_after);
  stack[2] = from(holder);
}
#pragma GCC diagnostic pop

// The debug printer: x's values and summary on the process's standard output.
void boxed_printed(StableIValue* stack, uint64_t, uint64_t) {
  Tensor x = to<Tensor>(stack[0]);
  aoti_torch_print_tensor_handle(x.get(), "abiref printed");
}

// The debug printer's save: x pickled to tmp/aoti_torch/abiref_launch_abiref_kernel_abiref_tensor_<device>.pt
// under the current directory.
void boxed_saved(StableIValue* stack, uint64_t, uint64_t) {
  Tensor x = to<Tensor>(stack[0]);
  aoti_torch_save_tensor_handle(x.get(), "abiref_tensor", "abiref_launch", "abiref_kernel");
}

}  // namespace
}  // namespace abiref::surface_runtime

STABLE_TORCH_LIBRARY_IMPL(abiref, CPU, m) {
  using namespace abiref::surface_runtime;
  m.impl("profiled_clone", &boxed_profiled_clone);
  m.impl("pool_view", &boxed_pool_view);
  m.impl("checked_clone", &boxed_checked_clone);
  m.impl("warned_clone", &boxed_warned_clone);
  m.impl("pinned_empty", &boxed_pinned_empty);
  m.impl("uninitialized_copy", &boxed_uninitialized_copy);
  m.impl("printed", &boxed_printed);
  m.impl("saved", &boxed_saved);
}

// The guard test passes an accelerator tensor as `like` where there is one: any backend.
STABLE_TORCH_LIBRARY_IMPL(abiref, CompositeExplicitAutograd, m) {
  m.impl("guarded_devices", &abiref::surface_runtime::boxed_guarded_devices);
}
